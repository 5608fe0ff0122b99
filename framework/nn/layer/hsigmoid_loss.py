"""HSigmoidLoss (hierarchical sigmoid), as in `paddle.nn`; it calls `F.hsigmoid_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.hsigmoid_loss import hsigmoid_loss
from framework.nn.layer.layers import Layer


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid over `num_classes` classes for `[N, feature_size]` inputs and int
    labels, giving `[N, 1]` costs. Parameters as Paddle's: `weight` `[C, feature_size]` and
    `bias` `[C, 1]` with C = num_classes - 1 (the inner nodes of the default tree), or
    num_classes with `is_custom=True` (then pass `path_table` and `path_code` to forward).

        loss = framework.nn.HSigmoidLoss(feature_size=3, num_classes=6)
        loss(framework.rand([4, 3]), framework.to_tensor([0, 1, 4, 5])).shape   # [4, 1]
    """

    def __init__(
        self,
        feature_size: int,
        num_classes: int,
        weight_attr: object = None,
        bias_attr: object = None,
        is_custom: bool = False,
        is_sparse: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError("HSigmoidLoss: num_classes must not be less than 2 with default tree")
        self._feature_size = feature_size
        self._num_classes = num_classes
        self._is_custom = is_custom
        self._is_sparse = is_sparse and is_custom  # Paddle drops sparse mode without a tree
        self._name = name
        nodes = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([nodes, feature_size], attr=weight_attr)
        self.bias = self.create_parameter([nodes, 1], attr=bias_attr, is_bias=True)

    def forward(
        self,
        input: Tensor,
        label: Tensor,
        path_table: Tensor | None = None,
        path_code: Tensor | None = None,
    ) -> Tensor:
        return hsigmoid_loss(
            input,
            label,
            self._num_classes,
            self.weight,
            self.bias,
            path_table=path_table,
            path_code=path_code,
            is_sparse=self._is_sparse,
        )
