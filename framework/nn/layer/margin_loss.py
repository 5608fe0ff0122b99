"""Layers for the margin, embedding and likelihood losses, PairwiseDistance and
CosineSimilarity, as in `paddle.nn`. Each stores its settings and calls the functional form."""

from __future__ import annotations

from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.functional import distance, likelihood_loss, margin_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.margin_loss import multi_label_margin_loss, multi_margin_loss
from framework.nn.layer.layers import Layer


class MarginRankingLoss(Layer):
    """Ranking hinge `max(0, -label * (input - other) + margin)`, as `paddle.nn.MarginRankingLoss`.

    Args:
        margin (float, optional): the required gap. Default: 0.0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input, other: `[N, *]` scores, float32 or float64.
        - label: the shape of `input`, 1 (input should rank higher) or -1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.MarginRankingLoss(margin=0.5)
        >>> a, b = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.8, 3.0])
        >>> round(float(loss(a, b, paddle.to_tensor([1.0, 1.0]))), 4)
        0.9
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "MarginRankingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input: Tensor, other: Tensor, label: Tensor) -> Tensor:
        return margin_loss.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    """`input` where `label == 1`, `max(0, margin - input)` where `label == -1`, as
    `paddle.nn.HingeEmbeddingLoss`.

    Args:
        margin (float, optional): the margin for dissimilar pairs. Default: 1.0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` distances, float32 or float64.
        - label: the shape of `input`, 1 or -1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.HingeEmbeddingLoss()
        >>> round(float(loss(paddle.to_tensor([0.3, 0.4]), paddle.to_tensor([1.0, -1.0]))), 4)
        0.45
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "HingeEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return margin_loss.hinge_embedding_loss(input, label, self.margin, self.reduction)


class CosineEmbeddingLoss(Layer):
    """`1 - cos` for similar pairs (`label == 1`), `max(0, cos - margin)` for dissimilar, as
    `paddle.nn.CosineEmbeddingLoss`.

    Args:
        margin (float, optional): the margin for dissimilar pairs, in `[-1, 1]`. Default: 0.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input1, input2: `[N, M]` embeddings, float32 or float64.
        - label: `[N]`, 1 or -1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> a = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> b = paddle.to_tensor([[1.0, 1.0], [0.0, 1.0]])
        >>> loss = paddle.nn.CosineEmbeddingLoss()
        >>> round(float(loss(a, b, paddle.to_tensor([1, -1]))), 4)
        0.6464
    """

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "CosineEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input1: Tensor, input2: Tensor, label: Tensor) -> Tensor:
        return margin_loss.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class TripletMarginLoss(Layer):
    """`max(0, d(anchor, positive) - d(anchor, negative) + margin)` with the p-norm distance,
    as `paddle.nn.TripletMarginLoss`.

    Args:
        margin (float, optional): the required gap. Default: 1.0.
        p (float, optional): the norm of the distance. Default: 2.0.
        epsilon (float, optional): added inside the norm. Default: 1e-06.
        swap (bool, optional): also use `d(positive, negative)` when smaller. Default: False.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input, positive, negative: `[N, M]` embeddings, float32 or float64.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> anchor = paddle.to_tensor([[0.0, 0.0]])
        >>> pos, neg = paddle.to_tensor([[1.0, 0.0]]), paddle.to_tensor([[0.0, 1.5]])
        >>> round(float(paddle.nn.TripletMarginLoss()(anchor, pos, neg)), 3)
        0.5
    """

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        epsilon: float = 1e-6,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "TripletMarginLoss")
        self.margin = margin
        self.p = p
        self.epsilon = epsilon
        self.swap = swap
        self.reduction = reduction

    def forward(self, input: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return margin_loss.triplet_margin_loss(
            input, positive, negative, self.margin, self.p, self.epsilon, self.swap, self.reduction
        )


class TripletMarginWithDistanceLoss(Layer):
    """The triplet margin loss with any distance, as `paddle.nn.TripletMarginWithDistanceLoss`.

    `max(0, d(anchor, positive) - d(anchor, negative) + margin)` with any non-negative
    distance `d` (default: Euclidean); inputs `[N, D]`, 'none' gives `[N]`.

    Paddle 3.3's layer drops its `distance_function` on the way to the functional (always
    Euclidean); this one uses it, which is what the argument is for.

    Args:
        distance_function (callable, optional): `d(x, y)` -> non-negative `[N]`; None is Euclidean.
            Default: None.
        margin (float, optional): Default: 1.0.
        swap (bool, optional): use the smaller negative distance. Default: False.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input, positive, negative: `[N, D]`; float32 or float64.
        - output: a scalar for 'mean' and 'sum', else `[N]`.

    Examples:
        >>> import framework as paddle
        >>> loss_fn = paddle.nn.TripletMarginWithDistanceLoss(margin=1.0, reduction='none')
        >>> a = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0]])
        >>> pos = paddle.to_tensor([[0.0, 1.0], [1.0, 1.0]])
        >>> neg = paddle.to_tensor([[3.0, 0.0], [1.0, 1.5]])
        >>> print(loss_fn(a, pos, neg))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.        , 0.50000238])
    """

    def __init__(
        self,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "TripletMarginWithDistanceLoss")
        self.margin = margin
        self.swap = swap
        self.reduction = reduction
        self.distance_function = distance_function
        self.name = name

    def forward(self, input: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return margin_loss.triplet_margin_with_distance_loss(
            input,
            positive,
            negative,
            self.distance_function,
            self.margin,
            self.swap,
            self.reduction,
        )


class MultiMarginLoss(Layer):
    """Multi-class hinge loss, as `paddle.nn.MultiMarginLoss`: the mean over wrong classes `i` of
    `max(0, margin - input[label] + input[i]) ** p`.

    Args:
        p (int, optional): 1 or 2. Default: 1.
        margin (float, optional): the required gap. Default: 1.0.
        weight (Tensor, optional): `[C]` per-class weights.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, C]` scores, float32 or float64.
        - label: `[N]` int64 class ids.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.MultiMarginLoss()
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(float(loss(x, paddle.to_tensor([3], dtype='int64'))), 4)
        0.325
    """

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "MultiMarginLoss")
        self.p = p
        self.margin = margin
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return multi_margin_loss(input, label, self.p, self.margin, self.weight, self.reduction)


class MultiLabelMarginLoss(Layer):
    """Multi-label hinge loss, as `paddle.nn.MultiLabelMarginLoss`: each target class must beat
    each non-target class by 1.

    Args:
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, C]` scores, float32 or float64.
        - label: `[N, C]` int64 target ids, ended by the first -1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.MultiLabelMarginLoss()
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> y = paddle.to_tensor([[3, 0, -1, 1]], dtype='int64')
        >>> round(float(loss(x, y)), 4)
        0.85
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "MultiLabelMarginLoss")
        self.reduction = reduction
        self.name = name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return multi_label_margin_loss(input, label, self.reduction)


class SoftMarginLoss(Layer):
    """Two-class logistic loss `log(1 + exp(-label * input))`, as `paddle.nn.SoftMarginLoss`.

    Args:
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` scores, float32 or float64.
        - label: the shape of `input`, 1 or -1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.SoftMarginLoss()
        >>> round(float(loss(paddle.to_tensor([2.0, -1.0]), paddle.to_tensor([1.0, -1.0]))), 4)
        0.2201
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "SoftMarginLoss")
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return margin_loss.soft_margin_loss(input, label, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Per-class binary cross-entropy on logits averaged over classes, as
    `paddle.nn.MultiLabelSoftMarginLoss`.

    Args:
        weight (Tensor, optional): `[C]` per-class weights.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, C]` logits, float32 or float64.
        - label: `[N, C]`, 0 or 1.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.MultiLabelSoftMarginLoss()
        >>> x = paddle.to_tensor([[2.0, -1.0, 0.0]])
        >>> round(float(loss(x, paddle.to_tensor([[1.0, 0.0, 1.0]]))), 4)
        0.3778
    """

    def __init__(
        self, weight: Tensor | None = None, reduction: str = "mean", name: str | None = None
    ) -> None:
        super().__init__()
        check_reduction(reduction, "MultiLabelSoftMarginLoss")
        self.weight = weight
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return margin_loss.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class PoissonNLLLoss(Layer):
    """Poisson negative log-likelihood, as `paddle.nn.PoissonNLLLoss`; `log_input=True` takes
    log-rates (`exp(input) - label * input`).

    Args:
        log_input (bool, optional): `input` is the log of the rate. Default: True.
        full (bool, optional): add Stirling's term. Default: False.
        epsilon (float, optional): keeps `log` finite when `log_input=False`. Default: 1e-08.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, *]` rates (or log-rates), float32 or float64.
        - label: the shape and dtype of `input`.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.PoissonNLLLoss()
        >>> round(float(loss(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 2.0]))), 4)
        0.8591
    """

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        epsilon: float = 1e-8,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "PoissonNLLLoss")
        self.log_input = log_input
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return likelihood_loss.poisson_nll_loss(
            input, label, self.log_input, self.full, self.epsilon, self.reduction
        )


class GaussianNLLLoss(Layer):
    """Gaussian negative log-likelihood with a predicted variance, as `paddle.nn.GaussianNLLLoss`:
    `0.5 * (log(max(variance, epsilon)) + (input - label) ** 2 / max(variance, epsilon))`.

    Args:
        full (bool, optional): add the constant `0.5 * log(2 * pi)`. Default: False.
        epsilon (float, optional): the variance's lower clamp. Default: 1e-06.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input, label: `[N, *]`, float32 or float64.
        - variance: the shape of `input` (or one fewer trailing axis), positive.
        - output: a 0-D float32 loss, or per-element `[N, ...]` with `reduction='none'`.

    Examples:
        >>> import framework as paddle
        >>> loss = paddle.nn.GaussianNLLLoss()
        >>> x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.5, 2.0])
        >>> round(float(loss(x, y, paddle.to_tensor([1.0, 1.0]))), 4)
        0.0625
    """

    def __init__(
        self,
        full: bool = False,
        epsilon: float = 1e-6,
        reduction: str = "mean",
        name: str | None = None,
    ) -> None:
        super().__init__()
        check_reduction(reduction, "GaussianNLLLoss")
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor, variance: Tensor) -> Tensor:
        return likelihood_loss.gaussian_nll_loss(
            input, label, variance, self.full, self.epsilon, self.reduction
        )


class PairwiseDistance(Layer):
    """The p-norm distance of row pairs, as `paddle.nn.PairwiseDistance`.

    `||x - y + epsilon||_p` over the last axis.

    Args:
        p (float, optional): the norm's order. Default: 2.0.
        epsilon (float, optional): added to `x - y`. Default: 1e-06.
        keepdim (bool, optional): keep the last axis with size 1. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, D]` or `[D]`; float32 or float64.
        - y: broadcast with `x`.
        - output: `[N]` (`[N, 1]` with `keepdim`).

    Examples:
        >>> import framework as paddle
        >>> dist = paddle.nn.PairwiseDistance()
        >>> print(dist(paddle.to_tensor([[0.0, 0.0]]), paddle.to_tensor([[3.0, 4.0]])))
        Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [4.99999857])
    """

    def __init__(
        self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self.p = p
        self.epsilon = epsilon
        self.keepdim = keepdim

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        return distance.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        return f"p={self.p}, epsilon={self.epsilon}, keepdim={self.keepdim}"


class CosineSimilarity(Layer):
    """Cosine similarity along an axis, as `paddle.nn.CosineSimilarity`.

    Cosine similarity of two inputs along `axis` (default 1).

    Args:
        axis (int, optional): the axis compared. Default: 1.
        eps (float, optional): the smallest norm product. Default: 1e-08.

    Shape:
        - x1: any shape; float32 or float64.
        - x2: broadcast with `x1`.
        - output: the broadcast shape without `axis`.

    Examples:
        >>> import framework as paddle
        >>> a = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> b = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0]])
        >>> print(paddle.nn.CosineSimilarity(axis=1)(a, b))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.70710677, 1.        ])
    """

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis = axis
        self._eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return distance.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"
