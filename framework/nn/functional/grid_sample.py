"""Spatial transformers, as in `paddle.nn.functional`: affine_grid and grid_sample.

`grid_sample` is composed from differentiable ops: the sampling position is an affine function
of the grid (unnormalise, then border clipping or reflection, each exact as `sign * g + offset`
with constant sign and offset), the corner indices are constants, and the corner values are a
`take_along_axis` gather. So gradients reach both `x` and `grid`, of every order. Coordinates
follow Paddle (and PyTorch): the grid's last axis is `(x, y[, z])`, that is W, H[, D].
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation import clip, take_along_axis

__all__ = ["affine_grid", "grid_sample"]

_MODES = ("bilinear", "nearest")
_PADDINGS = ("zeros", "border", "reflection")


def _constant(array, like: Tensor) -> Tensor:
    xp = get_array_module(like._data)
    return Tensor._wrap(xp.asarray(array, dtype=like._data.dtype))


def _base_coordinates(size: int, align_corners: bool) -> np.ndarray:
    """The normalised centres of `size` pixels, from -1 to 1."""
    if size <= 1:
        return np.zeros(size)
    line = np.linspace(-1.0, 1.0, size)
    return line if align_corners else line * (size - 1) / size


def affine_grid(
    theta: Tensor,
    out_shape: Sequence[int] | Tensor,
    align_corners: bool = True,
    name: str | None = None,
) -> Tensor:
    """The sampling grid of an affine transform, as `paddle.nn.functional.affine_grid`.

    Sampling grid of an affine transform, for `grid_sample`.

    `theta` is `[N, 2, 3]` with `out_shape` `[N, C, H, W]` (the grid is `[N, H, W, 2]`), or
    `[N, 3, 4]` with `out_shape` `[N, C, D, H, W]` (the grid is `[N, D, H, W, 3]`). Each grid
    point is `theta @ (x, y[, z], 1)` over the normalised output coordinates in [-1, 1];
    float32 or float64, as `theta`. Differentiable in `theta`.

    Args:
        theta (Tensor): `[N, 2, 3]` (2-D) or `[N, 3, 4]` (3-D) affine matrices; float32 or float64.
        out_shape (list|tuple|Tensor): `[N, C, H, W]` or `[N, C, D, H, W]`.
        align_corners (bool, optional): -1 and 1 are the corner pixels' centres. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the grid, `[N, H, W, 2]` or `[N, D, H, W, 3]`, the dtype of `theta`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> theta = paddle.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> print(F.affine_grid(theta, [1, 1, 2, 2]))
        Tensor(shape=[1, 2, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[-1., -1.],
                  [ 1., -1.]],
        <BLANKLINE>
                 [[-1.,  1.],
                  [ 1.,  1.]]]])
    """
    if isinstance(out_shape, Tensor):
        out_shape = [int(v) for v in out_shape.numpy().reshape(-1)]
    out_shape = [int(v) for v in out_shape]
    spatial = len(out_shape) - 2
    if spatial not in (2, 3):
        raise ValueError(f"affine_grid: out_shape must have 4 or 5 entries, got {out_shape}")
    if theta.ndim != 3 or list(theta.shape[1:]) != [spatial, spatial + 1]:
        raise ValueError(
            f"affine_grid: theta must be [N, {spatial}, {spatial + 1}] for out_shape "
            f"{out_shape}, got {theta.shape}"
        )
    if theta.shape[0] != out_shape[0]:
        raise ValueError(
            f"affine_grid: theta's batch {theta.shape[0]} differs from out_shape's {out_shape[0]}"
        )
    sizes = out_shape[2:]  # (H, W) or (D, H, W)
    axes = [_base_coordinates(s, align_corners) for s in sizes]
    mesh = np.meshgrid(*axes, indexing="ij")
    # Homogeneous coordinates ordered (x, y[, z], 1): W first.
    base = np.stack([*mesh[::-1], np.ones(sizes)], axis=-1).reshape(-1, spatial + 1)
    grid = _constant(base, theta).matmul(theta.transpose([0, 2, 1]))
    return grid.reshape([out_shape[0], *sizes, spatial])


def _unnormalise(g: Tensor, size: int, align_corners: bool) -> Tensor:
    if align_corners:
        return (g + 1.0) * ((size - 1) / 2.0)
    return ((g + 1.0) * size - 1.0) / 2.0


def _reflect(coord: Tensor, size: int, align_corners: bool) -> Tensor:
    """Reflect positions into the image, as `sign * coord + offset` (piecewise exact)."""
    low, high = (0.0, 2.0 * (size - 1)) if align_corners else (-1.0, 2.0 * size - 1.0)
    if low == high:
        return coord * 0.0
    lo, span = low / 2.0, (high - low) / 2.0
    c = _host(coord)
    side = np.where(c - lo < 0, -1.0, 1.0)
    flips = np.floor(side * (c - lo) / span)
    even = np.mod(flips, 2) == 0
    sign = np.where(even, side, -side)
    offset = np.where(even, -side * lo - flips * span + lo, span + side * lo + flips * span + lo)
    return coord * _constant(sign, coord) + _constant(offset, coord)


def _positions(
    grid: Tensor, sizes: Sequence[int], padding_mode: str, align_corners: bool
) -> list[Tensor]:
    """Pixel positions per spatial axis of `x` (D, H, W order), each `[N, *out]`."""
    spatial = len(sizes)
    positions = []
    for axis, size in enumerate(sizes):
        g = grid[..., spatial - 1 - axis]  # the grid's last axis is (x, y, z): W first
        coord = _unnormalise(g, size, align_corners)
        if padding_mode == "reflection":
            coord = clip(_reflect(coord, size, align_corners), 0.0, float(size - 1))
        elif padding_mode == "border":
            coord = clip(coord, 0.0, float(size - 1))
        positions.append(coord)
    return positions


def _gather(flat_x: Tensor, sizes: Sequence[int], corner: list, xp) -> tuple[Tensor, object]:
    """Values of `flat_x` `[N, C, prod(sizes)]` at integer corner indices `[N, P]` per axis;
    returns them `[N, C, P]` and the in-bounds mask `[N, 1, P]`."""
    inside = np.ones(corner[0].shape, dtype=bool)
    flat = np.zeros(corner[0].shape, dtype=np.int64)
    for index, size in zip(corner, sizes, strict=True):
        inside &= (index >= 0) & (index < size)
        flat = flat * size + np.clip(index, 0, size - 1)
    values = take_along_axis(flat_x, Tensor._wrap(xp.asarray(flat[:, None, :])), axis=2)
    return values, inside[:, None, :]


def grid_sample(
    x: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = True,
    name: str | None = None,
) -> Tensor:
    """Sample at normalised grid positions, as `paddle.nn.functional.grid_sample`.

    Sample `x` at the normalised positions of `grid` (in [-1, 1]).

    `x` is `[N, C, H, W]` with `grid` `[N, H_out, W_out, 2]` (result `[N, C, H_out, W_out]`),
    or `[N, C, D, H, W]` with `grid` `[N, D_out, H_out, W_out, 3]` (result
    `[N, C, D_out, H_out, W_out]`). The grid's last axis is `(x, y[, z])`. `mode` is
    'bilinear' (trilinear for 5-D) or 'nearest'; `padding_mode` says what lies outside:
    'zeros', 'border' (the edge value) or 'reflection'. `align_corners=True` maps -1 and 1 to
    the centres of the corner pixels, False to their outer edges. float32 or float64;
    differentiable in `x` and (for 'bilinear') in `grid`.

    Args:
        x (Tensor): `[N, C, H, W]` or `[N, C, D, H, W]`; float32 or float64.
        grid (Tensor): `[N, H_out, W_out, 2]` or `[N, D_out, H_out, W_out, 3]`, positions in [-1,
            1].
        mode (str, optional): 'bilinear' or 'nearest'. Default: 'bilinear'.
        padding_mode (str, optional): 'zeros', 'border' or 'reflection'. Default: 'zeros'.
        align_corners (bool, optional): -1 and 1 are the corner pixels' centres. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, H_out, W_out]` (or `[N, C, D_out, H_out, W_out]`), the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> grid = paddle.to_tensor([[[[-1.0, -1.0], [0.0, 0.0]]]])
        >>> print(F.grid_sample(x, grid))
        Tensor(shape=[1, 1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0.        , 7.50000000]]]])
    """
    if mode not in _MODES:
        raise ValueError(f"grid_sample: mode must be one of {_MODES}, got {mode!r}")
    if padding_mode not in _PADDINGS:
        raise ValueError(
            f"grid_sample: padding_mode must be one of {_PADDINGS}, got {padding_mode!r}"
        )
    spatial = x.ndim - 2
    if spatial not in (2, 3) or grid.ndim != x.ndim or grid.shape[-1] != spatial:
        raise ValueError(
            f"grid_sample: x must be 4-D or 5-D with grid [N, *out, {max(spatial, 2)}], got x "
            f"{x.shape} and grid {grid.shape}"
        )
    if grid.shape[0] != x.shape[0]:
        raise ValueError(f"grid_sample: x's batch {x.shape[0]} differs from grid's {grid.shape[0]}")
    if grid.dtype != x.dtype:
        grid = grid.astype(x.dtype)
    xp = get_array_module(x._data)
    n, c, sizes = x.shape[0], x.shape[1], x.shape[2:]
    out = grid.shape[1:-1]
    points = int(np.prod(out))
    positions = [
        p.reshape([n, points]) for p in _positions(grid, sizes, padding_mode, align_corners)
    ]
    flat_x = x.reshape([n, c, -1])
    sample = _sample_nearest if mode == "nearest" else _sample_linear
    return sample(flat_x, sizes, positions, xp).reshape([n, c, *out])


def _sample_nearest(flat_x: Tensor, sizes: Sequence[int], positions: list[Tensor], xp) -> Tensor:
    """`[N, C, P]`: the pixel nearest each position (ties to even, as Paddle and PyTorch)."""
    corner = [np.rint(_host(p)).astype(np.int64) for p in positions]
    values, inside = _gather(flat_x, sizes, corner, xp)
    # `0 * position` keeps the grid in the graph: its gradient is zeros, as in Paddle.
    n, points = positions[0].shape
    return values * (_constant(inside, flat_x) + positions[0].reshape([n, 1, points]) * 0.0)


def _sample_linear(flat_x: Tensor, sizes: Sequence[int], positions: list[Tensor], xp) -> Tensor:
    """`[N, C, P]`: bilinear (trilinear) interpolation of the 2 (2**3) neighbours per position;
    the weights are products of the fractional parts, which carry the grid's gradient."""
    n, points = positions[0].shape
    low_index = [np.floor(_host(p)).astype(np.int64) for p in positions]
    fracs = [
        (p - _constant(low, p)).reshape([n, 1, points])
        for p, low in zip(positions, low_index, strict=True)
    ]
    result = None
    for offsets in itertools.product((0, 1), repeat=len(sizes)):
        corner = [low + o for low, o in zip(low_index, offsets, strict=True)]
        values, inside = _gather(flat_x, sizes, corner, xp)
        weight = None
        for frac, o in zip(fracs, offsets, strict=True):
            w = frac if o else 1.0 - frac
            weight = w if weight is None else weight * w
        term = values * (weight * _constant(inside, flat_x))
        result = term if result is None else result + term
    return result


def _host(positions: Tensor) -> np.ndarray:
    """A float64 NumPy copy of positions, for the constant index arithmetic. `numpy()` rather
    than the raw array, so a jit trace stops with a clear error here instead of freezing this
    grid's indices into the graph."""
    return positions.numpy().astype(np.float64)
