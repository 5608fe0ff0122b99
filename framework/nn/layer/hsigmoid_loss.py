"""HSigmoidLoss (hierarchical sigmoid), as in `paddle.nn`; it calls `F.hsigmoid_loss`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn.functional.hsigmoid_loss import hsigmoid_loss
from framework.nn.layer.layers import Layer


class HSigmoidLoss(Layer):
    """The hierarchical sigmoid loss, as `paddle.nn.HSigmoidLoss`.

    Hierarchical sigmoid over `num_classes` classes for `[N, feature_size]` inputs and int
    labels, giving `[N, 1]` costs. Parameters as Paddle's: `weight` `[C, feature_size]` and
    `bias` `[C, 1]` with C = num_classes - 1 (the inner nodes of the default tree), or
    num_classes with `is_custom=True` (then pass `path_table` and `path_code` to forward).

    Args:
        feature_size (int): the input's features D.
        num_classes (int): the classes of the default tree (inner nodes with `is_custom`).
        weight_attr (ParamAttr, optional): the weight's attribute. Default: None.
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops it. Default: None.
        is_custom (bool, optional): paths come from `path_table` / `path_code` in forward. Default:
            False.
        is_sparse (bool, optional): accepted; gradients are dense. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - input: `[N, D]`; float32 or float64.
        - label: `[N, 1]` int64.
        - output: `[N, 1]` costs.

    Examples:
        >>> import framework as paddle
        >>> loss_fn = paddle.nn.HSigmoidLoss(feature_size=3, num_classes=4)
        >>> loss_fn.weight.shape
        paddle.Size([3, 3])
        >>> loss_fn(paddle.ones([2, 3]), paddle.to_tensor([[0], [3]])).shape
        paddle.Size([2, 1])
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
