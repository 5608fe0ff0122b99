"""Bilinear, as in `paddle.nn`: `y[b, o] = x1[b] @ weight[o] @ x2[b] + bias[o]`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer


class Bilinear(Layer):
    """A bilinear layer `x1 W x2 + b`, as `paddle.nn.Bilinear`.

    A bilinear form per output feature: x1 `[B, in1_features]`, x2 `[B, in2_features]` ->
    `[B, out_features]`. Parameters as in Paddle (so its state dicts load): `weight`
    `[out_features, in1_features, in2_features]` (XavierUniform) and `bias` `[1, out_features]`
    (zeros; `bias_attr=False` for none).

    Args:
        in1_features (int): the size of `x1`'s last axis.
        in2_features (int): the size of `x2`'s last axis.
        out_features (int): the output features.
        weight_attr (ParamAttr, optional): the weight's attribute. Default: None.
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops it. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x1: `[B, in1_features]`; float32 or float64.
        - x2: `[B, in2_features]`, the dtype of `x1`.
        - output: `[B, out_features]`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.Bilinear(5, 6, 3)
        >>> layer.weight.shape, layer.bias.shape
        (paddle.Size([3, 5, 6]), paddle.Size([1, 3]))
        >>> layer(paddle.ones([4, 5]), paddle.ones([4, 6])).shape
        paddle.Size([4, 3])
    """

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        weight_attr: object = None,
        bias_attr: object = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._in1_features = in1_features
        self._in2_features = in2_features
        self._out_features = out_features
        self._name = name
        self.weight = self.create_parameter(
            [out_features, in1_features, in2_features], attr=weight_attr
        )
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return (
            f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
            f"out_features={self._out_features}, dtype={self._dtype}{name}"
        )
