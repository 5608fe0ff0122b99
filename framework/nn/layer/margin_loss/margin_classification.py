"""Margin classification loss layers: MultiMarginLoss, MultiLabelMarginLoss, SoftMarginLoss
and MultiLabelSoftMarginLoss, as in `paddle.nn`.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional import margin_loss
from framework.nn.functional.loss_terms import check_reduction
from framework.nn.functional.margin_loss import multi_label_margin_loss, multi_margin_loss
from framework.nn.layer.layers import Layer


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
