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
    """`max(0, -label * (input - other) + margin)`."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "MarginRankingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input: Tensor, other: Tensor, label: Tensor) -> Tensor:
        return margin_loss.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    """`input` for `label == 1`, `max(0, margin - input)` for `label == -1`."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "HingeEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return margin_loss.hinge_embedding_loss(input, label, self.margin, self.reduction)


class CosineEmbeddingLoss(Layer):
    """`1 - cos` for similar pairs (`label == 1`), `max(0, cos - margin)` for dissimilar."""

    def __init__(self, margin: float = 0, reduction: str = "mean", name: str | None = None):
        super().__init__()
        check_reduction(reduction, "CosineEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input1: Tensor, input2: Tensor, label: Tensor) -> Tensor:
        return margin_loss.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class TripletMarginLoss(Layer):
    """`max(0, d(anchor, positive) - d(anchor, negative) + margin)`."""

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
    """`max(0, d(anchor, positive) - d(anchor, negative) + margin)` with any non-negative
    distance `d` (default: Euclidean); inputs `[N, D]`, 'none' gives `[N]`.

    Paddle 3.3's layer drops its `distance_function` on the way to the functional (always
    Euclidean); this one uses it, which is what the argument is for.

        loss = framework.nn.TripletMarginWithDistanceLoss(margin=0.5)
        loss(framework.rand([4, 3]), framework.rand([4, 3]), framework.rand([4, 3]))
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
    """Multi-class hinge loss (see `F.multi_margin_loss`): input `[N, C]`, label `[N]` int;
    `weight` `[C]` scales each sample's terms by its target class's weight.

        loss = framework.nn.MultiMarginLoss(p=2, margin=0.5)
        loss(framework.rand([4, 3]), framework.to_tensor([0, 2, 1, 1]))
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
    """Multi-label hinge loss (see `F.multi_label_margin_loss`): input `[N, C]`, label
    `[N, L]` int target classes, each row ended by -1.

        loss = framework.nn.MultiLabelMarginLoss()
        loss(framework.rand([2, 4]), framework.to_tensor([[3, 0, -1, 0], [1, -1, 0, 0]]))
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "MultiLabelMarginLoss")
        self.reduction = reduction
        self.name = name

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return multi_label_margin_loss(input, label, self.reduction)


class SoftMarginLoss(Layer):
    """`log(1 + exp(-label * input))`."""

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        check_reduction(reduction, "SoftMarginLoss")
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:
        return margin_loss.soft_margin_loss(input, label, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Per-class binary cross-entropy on logits, averaged over classes."""

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
    """Poisson negative log-likelihood; `log_input=True` takes log-rates."""

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
    """Gaussian negative log-likelihood with a predicted variance."""

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
    """`||x - y + epsilon||_p` over the last axis."""

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
    """Cosine similarity of two inputs along `axis` (default 1)."""

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis = axis
        self._eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return distance.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"
