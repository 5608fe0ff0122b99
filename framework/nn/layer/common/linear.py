"""The fully connected layer, Linear, as in `paddle.nn`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.checks import array_of, check_dtype_and_device
from framework.nn.layer.layers import Layer, default_dtype


class Linear(Layer):
    """A fully connected layer, `y = x @ weight + bias` over the last axis, as `paddle.nn.Linear`.

    `weight` is `[in_features, out_features]` (Paddle's layout, the transpose of PyTorch's),
    initialised XavierUniform; the bias is `[out_features]` and starts at zero.

    Args:
        in_features (int): size of the last axis of the input.
        out_features (int): size of the last axis of the output.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[*, in_features]`, float32 or float64 (any number of leading axes).
        - output: `[*, out_features]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> fc = paddle.nn.Linear(4, 3)
        >>> fc.weight.shape
        paddle.Size([4, 3])
        >>> y = fc(paddle.ones([2, 4]))
        >>> y.shape, y.dtype == paddle.float32
        (paddle.Size([2, 3]), True)
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        weight_attr: object = None,
        bias_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._dtype = default_dtype()
        self._in_features = in_features
        self._out_features = out_features
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr)
        self.bias = self.create_parameter([out_features], attr=bias_attr, is_bias=True)
        self.name = name

    def forward(self, input: Tensor) -> Tensor:
        shape = array_of(self, input).shape
        if not shape or shape[-1] != self._in_features:
            raise ValueError(
                f"Linear(in_features={self._in_features}, out_features={self._out_features}) "
                f"expects the last input dimension to be {self._in_features}, got input of shape "
                f"{list(shape)}"
            )
        weight = self.weight
        if input._data.dtype != weight._data.dtype or type(input._data) is not type(weight._data):
            check_dtype_and_device(self, input, weight)
        return F.linear(input, weight, self.bias)

    def _short(self) -> str:
        return f"Linear(in_features={self._in_features}, out_features={self._out_features})"

    def extra_repr(self) -> str:
        name = f", name={self.name}" if self.name else ""
        return (
            f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
            f"dtype={self._dtype}{name}"
        )
