"""Ranking and embedding loss layers: MarginRankingLoss, HingeEmbeddingLoss,
CosineEmbeddingLoss, TripletMarginLoss and TripletMarginWithDistanceLoss, as in `paddle.nn`.
"""

from __future__ import annotations

from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.functional import margin_loss
from framework.nn.functional.loss_terms import check_reduction
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
