"""`nn.CTCLoss`, the layer form of `nn.functional.ctc_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.ctc import ctc_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.layer.layers import Layer


class CTCLoss(Layer):
    """The CTC loss, as `paddle.nn.CTCLoss`.

    CTC loss with Paddle's signature: `CTCLoss(blank, reduction)(log_probs, labels,
    input_lengths, label_lengths, norm_by_times)`; shapes as `nn.functional.ctc_loss`
    (`[T, N, C]` scores, `[N, L]` int labels, `[N]` lengths).

    Args:
        blank (int, optional): the blank class. Default: 0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.

    Shape:
        - log_probs: `[T, N, C]` scores; float32 or float64.
        - labels: `[N, L]` int32 or int64, padded.
        - input_lengths, label_lengths: `[N]` int.
        - output: a scalar, or `[N]` with 'none'.

    Examples:
        >>> import framework as paddle
        >>> loss_fn = paddle.nn.CTCLoss(blank=0, reduction='none')
        >>> labels = paddle.to_tensor([[1, 2], [1, 1]], dtype='int32')
        >>> lengths, label_lengths = paddle.to_tensor([4, 4]), paddle.to_tensor([2, 2])
        >>> print(loss_fn(paddle.zeros([4, 2, 3]), labels, lengths, label_lengths))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [1.68639898, 2.78501129])
    """

    def __init__(self, blank: int = 0, reduction: str = "mean") -> None:
        super().__init__()
        check_reduction(reduction, "CTCLoss")
        self.blank = blank
        self.reduction = reduction

    def forward(
        self,
        log_probs: Tensor,
        labels: Tensor,
        input_lengths: Tensor,
        label_lengths: Tensor,
        norm_by_times: bool = False,
    ) -> Tensor:
        return ctc_loss(
            log_probs,
            labels,
            input_lengths,
            label_lengths,
            blank=self.blank,
            reduction=self.reduction,
            norm_by_times=norm_by_times,
        )

    def extra_repr(self) -> str:
        return f"blank={self.blank}, reduction={self.reduction!r}"
