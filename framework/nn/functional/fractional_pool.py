"""Fractional max pooling (Graham, 2015): `fractional_max_pool2d` and `fractional_max_pool3d`,
as in `paddle.nn.functional`.

Per axis the windows follow Paddle's kernel exactly, in float32 as it computes them:
`alpha = (in - k) / (out - (k > 0))`, `start_i = int((i + u) * alpha) - int(u * alpha)`,
`end_i = start_i + k` with a `kernel_size`, else `int((i + 1 + u) * alpha) - int(u * alpha)`
(with `u` first scaled by Paddle's `FractionalRationalU` bound), clipped to the input. The
winners' flat indices (the first maximum of each window in row-major order, Paddle's mask) are
found on the raw arrays; the output is a `take_along_axis` at them, so the gradient goes to the
winners as Paddle's does and has every order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.manipulation import take_along_axis

Size = int | Sequence[int | None]


def _scaled_u(u: np.float32, alpha: np.float32, size: int, out: int, k: int) -> np.float32:
    if k > 0:
        return u
    base = size // out
    bound1 = np.float32(base + 2) / alpha - np.float32(1)
    bound2 = np.float32(size + 1 - base) / alpha - np.float32(out - 1)
    return u * min(bound1, bound2)


def _axis_windows(size: int, out: int, k: int, u: np.float32) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of each of the `out` windows along one axis."""
    if k > 0 and out == 1:  # alpha is (size - k) / 0: Paddle's one window starts at 0
        return np.zeros(1, np.int64), np.full(1, min(k, size), np.int64)
    alpha = np.float32(size - k) / np.float32(out - (1 if k > 0 else 0))
    u = _scaled_u(u, alpha, size, out, k)
    offset = int(u * alpha)
    idx = np.arange(out, dtype=np.float32)
    starts = ((idx + u) * alpha).astype(np.int64) - offset
    if k > 0:
        ends = starts + k
    else:
        ends = ((idx + np.float32(1) + u) * alpha).astype(np.int64) - offset
    return np.maximum(starts, 0), np.minimum(ends, size)


def _winners(data, spatial: tuple[int, ...], windows) -> object:
    """Flat input index of each window's first maximum, `[N, C, prod(out)]`: every window's
    taps are gathered at once (`[N, C, outputs, taps]`, the taps past a short window's end
    masked to -inf) and the first argmax taken."""
    xp = get_array_module(data)
    dims = len(spatial)
    strides = [math.prod(spatial[a + 1 :]) for a in range(dims)]
    widths = [int((ends - starts).max()) for starts, ends in windows]
    grid = [n for (starts, _), w in zip(windows, widths, strict=True) for n in (len(starts), w)]
    flat = np.zeros(grid, np.int64)
    valid = np.ones(grid, bool)
    for axis, ((starts, ends), width) in enumerate(zip(windows, widths, strict=True)):
        taps = starts[:, None] + np.arange(width)[None, :]  # [out, width] along this axis
        shape = [1] * (2 * dims)
        shape[2 * axis : 2 * axis + 2] = taps.shape
        flat = flat + (np.minimum(taps, spatial[axis] - 1) * strides[axis]).reshape(shape)
        valid = valid & (taps < ends[:, None]).reshape(shape)
    order = [2 * a for a in range(dims)] + [2 * a + 1 for a in range(dims)]
    outputs, taps = math.prod(grid[0::2]), math.prod(grid[1::2])
    flat = xp.asarray(flat.transpose(order).reshape(outputs, taps))
    valid = xp.asarray(valid.transpose(order).reshape(outputs, taps))
    n, c = data.shape[:2]
    values = xp.where(valid, data.reshape(n, c, -1)[:, :, flat], -xp.inf)
    return flat[xp.arange(outputs), xp.argmax(values, axis=-1)]


