"""Convolution, transposed convolution and the convolution weight gradient as Functions.

The three are one bilinear map read three ways, so each one's backward is made of the others
and gradients of any order come out exact:

    y  = Conv(x, w)             gx = ConvTranspose(gy, w)    gw = ConvWeightGrad(x, gy)

`ConvTranspose` is also the forward of `conv2d_transpose`. The array work is in `conv_kernels`.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.conv_geometry import ConvGeometry
from framework.core.tensor import Tensor
from framework.ops.nn.channel_sum import channel_sum
from framework.ops.nn.conv_kernels import conv_forward, conv_input_grad, conv_weight_grad


def _channel_axis(geom: ConvGeometry) -> int:
    return -1 if geom.channel_last else 1


class Conv(Function):
    """`y = conv(x, w) + b` in the user's layout (NCL/NLC/NCHW/NHWC)."""

    def __init__(self, geom: ConvGeometry) -> None:
        self.geom = geom

    def forward(self, x, weight, bias=None):
        self.retain_inputs(0, 1)
        g = self.geom
        y = conv_forward(g.to_nchw(x), g.weight_4d(weight), bias, g)
        return g.from_nchw(y)

    def backward(self, gy: Tensor):
        x, weight = self.saved_inputs()
        needs = self.needs_input_grad
        gx = ConvTranspose(self.geom).apply(gy, weight) if needs[0] else None
        gw = ConvWeightGrad(self.geom, tuple(weight.shape)).apply(x, gy) if needs[1] else None
        if len(needs) == 2:
            return gx, gw
        gb = channel_sum(gy, _channel_axis(self.geom)) if needs[2] else None
        return gx, gw, gb


class ConvTranspose(Function):
    """`x_side = conv_transpose(y_side, w) + b`: the adjoint of `Conv` in its input."""

    def __init__(self, geom: ConvGeometry) -> None:
        self.geom = geom

    def forward(self, y, weight, bias=None):
        self.retain_inputs(0, 1)
        g = self.geom
        x = conv_input_grad(g.to_nchw(y), g.weight_4d(weight), g)
        if bias is not None:
            x += bias.reshape(-1, 1, 1)  # x is a fresh array
        return g.from_nchw(x)

    def backward(self, gx: Tensor):
        y, weight = self.saved_inputs()
        needs = self.needs_input_grad
        gy = Conv(self.geom).apply(gx, weight) if needs[0] else None
        gw = ConvWeightGrad(self.geom, tuple(weight.shape)).apply(gx, y) if needs[1] else None
        if len(needs) == 2:
            return gy, gw
        gb = channel_sum(gx, _channel_axis(self.geom)) if needs[2] else None
        return gy, gw, gb


class ConvWeightGrad(Function):
    """`gw = conv_weight_grad(x, gy)`: the adjoint of `Conv` in its weight."""

    def __init__(self, geom: ConvGeometry, weight_shape: tuple[int, ...]) -> None:
        self.geom = geom
        self.weight_shape = weight_shape

    def forward(self, x, gy):
        self.retain_inputs(0, 1)
        g = self.geom
        shape = self.weight_shape
        shape_4d = (shape[0], shape[1], 1, shape[2]) if g.spatial_dims == 1 else shape
        gw = conv_weight_grad(g.to_nchw(x), g.to_nchw(gy), g, shape_4d)
        return g.weight_nd(gw)

    def backward(self, ggw: Tensor):
        x, gy = self.saved_inputs()
        needs = self.needs_input_grad
        gx = ConvTranspose(self.geom).apply(gy, ggw) if needs[0] else None
        g_gy = Conv(self.geom).apply(x, ggw) if needs[1] else None
        return gx, g_gy
