"""Deformable convolution (Paddle's `paddle.vision.ops.deform_conv2d` and `DeformConv2D`):
DCN v1, and v2 when a modulation `mask` is given.

Every kernel tap reads the input at its regular position plus a learned offset, by bilinear
interpolation (zero outside the map, as Paddle's `DmcnIm2colBilinear`). The sampled taps form
im2col columns, and a grouped matmul with the weights gives the output. Everything is built
from differentiable framework ops: the four neighbours of each sample are gathered from
channel-last rows of `x` (`gather`), and their bilinear weights are arithmetic on the sample
positions, so gradients (of any order) reach `x`, `offset`, `mask`, `weight` and `bias`. Only
the integer neighbours and the in-map tests are constants, as in Paddle's backward.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

import framework
from framework import nn
from framework.core.backend import get_array_module
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.nn.initializer import Normal
from framework.vision.ops.roi_sampling import pair


def _tap_grid(
    kernel: tuple[int, int],
    out_size: tuple[int, int],
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
) -> tuple[np.ndarray, np.ndarray]:
    """Undeformed sample positions `(y, x)`, each `[kh * kw, ho * wo]`."""
    (kh, kw), (ho, wo) = kernel, out_size
    tap = np.arange(kh * kw)
    pixel = np.arange(ho * wo)
    y = (pixel // wo * stride[0] - padding[0])[None, :] + (tap // kw * dilation[0])[:, None]
    x = (pixel % wo * stride[1] - padding[1])[None, :] + (tap % kw * dilation[1])[:, None]
    return y, x


def _bilinear_columns(
    x: Tensor, y_pos: Tensor, x_pos: Tensor, mask: Tensor | None, groups: int
) -> Tensor:
    """`x` `[N, C, H, W]` sampled at `[N, groups, K, L]` positions: `[N, groups, K, L, C/groups]`
    (times `mask` `[N, groups, K, L]`). Paddle's rule: a sample not strictly inside
    `(-1, H) x (-1, W)` is 0, and so is every neighbour outside the map."""
    n, c, h, w = x.shape
    xp = get_array_module(x._data)
    py, px = y_pos._data, x_pos._data
    inside = (py > -1) & (px > -1) & (py < h) & (px < w)
    y0, x0 = xp.floor(py), xp.floor(px)
    ly, lx = y_pos - Tensor._wrap(y0), x_pos - Tensor._wrap(x0)
    hy, hx = 1.0 - ly, 1.0 - lx
    y0, x0 = y0.astype(np.int64), x0.astype(np.int64)
    plane = (xp.arange(n)[:, None] * groups + xp.arange(groups)[None, :]) * (h * w)
    plane = plane[:, :, None, None]
    index, weights = [], []
    for dy, dx, weight in ((0, 0, hy * hx), (0, 1, hy * lx), (1, 0, ly * hx), (1, 1, ly * lx)):
        yc, xc = y0 + dy, x0 + dx
        valid = inside & (yc >= 0) & (yc <= h - 1) & (xc >= 0) & (xc <= w - 1)
        index.append(xp.where(valid, plane + yc * w + xc, 0))
        weights.append(weight * Tensor._wrap(valid.astype(x._data.dtype)))
    rows = x.reshape([n, groups, c // groups, h * w]).transpose([0, 1, 3, 2])
    rows = rows.reshape([n * groups * h * w, c // groups])
    taps = framework.gather(rows, Tensor._wrap(xp.stack(index).ravel()))
    taps = taps.reshape([4, *py.shape, c // groups])
    weight = framework.stack(weights)
    if mask is not None:
        weight = weight * mask.unsqueeze(0)
    return (taps * weight.unsqueeze(-1)).sum(axis=0)


def deform_conv2d(
    x: Tensor,
    offset: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    deformable_groups: int = 1,
    groups: int = 1,
    mask: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Deformable 2-D convolution: DCN v1, or v2 (modulated) when `mask` is given.

    Args:
        x: `[N, C, H, W]`, float32 or float64.
        offset: `[N, 2 * deformable_groups * kh * kw, Ho, Wo]`; channel `2 * (g * K + k)` is
            the row offset of tap `k = i * kw + j` in deformable group `g`, the next one the
            column offset.
        weight: `[Cout, C / groups, kh, kw]`.
        bias: `[Cout]`, or None.
        stride, padding, dilation: an int or `(h, w)` pair each.
        deformable_groups: the channels split into this many groups with their own offsets.
        groups: grouped convolution, as `conv2d`.
        mask: `[N, deformable_groups * kh * kw, Ho, Wo]` modulation of each tap, or None.

    Returns:
        `[N, Cout, Ho, Wo]`, `Ho = (H + 2 * padding - dilation * (kh - 1) - 1) // stride + 1`;
        differentiable in every tensor input.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([1, 4, 8, 8])
        >>> offset = paddle.rand([1, 2 * 9, 8, 8])
        >>> weight = paddle.rand([6, 4, 3, 3])
        >>> deform_conv2d(x, offset, weight, padding=1).shape
        paddle.Size([1, 6, 8, 8])
    """
    x, offset, weight = as_tensor(x), as_tensor(offset), as_tensor(weight)
    n, c, h, w = x.shape
    cout, cin_group, kh, kw = weight.shape
    stride, padding, dilation = (pair(v, "deform_conv2d") for v in (stride, padding, dilation))
    dg = int(deformable_groups)
    if c % dg or c % groups or cout % groups or cin_group * groups != c:
        raise ValueError(
            f"deform_conv2d: {c} input channels do not fit weight {weight.shape} with "
            f"groups={groups}, deformable_groups={dg}"
        )
    ho = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    taps, pixels = kh * kw, ho * wo
    if offset.shape != [n, 2 * dg * taps, ho, wo]:
        raise ValueError(f"offset must be {[n, 2 * dg * taps, ho, wo]}, got {offset.shape}")
    if mask is not None:
        mask = as_tensor(mask)
        if mask.shape != [n, dg * taps, ho, wo]:
            raise ValueError(f"mask must be {[n, dg * taps, ho, wo]}, got {mask.shape}")
        mask = mask.reshape([n, dg, taps, pixels])
    xp = get_array_module(x._data)
    grid_y, grid_x = (
        Tensor._wrap(xp.asarray(g, dtype=x._data.dtype))
        for g in _tap_grid((kh, kw), (ho, wo), stride, padding, dilation)
    )
    shifts = offset.reshape([n, dg, taps, 2, pixels])
    y_pos, x_pos = shifts[:, :, :, 0] + grid_y, shifts[:, :, :, 1] + grid_x
    sampled = _bilinear_columns(x, y_pos, x_pos, mask, dg)  # [N, dg, K, L, C / dg]
    columns = sampled.transpose([0, 1, 4, 2, 3]).reshape([n, groups, cin_group * taps, pixels])
    kernel = weight.reshape([groups, cout // groups, cin_group * taps])
    out = framework.matmul(kernel, columns).reshape([n, cout, ho, wo])
    if bias is not None:
        out = out + as_tensor(bias).reshape([1, cout, 1, 1])
    return out


class DeformConv2D(nn.Layer):
    """`deform_conv2d` as a layer: weight `[out_channels, in_channels / groups, kh, kw]`
    (normal, std `sqrt(2 / (in_channels * kh * kw))`, as Paddle) and bias `[out_channels]`.
    `forward(x, offset, mask=None)`.

    Args:
        in_channels (int): the input's channels.
        out_channels (int): the output's channels.
        kernel_size (int|list|tuple): `(kh, kw)`, or an int for both.
        stride (int|list|tuple, optional): Default: 1.
        padding (int|list|tuple, optional): Default: 0.
        dilation (int|list|tuple, optional): Default: 1.
        deformable_groups (int, optional): groups of channels sharing one offset field. Default: 1.
        groups (int, optional): channel groups of the convolution. Default: 1.
        weight_attr (ParamAttr, optional): the weight's attribute. Default: None.
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops it. Default: None.

    Shape:
        - x: `[N, in_channels, H, W]`; float32 or float64.
        - offset: `[N, 2 * deformable_groups * kh * kw, H_out, W_out]`, the dtype of `x`.
        - mask: `[N, deformable_groups * kh * kw, H_out, W_out]`, or None (deformable v1).
        - output: `[N, out_channels, H_out, W_out]`.

    Examples:
        >>> import framework as paddle
        >>> layer = DeformConv2D(4, 6, kernel_size=3, padding=1)
        >>> layer(paddle.rand([1, 4, 8, 8]), paddle.zeros([1, 18, 8, 8])).shape
        paddle.Size([1, 6, 8, 8])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        deformable_groups: int = 1,
        groups: int = 1,
        weight_attr: object = None,
        bias_attr: object = None,
    ) -> None:
        super().__init__()
        if weight_attr is False:
            raise ValueError("weight_attr should not be False in Conv.")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups.")
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._kernel_size = pair(kernel_size, "kernel_size")
        self._stride = pair(stride, "stride")
        self._padding = pair(padding, "padding")
        self._dilation = pair(dilation, "dilation")
        self._deformable_groups = deformable_groups
        self._groups = groups
        fan_in = in_channels * math.prod(self._kernel_size)
        self.weight = self.create_parameter(
            [out_channels, in_channels // groups, *self._kernel_size],
            attr=weight_attr,
            default_initializer=Normal(0.0, (2.0 / fan_in) ** 0.5),
        )
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x: Tensor, offset: Tensor, mask: Tensor | None = None) -> Tensor:
        return deform_conv2d(
            x,
            offset,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self._dilation,
            self._deformable_groups,
            self._groups,
            mask,
        )

    def extra_repr(self) -> str:
        return (
            f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
            f"stride={self._stride}, padding={self._padding}, dilation={self._dilation}, "
            f"deformable_groups={self._deformable_groups}, groups={self._groups}"
        )