def _fractional_max_pool(
    op: str,
    x: Tensor,
    output_size: Size,
    kernel_size: Size | None,
    random_u: float | None,
    return_mask: bool,
    dims: int,
) -> Tensor | tuple[Tensor, Tensor]:
    if x.ndim != dims + 2:
        raise ValueError(f"{op}: expected a {dims + 2}-D NC{'DHW'[-dims:]} input, got {x.shape}")
    spatial = tuple(x.shape[2:])
    if random_u is None:
        u = np.float32(get_rng().random(1, dtype=np.float32)[0])
    elif not 0.0 < random_u < 1.0:
        raise ValueError(f"{op}: random_u must be a float in (0, 1), got {random_u!r}")
    else:
        u = np.float32(random_u)
    sizes = [output_size] * dims if isinstance(output_size, int) else list(output_size)
    kernel = [0] * dims if kernel_size is None else _as_list(kernel_size, dims)
    if len(sizes) != dims or len(kernel) != dims:
        raise ValueError(f"{op}: output_size and kernel_size need {dims} values each")
    sizes = [s if o is None else int(o) for o, s in zip(sizes, spatial, strict=True)]
    for size, out, k in zip(spatial, sizes, kernel, strict=True):
        if out < 1 or size < out - 1 + k or (k == 0 and out > size):
            raise ValueError(
                f"{op}: output_size {sizes} with kernel_size {kernel} does not fit the input "
                f"{list(spatial)} (need input >= output - 1 + kernel and output <= input)"
            )
    windows = [_axis_windows(*args, u) for args in zip(spatial, sizes, kernel, strict=True)]
    n, c = x.shape[:2]
    mask = _winners(x._data, spatial, windows)  # [N, C, prod(sizes)]
    y = take_along_axis(x.reshape([n, c, -1]), Tensor._wrap(mask), axis=2).reshape([n, c, *sizes])
    if not return_mask:
        return y
    return y, Tensor._wrap(mask.astype(np.int32).reshape(n, c, *sizes))


def _as_list(value: int | Sequence[int], dims: int) -> list[int]:
    return [int(value)] * dims if isinstance(value, int) else [int(v) for v in value]


def fractional_max_pool2d(
    x: Tensor,
    output_size: Size,
    kernel_size: int | Sequence[int] | None = None,
    random_u: float | None = None,
    return_mask: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """2-D fractional max pooling, as `paddle.nn.functional.fractional_max_pool2d`.

    2-D fractional max pooling of `[N, C, H, W]` -> `[N, C, *output_size]` (None keeps a
    size); pseudo-random disjoint windows, or overlapping ones of `kernel_size`. `random_u` in
    (0, 1) fixes the window offsets (default: drawn from the framework RNG). With
    `return_mask`, also the int32 flat H*W index of each maximum.

    Args:
        x (Tensor): `[N, C, H, W]`; float32 or float64.
        output_size (int|list|tuple): the output's spatial size; None keeps a size.
        kernel_size (int|list|tuple, optional): overlapping windows of this size; None draws
            disjoint ones. Default: None.
        random_u (float, optional): in (0, 1), fixes the window offsets; None draws it. Default:
            None.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, *output_size]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> print(F.fractional_max_pool2d(x, [2, 3], random_u=0.3))
        Tensor(shape=[1, 1, 2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[4. , 6. , 7. ],
                  [12., 14., 15.]]]])
        >>> F.fractional_max_pool2d(paddle.ones([2, 3, 7, 7]), [3, 4], random_u=0.3).shape
        paddle.Size([2, 3, 3, 4])
    """
    return _fractional_max_pool(
        "fractional_max_pool2d", x, output_size, kernel_size, random_u, return_mask, 2
    )


def fractional_max_pool3d(
    x: Tensor,
    output_size: Size,
    kernel_size: int | Sequence[int] | None = None,
    random_u: float | None = None,
    return_mask: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """3-D fractional max pooling, as `paddle.nn.functional.fractional_max_pool3d`.

    3-D fractional max pooling of `[N, C, D, H, W]` -> `[N, C, *output_size]`; as
    `fractional_max_pool2d`, the mask indexing each D*H*W volume.

    Args:
        x (Tensor): `[N, C, D, H, W]`; float32 or float64.
        output_size (int|list|tuple): the output's spatial size; None keeps a size.
        kernel_size (int|list|tuple, optional): overlapping windows of this size; None draws
            disjoint ones. Default: None.
        random_u (float, optional): in (0, 1), fixes the window offsets; None draws it. Default:
            None.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, *output_size]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> F.fractional_max_pool3d(paddle.ones([1, 2, 5, 6, 7]), 3, random_u=0.5).shape
        paddle.Size([1, 2, 3, 3, 3])
    """
    return _fractional_max_pool(
        "fractional_max_pool3d", x, output_size, kernel_size, random_u, return_mask, 3
    )
