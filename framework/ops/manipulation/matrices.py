"""Building and reading matrices: trace, diagflat, block_diag, vander, tril_indices,
triu_indices, cartesian_prod, combinations.

Differentiable ones are compositions of diagonal, concat, pad-free slicing and products.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from framework.core import dtype as dtypes
from framework.core.backend import current_xp, get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to
from framework.ops.manipulation.diagonal import diag_embed, diagonal
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.join import concat, stack
from framework.ops.manipulation.shape import Reshape


def trace(
    x: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> Tensor:
    """The sum of diagonal `offset` of the planes over `axis1` and `axis2`: those dims are
    removed, so `[m, n]` gives `[]` and `[b, m, n]` (axes 1, 2) gives `[b]`. Same dtype as `x`
    (int32 stays int32, as in Paddle; bool is a TypeError). A diagonal past the edge sums to 0.

        framework.trace(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]))   # 5.0
    """
    if x._data.dtype == np.bool_:
        raise TypeError("trace: x must be a number tensor, got bool")
    if x._data.ndim < 2:
        raise ValueError(f"trace: x must be at least 2-D, got shape {x.shape}")
    # Paddle keeps the input dtype, where sum would widen int32 to int64.
    return diagonal(x, offset, axis1, axis2).sum(axis=-1, dtype=x.dtype)


def diagflat(x: Tensor, offset: int = 0, name: str | None = None) -> Tensor:
    """A square matrix `[n + |offset|, n + |offset|]` with the flattened `x` (n elements) on
    diagonal `offset` (above the main one when positive), zeros elsewhere; same dtype.

        framework.diagflat(framework.to_tensor([1, 2]), 1)   # [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    return diag_embed(Reshape((x._data.size,)).apply(x), offset)


def block_diag(inputs: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The block-diagonal matrix of the inputs (each 0-, 1- or 2-D, a 1-D `[n]` being a row
    `[1, n]`), zeros off the blocks: `[sum of rows, sum of cols]`, the inputs' common dtype.

        framework.block_diag([framework.ones([2, 2]), framework.ones([1, 3])]).shape   # [3, 5]
    """
    blocks = []
    for t in inputs:
        if t._data.ndim > 2:
            raise ValueError(f"block_diag: inputs must be at most 2-D, got shape {t.shape}")
        shape = {0: (1, 1), 1: (1, t._data.size)}.get(t._data.ndim, t._data.shape)
        blocks.append(Reshape(tuple(shape)).apply(t))
    if not blocks:
        raise ValueError("block_diag: needs at least one tensor")
    dtype = blocks[0]._data.dtype
    for b in blocks:
        # Paddle refuses mixed dtypes here rather than promoting.
        if b._data.dtype != dtype:
            raise TypeError(f"block_diag: all inputs need one dtype, got {dtype} and {b.dtype}")
    xp = get_array_module(blocks[0]._data)
    total = sum(b._data.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        r, c = b._data.shape
        parts = []
        if left:
            parts.append(Tensor._wrap(xp.zeros((r, left), dtype=dtype)))
        parts.append(b)
        if total - left - c:
            parts.append(Tensor._wrap(xp.zeros((r, total - left - c), dtype=dtype)))
        rows.append(concat(parts, axis=1))
        left += c
    return concat(rows, axis=0)


def vander(
    x: Tensor, n: int | None = None, increasing: bool = False, name: str | None = None
) -> Tensor:
    """The Vandermonde matrix of a 1-D `x`: column `j` is `x ** (n - 1 - j)` (`x ** j` when
    `increasing`); `n` defaults to `len(x)`. Shape `[len(x), n]`, same dtype as `x`.

        framework.vander(framework.to_tensor([1.0, 2.0, 3.0]))   # [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    if x._data.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, got shape {x.shape}")
    n = x._data.shape[0] if n is None else int(n)
    if n < 0:
        raise ValueError(f"vander: n must be non-negative, got {n}")
    powers = [x**j if j else x * 0 + 1 for j in range(n)]
    if not increasing:
        powers.reverse()
    if not powers:
        return Tensor._wrap(get_array_module(x._data).zeros((x._data.shape[0], 0), x._data.dtype))
    return stack(powers, axis=1)


def _triangle_indices(row: int, col: int, offset: int, dtype, upper: bool) -> Tensor:
    if row < 0 or col < 0:
        raise ValueError(f"tril_indices/triu_indices: row and col must be >= 0, got {row}, {col}")
    xp = current_xp()
    mask = (
        xp.triu(xp.ones((row, col), dtype=bool), offset)
        if upper
        else xp.tril(xp.ones((row, col), dtype=bool), offset)
    )
    return Tensor._wrap(xp.stack(xp.nonzero(mask)).astype(dtypes.convert_dtype(dtype)))


def tril_indices(row: int, col: int, offset: int = 0, dtype: object = "int64") -> Tensor:
    """The `[2, count]` row and column indices of the lower triangle of a `row x col` matrix,
    at and below diagonal `offset`, in row-major order, of `dtype` (int64 by default).

        framework.tril_indices(2, 2)   # [[0, 1, 1], [0, 0, 1]]
    """
    return _triangle_indices(int(row), int(col), int(offset), dtype, upper=False)


def triu_indices(
    row: int, col: int | None = None, offset: int = 0, dtype: object = "int64"
) -> Tensor:
    """The `[2, count]` indices of the upper triangle (at and above diagonal `offset`) of a
    `row x col` matrix (`col` defaults to `row`), in row-major order, of `dtype`.

        framework.triu_indices(2, 2)   # [[0, 0, 1], [0, 1, 1]]
    """
    col = row if col is None else col
    return _triangle_indices(int(row), int(col), int(offset), dtype, upper=True)


def cartesian_prod(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """All combinations of one element from each 1-D input, as rows `[prod(sizes), len(x)]`
    (one input: itself).

        framework.cartesian_prod([framework.to_tensor([1, 2]), framework.to_tensor([3, 4])])
        # [[1, 3], [1, 4], [2, 3], [2, 4]]
    """
    tensors = list(x)
    for t in tensors:
        if t._data.ndim != 1:
            raise ValueError(f"cartesian_prod: inputs must be 1-D, got shape {t.shape}")
    if len(tensors) == 1:
        return tensors[0]
    sizes = [t._data.shape[0] for t in tensors]
    columns = []
    for i, t in enumerate(tensors):
        shape = [1] * len(tensors)
        shape[i] = sizes[i]
        grid = broadcast_to(Reshape(tuple(shape)).apply(t), sizes)
        columns.append(Reshape((-1,)).apply(grid))
    return stack(columns, axis=1)


def combinations(
    x: Tensor, r: int = 2, with_replacement: bool = False, name: str | None = None
) -> Tensor:
    """All length-`r` combinations of the elements of a 1-D `x` (with repeats when
    `with_replacement`), as rows `[count, r]` in lexicographic order of positions, same dtype
    (r = 0 or r > len(x) without replacement: an empty result).

        framework.combinations(framework.to_tensor([1, 2, 3]))   # [[1, 2], [1, 3], [2, 3]]
    """
    if x._data.ndim != 1:
        raise ValueError(f"combinations: x must be 1-D, got shape {x.shape}")
    if r < 0:
        raise ValueError(f"combinations: r must be non-negative, got {r}")
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    positions = list(pick(range(x._data.shape[0]), int(r)))
    xp = get_array_module(x._data)
    if not positions or r == 0:
        return Tensor._wrap(xp.zeros((0,) if r == 0 else (0, r), dtype=x._data.dtype))
    return getitem(x, Tensor._wrap(xp.asarray(positions, dtype=np.int64)))
