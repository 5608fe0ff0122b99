"""Loss layers: thin Layers over `framework.nn.functional` losses, as in `paddle.nn`.

criterion = framework.nn.CrossEntropyLoss(label_smoothing=0.1)
loss = criterion(logits, labels)
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import loss as F
from framework.nn.layer.layers import Layer


class CrossEntropyLoss(Layer):
    """Softmax cross-entropy between logits and labels, as `paddle.nn.CrossEntropyLoss`.

    See `framework.nn.functional.cross_entropy` for every option.

    Args:
        weight (Tensor, optional): `[C]` per-class weights.
        ignore_index (int, optional): a label that adds no loss. Default: -100.
        soft_label (bool, optional): labels are probabilities `[N, C]`. Default: False.
        axis (int, optional): the class axis. Default: -1.
        use_softmax (bool, optional): apply softmax to `input` first. Default: True.
        label_smoothing (float, optional): mix the labels with uniform ones. Default: 0.0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, C]` (or `[N, *, C]`) logits, float32 or float64.
        - label: `[N]` or `[N, 1]` int64 class ids, or `[N, C]` float with `soft_label=True`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> logits = paddle.to_tensor([[2.0, 0.5, 0.1], [0.2, 0.3, 3.0]])
        >>> labels = paddle.to_tensor([0, 2], dtype='int64')
        >>> round(float(paddle.nn.CrossEntropyLoss()(logits, labels)), 4)
        0.2186
    """

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
    """Negative log-likelihood on log-probabilities with int labels, as `paddle.nn.NLLLoss`.

    Args:
        weight (Tensor, optional): `[C]` per-class weights.
        ignore_index (int, optional): a label that adds no loss. Default: -100.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, C]` or `[N, C, d1, ...]` log-probabilities, float32 or float64.
        - label: `[N]` or `[N, d1, ...]` int64 class ids.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> log_probs = paddle.nn.functional.log_softmax(paddle.to_tensor([[2.0, 0.5], [0.1, 1.0]]))
        >>> labels = paddle.to_tensor([0, 1], dtype='int64')
        >>> round(float(paddle.nn.NLLLoss()(log_probs, labels)), 4)
        0.2713
    """

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
    """Mean squared error, `(input - label) ** 2` reduced, as `paddle.nn.MSELoss`.

    Args:
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]`, float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.MSELoss()
        >>> round(float(loss(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 4.0]))), 4)
        2.5
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction, "MSELoss")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.mse_loss(input, label, self.reduction)


class L1Loss(_ReducedLoss):
    """Mean absolute error, `|input - label|` reduced, as `paddle.nn.L1Loss`.

    Args:
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]`, float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.L1Loss()
        >>> round(float(loss(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, 4.0]))), 4)
        1.5
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__(reduction, "L1Loss")

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(_ReducedLoss):
    """Smooth L1 loss: quadratic below `delta`, linear above, as `paddle.nn.SmoothL1Loss`.

    With `is_huber=True` it is the Huber loss; with False the Huber value divided by `delta`.

    Args:
        delta (float, optional): where the quadratic part ends. Default: 1.0.
        is_huber (bool, optional): Huber's scaling, see above. Default: True.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]`, float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.SmoothL1Loss()
        >>> round(float(loss(paddle.to_tensor([0.5, 3.0]), paddle.to_tensor([0.0, 0.0]))), 4)
        1.3125
    """

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
    """Binary cross-entropy on probabilities, as `paddle.nn.BCELoss`.

    Args:
        weight (Tensor, optional): rescales each element's loss; broadcast to `input`.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` probabilities in `[0, 1]`, float32 or float64.
        - label: the shape and dtype of `input`, 0 or 1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> probs = paddle.to_tensor([0.9, 0.2, 0.6])
        >>> labels = paddle.to_tensor([1.0, 0.0, 1.0])
        >>> round(float(paddle.nn.BCELoss()(probs, labels)), 4)
        0.2798
    """

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__(reduction, "BCELoss")
        self.weight = weight

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(_ReducedLoss):
    """Sigmoid then binary cross-entropy, computed stably, as `paddle.nn.BCEWithLogitsLoss`.

    Args:
        weight (Tensor, optional): rescales each element's loss; broadcast to `logit`.
        pos_weight (Tensor, optional): `[C]` weights of the positive term per class.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - logit: `[N, *]` logits, float32 or float64.
        - label: the shape and dtype of `logit`, 0 or 1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> logits = paddle.to_tensor([2.0, -1.0, 0.5])
        >>> labels = paddle.to_tensor([1.0, 0.0, 1.0])
        >>> round(float(paddle.nn.BCEWithLogitsLoss()(logits, labels)), 4)
        0.3048
    """

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
    """Kullback-Leibler divergence `label * (log(label) - input)`, as `paddle.nn.KLDivLoss`.

    `input` holds log-probabilities; `label` probabilities (log-probabilities with
    `log_target=True`).

    Args:
        log_target (bool, optional): `label` is given as log-probabilities. Default: False.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` log-probabilities, float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> log_p = paddle.log(paddle.to_tensor([[0.5, 0.5]]))
        >>> q = paddle.to_tensor([[0.9, 0.1]])
        >>> round(float(paddle.nn.KLDivLoss(reduction='sum')(log_p, q)), 4)
        0.3681
    """

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
