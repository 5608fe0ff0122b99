"""3-D pooling: `max_pool3d`, `avg_pool3d`, `adaptive_avg_pool3d`, `adaptive_max_pool3d`
(Paddle's API, `[N, C, D, H, W]` or NDHWC inputs).

Each is the 2-D pooling of every depth slice (the `N, C, D` axes merged into one batch of
planes, which NCDHW memory allows without a copy) followed by a reduction over the depth
window: a maximum, a sum divided by the window's element count, or an averaging matrix. So
gradients of any order, the GPU path and export come from existing ops. `return_mask`
indices are computed beside the result, as Paddle's flat positions in each D*H*W volume.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.conv_geometry import as_pair, parse_padding
from framework.core.tensor import Tensor
from framework.nn.functional.pooling import (
    adaptive_avg_pool2d,
    adaptive_max_pool2d,
    avg_pool2d,
    max_pool2d,
)
from framework.ops.linalg import matmul
from framework.ops.manipulation import concat, pad, transpose
from framework.ops.math import maximum
from framework.ops.nn.adaptive_pooling import adaptive_bins, averaging_matrix
from framework.ops.reduction import max as reduce_max

Size = int | Sequence[int]
_LAYOUTS = ("NCDHW", "NDHWC")


def _to_ncdhw(op: str, x: Tensor, data_format: str) -> Tensor:
    if data_format not in _LAYOUTS:
        raise ValueError(f"{op}: data_format must be one of {_LAYOUTS}, got {data_format!r}")
    if x.ndim != 5:
        raise ValueError(f"{op}: expected a 5-D input ({data_format}), got shape {x.shape}")
    return transpose(x, [0, 4, 1, 2, 3]) if data_format == "NDHWC" else x


def _from_ncdhw(y: Tensor, data_format: str) -> Tensor:
    return transpose(y, [0, 2, 3, 4, 1]) if data_format == "NDHWC" else y


def _windows(op: str, x: Tensor, kernel_size, stride, padding, ceil_mode: bool):
    """Per axis `(kernel, stride, (lo, hi), out)` of a pooling over NCDHW `x`, with Paddle's
    ceil_mode rule (the last window starts inside the input or its leading padding)."""
    kernel = as_pair(kernel_size, "kernel_size", 3)
    stride = kernel if stride is None else as_pair(stride, "stride", 3)
    if min(kernel) < 1 or min(stride) < 1:
        raise ValueError(f"{op}: kernel_size and stride must be positive")
    spatial = tuple(x.shape[2:])
    pads = parse_padding(padding, 3, kernel, stride, (1, 1, 1), spatial, False)
    axes = []
    for size, (lo, hi), k, s in zip(spatial, pads, kernel, stride, strict=True):
        span = size + lo + hi - k
        if span < 0:
            raise ValueError(
                f"{op}: the window {list(kernel)} is larger than the padded input "
                f"(input shape {x.shape}, padding {[list(p) for p in pads]})"
            )
        count = -(-span // s) + 1 if ceil_mode else span // s + 1
        if ceil_mode and (count - 1) * s >= size + lo:
            count -= 1
        axes.append((k, s, (lo, hi), count))
    return axes


def _depth_taps(x: Tensor, depth_axis, fill: float) -> list[Tensor]:
    """The `kd` strided depth slices of NCDHW `x`, each `[N, C, Do, H, W]`."""
    k, s, (lo, hi), out = depth_axis
    need = (out - 1) * s + k  # padded depth every window reads, ceil_mode included
    after = max(need - x.shape[2] - lo, 0)
    if lo or after:
        x = pad(x, [0, 0, 0, 0, lo, after, 0, 0, 0, 0], value=fill, pad_from_left_axis=True)
    return [x[:, :, a : a + s * (out - 1) + 1 : s] for a in range(k)]


def _planes(op, taps: list[Tensor], axes, padding_hw, ceil_mode, pool2d, **options):
    """2-D pooling of every `[N, C, Do, H, W]` tap, as `N * C * Do` planes."""
    n, c, depth, h, w = taps[0].shape
    (kh, _, _, _), (kw, _, _, _) = axes[1:]
    (_, sh, _, _), (_, sw, _, _) = axes[1:]
    results = []
    for tap in taps:
        planes = tap.reshape([-1, c * depth, h, w])
        y = pool2d(planes, [kh, kw], [sh, sw], padding_hw, ceil_mode=ceil_mode, **options)
        results.append(y.reshape([-1, c, depth, *y.shape[2:]]))
    return results


def max_pool3d(
    x: Tensor,
    kernel_size: Size,
    stride: Size | None = None,
    padding: str | Size = 0,
    ceil_mode: bool = False,
    return_mask: bool = False,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """3-D max pooling, as `paddle.nn.functional.max_pool3d`.

    3-D max pooling of `[N, C, D, H, W]` (or NDHWC); `stride` defaults to `kernel_size`,
    padding is -inf. `return_mask` also gives each winner's flat index in its D*H*W volume
    (int32, NCDHW), as Paddle does.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> print(F.max_pool3d(x, kernel_size=2))
        Tensor(shape=[1, 1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[7.]]]]])
        >>> F.max_pool3d(paddle.ones([1, 2, 8, 8, 8]), kernel_size=2).shape
        paddle.Size([1, 2, 4, 4, 4])
    """
    op = "max_pool3d"
    x = _to_ncdhw(op, x, data_format)
    axes = _windows(op, x, kernel_size, stride, padding, ceil_mode)
    padding_hw = [list(axes[1][2]), list(axes[2][2])]
    taps = _depth_taps(x, axes[0], float("-inf"))
    pooled = _planes(op, taps, axes, padding_hw, ceil_mode, max_pool2d)
    y = pooled[0]
    for part in pooled[1:]:
        y = maximum(y, part)
    y = _from_ncdhw(y, data_format)
    if not return_mask:
        return y
    return y, Tensor._wrap(_max_positions(x._data, axes))


def _max_positions(x, axes):
    """Paddle's mask: the flat D*H*W index of each window's first maximum (int32)."""
    xp = get_array_module(x)
    d, h, w = x.shape[2:]
    widths = [(0, 0), (0, 0)]
    for (k, s, (lo, _), out), size in zip(axes, (d, h, w), strict=True):
        widths.append((lo, max((out - 1) * s + k - size - lo, 0)))
    padded = xp.pad(x, widths, constant_values=-np.inf)
    best = None
    where = None
    (kd, sd, (pd, _), od), (kh, sh, (ph, _), oh), (kw, sw, (pw, _), ow) = axes
    for a in range(kd):
        for b in range(kh):
            for c in range(kw):
                v = padded[:, :, a : a + sd * od : sd, b : b + sh * oh : sh, c : c + sw * ow : sw]
                if best is None:
                    best, where = v.copy(), xp.zeros(v.shape, np.int64)
                    continue
                better = v > best
                best = xp.where(better, v, best)
                where = xp.where(better, (a * kh + b) * kw + c, where)
    a, rest = xp.divmod(where, kh * kw)
    b, c = xp.divmod(rest, kw)
    depth = xp.arange(od).reshape(-1, 1, 1) * sd - pd + a
    row = xp.arange(oh).reshape(1, -1, 1) * sh - ph + b
    col = xp.arange(ow).reshape(1, 1, -1) * sw - pw + c
    return ((depth * h + row) * w + col).astype(np.int32)


def avg_pool3d(
    x: Tensor,
    kernel_size: Size,
    stride: Size | None = None,
    padding: str | Size = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: float | None = None,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """3-D average pooling, as `paddle.nn.functional.avg_pool3d`.

    3-D average pooling of `[N, C, D, H, W]` (or NDHWC). With `exclusive=True` (Paddle's
    default) a window's divisor counts only the input elements it covers; `divisor_override`
    fixes it.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        exclusive (bool, optional): leave padding out of each window's divisor. Default: True.
        divisor_override (float, optional): a fixed divisor. Default: None.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> print(F.avg_pool3d(x, kernel_size=2))
        Tensor(shape=[1, 1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[3.50000000]]]]])
        >>> F.avg_pool3d(paddle.ones([1, 2, 8, 8, 8]), kernel_size=3, stride=2, padding=1).shape
        paddle.Size([1, 2, 4, 4, 4])
    """
    op = "avg_pool3d"
    x = _to_ncdhw(op, x, data_format)
    axes = _windows(op, x, kernel_size, stride, padding, ceil_mode)
    padding_hw = [list(axes[1][2]), list(axes[2][2])]
    taps = _depth_taps(x, axes[0], 0.0)
    sums = _planes(op, taps, axes, padding_hw, ceil_mode, avg_pool2d, divisor_override=1.0)
    total = sums[0]
    for part in sums[1:]:
        total = total + part
    if divisor_override:
        scale = np.asarray(1.0 / divisor_override, x._data.dtype)
    else:
        scale = _reciprocal_counts(axes, tuple(x.shape[2:]), exclusive, x._data.dtype)
    xp = get_array_module(x._data)
    return _from_ncdhw(total * Tensor._wrap(xp.asarray(scale)), data_format)


def _reciprocal_counts(axes, spatial, exclusive: bool, dtype) -> np.ndarray:
    """`[Do, Ho, Wo]`: 1 / each window's divisor (covered elements, or padded extent)."""
    counts = []
    for (k, s, (lo, hi), out), size in zip(axes, spatial, strict=True):
        start = np.arange(out) * s - lo
        stop = np.minimum(start + k, size + hi)
        if exclusive:
            start, stop = np.maximum(start, 0), np.minimum(stop, size)
        counts.append(stop - start)
    volume = counts[0][:, None, None] * counts[1][None, :, None] * counts[2][None, None, :]
    return (1.0 / volume).astype(dtype)


