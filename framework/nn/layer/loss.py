"""Loss layers: thin Layers over `framework.nn.functional` losses, as in `paddle.nn`.

criterion = framework.nn.CrossEntropyLoss(label_smoothing=0.1)
loss = criterion(logits, labels)
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import loss as F
from framework.nn.layer.layers import Layer


class CrossEntropyLoss(Layer):
    """Softmax cross-entropy; see `framework.nn.functional.cross_entropy` for every option."""

    def __init__(
        self,
        weight: Tensor | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
        soft_label: bool = False,
        axis: int = -1,
        use_softmax: bool = True,
        label_smoothing: float = 0.0,
        name: str | None = None,
    ) -> None:
        super().__init__()
        F.check_reduction(reduction, "CrossEntropyLoss")
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing
        self.name = name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.cross_entropy(
            input,
            label,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            soft_label=self.soft_label,
            axis=self.axis,
            use_softmax=self.use_softmax,
            label_smoothing=self.label_smoothing,
        )


class NLLLoss(Layer):
    """Negative log-likelihood on log-probabilities `[N, C, ...]` with int labels."""

    def __init__(
        self,
        weight: Tensor | None = None,
        ignore_index: int = -100,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        F.check_reduction(reduction, "NLLLoss")
        self._weight = weight
        self._ignore_index = ignore_index
        self._reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.nll_loss(input, label, self._weight, self._ignore_index, self._reduction)


class _ReducedLoss(Layer):
    def __init__(self, reduction: str, loss: str) -> None:
        super().__init__()
        F.check_reduction(reduction, loss)
        self.reduction = reduction


class MSELoss(_ReducedLoss):
    """Mean squared error."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction, "MSELoss")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.mse_loss(input, label, self.reduction)


class L1Loss(_ReducedLoss):
    """Mean absolute error."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction, "L1Loss")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(_ReducedLoss):
    """Paddle's smooth L1 (Huber with `delta`; divided by delta when `is_huber=False`)."""

    def __init__(
        self,
        reduction: str = "mean",
        delta: float = 1.0,
        is_huber: bool = True,
        name: str | None = None,
    ) -> None:
        super().__init__(reduction, "SmoothL1Loss")
        self.delta = delta
        self.is_huber = is_huber

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber)


class BCELoss(_ReducedLoss):
    """Binary cross-entropy on probabilities; `weight` rescales each element."""

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__(reduction, "BCELoss")
        self.weight = weight

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(_ReducedLoss):
    """Sigmoid plus binary cross-entropy, stable; `pos_weight` weights the positive term."""

    def __init__(
        self,
        weight: Tensor | None = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(reduction, "BCEWithLogitsLoss")
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, logit: Tensor, label: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(
            logit, label, self.weight, self.reduction, self.pos_weight
        )


class KLDivLoss(Layer):
    """Kullback-Leibler divergence; `input` holds log-probabilities."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        F.check_reduction(reduction, "KLDivLoss", ("mean", "batchmean", "sum", "none"))
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.kl_div(input, label, self.reduction, self.log_target)


# --- Paddle's layout: `paddle.nn.layer.loss` also holds these layers, defined in sibling
# modules of this package. Imported last: those modules import this one's base classes. -----
from framework.nn.layer.adaptive_log_softmax import (  # noqa: E402, F401
    AdaptiveLogSoftmaxWithLoss,
)
from framework.nn.layer.ctc_loss import (  # noqa: E402, F401
    CTCLoss,
)
from framework.nn.layer.hsigmoid_loss import HSigmoidLoss  # noqa: E402, F401
from framework.nn.layer.margin_loss import (  # noqa: E402, F401
    CosineEmbeddingLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from framework.nn.layer.rnnt_loss import RNNTLoss  # noqa: E402, F401
