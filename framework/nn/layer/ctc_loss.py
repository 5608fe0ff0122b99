"""`nn.CTCLoss`, the layer form of `nn.functional.ctc_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.ctc import ctc_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.layer.layers import Layer


class CTCLoss(Layer):
    """CTC loss with Paddle's signature: `CTCLoss(blank, reduction)(log_probs, labels,
    input_lengths, label_lengths, norm_by_times)`; shapes as `nn.functional.ctc_loss`
    (`[T, N, C]` scores, `[N, L]` int labels, `[N]` lengths).

        loss_fn = framework.nn.CTCLoss(blank=0)
        loss = loss_fn(logits, labels, input_lengths, label_lengths)
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
