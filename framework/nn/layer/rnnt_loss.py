"""RNNTLoss, as in `paddle.nn`; it calls `F.rnnt_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.rnnt import rnnt_loss
from framework.nn.layer.layers import Layer


class RNNTLoss(Layer):
    """The RNN-Transducer loss, as `paddle.nn.RNNTLoss`.

    RNN-Transducer loss of `[B, T, U + 1, V]` log-probabilities against `[B, U]` labels,
    given each sequence's frame and label counts (see `F.rnnt_loss`).

    Args:
        blank (int, optional): the blank class. Default: 0.
        fastemit_lambda (float, optional): the FastEmit weight. Default: 0.001.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[B, T, U + 1, V]` log-probabilities; float32 or float64.
        - label: `[B, U]` int32.
        - input_lengths, label_lengths: `[B]` int32.
        - output: a scalar, or `[B]` with 'none'.

    Examples:
        >>> import framework as paddle
        >>> loss_fn = paddle.nn.RNNTLoss(blank=0, fastemit_lambda=0.0)
        >>> logp = paddle.nn.functional.log_softmax(paddle.zeros([1, 2, 2, 3]), -1)
        >>> label = paddle.to_tensor([[1]], dtype='int32')
        >>> frames = paddle.to_tensor([2], dtype='int32')
        >>> print(loss_fn(logp, label, frames, paddle.to_tensor([1], dtype='int32')))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               2.60268974)
    """

    def __init__(
        self,
        blank: int = 0,
        fastemit_lambda: float = 0.001,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "RNNTLoss")
        self.blank = blank
        self.reduction = reduction
        self.fastemit_lambda = fastemit_lambda
        self.name = name

    def forward(
        self, input: Tensor, label: Tensor, input_lengths: Tensor, label_lengths: Tensor
    ) -> Tensor:
        return rnnt_loss(
            input,
            label,
            input_lengths,
            label_lengths,
            blank=self.blank,
            fastemit_lambda=self.fastemit_lambda,
            reduction=self.reduction,
        )
