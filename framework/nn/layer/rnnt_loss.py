"""RNNTLoss, as in `paddle.nn`; it calls `F.rnnt_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.rnnt import rnnt_loss
from framework.nn.layer.layers import Layer


class RNNTLoss(Layer):
    """RNN-Transducer loss of `[B, T, U + 1, V]` log-probabilities against `[B, U]` labels,
    given each sequence's frame and label counts (see `F.rnnt_loss`).

        loss_fn = framework.nn.RNNTLoss(blank=0, fastemit_lambda=0.0)
        loss = loss_fn(log_probs, labels, frames, label_counts)
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
