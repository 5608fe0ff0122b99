"""Batched diagonals: `diagonal` (a diagonal of two chosen dims) and `diag_embed` (its inverse),
and `fill_diagonal_`, which writes a value onto a diagonal in place.

The first two are each other's backward, so both are differentiable to any order. `diag` in
`triangular.py` is the 1-D / 2-D special case Paddle keeps under its own name.
"""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import check_inplace, rebind
from framework.ops.manipulation.where import masked_fill


def _normalize(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


class Diagonal(Function):
    """Diagonal `offset` of dims (axis1, axis2), moved to the last dim (NumPy's order)."""

    def __init__(self, offset: int, axis1: int, axis2: int) -> None:
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, x):
        self.shape = x.shape
        # A copy: NumPy's diagonal is a read-only view, and callers may write into results.
        return get_array_module(x).diagonal(x, self.offset, self.axis1, self.axis2).copy()

    def backward(self, gy: Tensor) -> Tensor:
        return DiagEmbed(self.shape, self.offset, self.axis1, self.axis2).apply(gy)


class DiagEmbed(Function):
    """Zeros of `shape` with the last dim of the input written onto diagonal `offset` of
    dims (axis1, axis2)."""

    def __init__(self, shape: tuple[int, ...], offset: int, axis1: int, axis2: int) -> None:
        self.shape = shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, v):
        xp = get_array_module(v)
        out = xp.zeros(self.shape, dtype=v.dtype)
        view = xp.diagonal(out, self.offset, self.axis1, self.axis2)
        if xp.__name__ == "numpy":
            view.flags.writeable = True  # a view of our own fresh buffer
        view[...] = v
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return Diagonal(self.offset, self.axis1, self.axis2).apply(gy)


def diagonal(
    x: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> Tensor:
    """The diagonal `offset` of the 2-D planes spanned by `axis1` and `axis2`.

    Those two dims are removed and the diagonal becomes the last dim: `[2, 3, 4]` with
    `axis1=1, axis2=2` gives `[2, 3]`. Same dtype as `x`.

        x = framework.arange(6.0).reshape([2, 3])
        framework.diagonal(x)             # [0., 4.]
        framework.diagonal(x, offset=1)   # [1., 5.]
    """
    ndim = x._data.ndim
    if ndim < 2:
        raise ValueError(f"diagonal: needs at least 2 dims, got shape {x.shape}")
    a1, a2 = _normalize(axis1, ndim, "diagonal"), _normalize(axis2, ndim, "diagonal")
    if a1 == a2:
        raise ValueError(f"diagonal: axis1 and axis2 must differ, got {axis1} and {axis2}")
    return Diagonal(int(offset), a1, a2).apply(x)


def diag_embed(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    offset: int = 0,
    dim1: int = -2,
    dim2: int = -1,
    name: str | None = None,
) -> Tensor:
    """Matrices whose diagonal `offset` (over dims `dim1`, `dim2` of the result) holds the
    last dim of `input`; zeros elsewhere. `[..., n]` gives `[..., n + |offset|, n + |offset|]`.

        framework.diag_embed(framework.to_tensor([[1.0, 2.0]]))   # [[[1, 0], [0, 2]]]
    """
    if input._data.ndim < 1:
        raise ValueError("diag_embed: needs at least 1 dim, got a 0-D tensor")
    ndim = input._data.ndim + 1
    d1, d2 = _normalize(dim1, ndim, "diag_embed"), _normalize(dim2, ndim, "diag_embed")
    if d1 == d2:
        raise ValueError(f"diag_embed: dim1 and dim2 must differ, got {dim1} and {dim2}")
    n = input._data.shape[-1] + abs(int(offset))
    batch = list(input._data.shape[:-1])
    shape = []
    for i in range(ndim):
        shape.append(n if i in (d1, d2) else batch.pop(0))
    return DiagEmbed(tuple(shape), int(offset), d1, d2).apply(input)


def _filled_diagonal_positions(shape: tuple[int, ...], offset: int, wrap: bool) -> np.ndarray:
    """The flat indices Paddle's fill_diagonal kernel writes.

    It walks the flat buffer in steps of the sum of the strides (one step down every dim) and
    shifts each hit by `offset` when that stays in the same row. Without `wrap` it stops after
    the first `cols` rows, so a tall matrix gets one square's diagonal; with it the diagonal
    restarts below, skipping a row, as `torch.Tensor.fill_diagonal_` does.
    """
    cols = shape[1]
    strides = np.cumprod((1,) + shape[:0:-1])  # the row-major strides, last dim first
    step = int(strides.sum())
    numel = int(np.prod(shape))
    size = numel if wrap else min(numel, cols * cols)
    starts = np.arange(0, size, step)
    column = starts % cols + offset
    return starts[(column >= 0) & (column < cols)] + offset


def fill_diagonal_(
    x: Tensor, value: float, offset: int = 0, wrap: bool = False, name: str | None = None
) -> Tensor:
    """Write `value` onto diagonal `offset` of `x` in place (> 0 above the main diagonal,
    < 0 below); returns `x`, same shape and dtype.

    `x` has at least 2 dims, and all of them equal when it has more than 2. For a tall 2-D
    `x` (more rows than columns) `wrap=True` restarts the diagonal after `cols` rows, leaving
    one row out; tensors with more than 2 dims always wrap, as in Paddle. No gradient flows
    through the filled positions.

        x = framework.ones([4, 3]) * 2
        x.fill_diagonal_(1.0)   # [[1, 2, 2], [2, 1, 2], [2, 2, 1], [2, 2, 2]]
    """
    check_inplace(x, "fill_diagonal_")
    shape = x._data.shape
    if len(shape) < 2:
        raise ValueError(f"fill_diagonal_: needs at least 2 dims, got shape {x.shape}")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(
            f"fill_diagonal_: a tensor with more than 2 dims needs all dims equal, got {x.shape}"
        )
    positions = _filled_diagonal_positions(shape, int(offset), bool(wrap) or len(shape) > 2)
    mask = np.zeros(int(np.prod(shape)), dtype=bool)
    mask[positions] = True
    xp = get_array_module(x._data)
    return rebind(x, masked_fill(x, Tensor._wrap(xp.asarray(mask.reshape(shape))), value))