def _adaptive_sizes(op: str, output_size, spatial: tuple[int, ...]) -> tuple[int, ...]:
    if isinstance(output_size, int) or output_size is None:
        output_size = [output_size] * 3
    sizes = tuple(s if o is None else int(o) for o, s in zip(output_size, spatial, strict=True))
    if min(sizes) < 1:
        raise ValueError(f"{op}: output_size must be positive, got {list(output_size)}")
    return sizes


def adaptive_avg_pool3d(
    x: Tensor, output_size: Size, data_format: str = "NCDHW", name: str | None = None
) -> Tensor:
    """3-D adaptive average pooling, as `paddle.nn.functional.adaptive_avg_pool3d`.

    `[N, C, D, H, W] -> [N, C, od, oh, ow]` averaging adaptive windows (None keeps a size).

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        output_size (int|list|tuple): `[od, oh, ow]`, or one int; None keeps that size.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, od, oh, ow]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> print(F.adaptive_avg_pool3d(x, output_size=1))
        Tensor(shape=[1, 1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[3.50000000]]]]])
    """
    op = "adaptive_avg_pool3d"
    x = _to_ncdhw(op, x, data_format)
    n, c, d, h, w = x.shape
    od, oh, ow = _adaptive_sizes(op, output_size, (d, h, w))
    planes = adaptive_avg_pool2d(x.reshape([-1, c * d, h, w]), [oh, ow])
    planes = planes.reshape([-1, c, d, oh * ow])
    xp = get_array_module(x._data)
    depth = Tensor._wrap(xp.asarray(averaging_matrix(d, od, x._data.dtype)))
    y = matmul(depth, planes).reshape([-1, c, od, oh, ow])
    return _from_ncdhw(y, data_format)


def adaptive_max_pool3d(
    x: Tensor, output_size: Size, return_mask: bool = False, name: str | None = None
) -> Tensor | tuple[Tensor, Tensor]:
    """3-D adaptive max pooling, as `paddle.nn.functional.adaptive_max_pool3d`.

    `[N, C, D, H, W] -> [N, C, od, oh, ow]` taking the max of adaptive windows;
    `return_mask` also gives the winners' flat D*H*W positions (int32).

    Args:
        x (Tensor): `[N, C, D, H, W]`; float32 or float64.
        output_size (int|list|tuple): `[od, oh, ow]`, or one int; None keeps that size.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, od, oh, ow]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> out, mask = F.adaptive_max_pool3d(x, output_size=1, return_mask=True)
        >>> print(out)
        Tensor(shape=[1, 1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[7.]]]]])
        >>> print(mask)
        Tensor(shape=[1, 1, 1, 1, 1], dtype=int32, place=Place(cpu), stop_gradient=True,
               [[[[[7]]]]])
    """
    op = "adaptive_max_pool3d"
    x = _to_ncdhw(op, x, "NCDHW")
    n, c, d, h, w = x.shape
    od, oh, ow = _adaptive_sizes(op, output_size, (d, h, w))
    planes = adaptive_max_pool2d(x.reshape([-1, c * d, h, w]), [oh, ow])
    planes = planes.reshape([-1, c, d, oh, ow])
    starts, stops = adaptive_bins(d, od)
    bins = [
        reduce_max(planes[:, :, int(a) : int(b)], axis=2, keepdim=True)
        for a, b in zip(starts, stops, strict=True)
    ]
    y = concat(bins, axis=2)
    if not return_mask:
        return y
    return y, Tensor._wrap(_adaptive_max_positions(x._data, (od, oh, ow)))


def _adaptive_max_positions(x, out_size):
    xp = get_array_module(x)
    n, c, d, h, w = x.shape
    mask = xp.empty((n, c, *out_size), np.int32)
    bins = [adaptive_bins(size, out) for size, out in zip((d, h, w), out_size, strict=True)]
    for i, (d0, d1) in enumerate(zip(*bins[0], strict=True)):
        for j, (h0, h1) in enumerate(zip(*bins[1], strict=True)):
            for k, (w0, w1) in enumerate(zip(*bins[2], strict=True)):
                window = x[:, :, d0:d1, h0:h1, w0:w1].reshape(n, c, -1)
                a, rest = xp.divmod(window.argmax(-1), (h1 - h0) * (w1 - w0))
                b, e = xp.divmod(rest, w1 - w0)
                mask[:, :, i, j, k] = ((d0 + a) * h + h0 + b) * w + w0 + e
    return mask
