"""Copies of a tensor with part of it replaced: select_scatter, slice_scatter,
diagonal_scatter, index_fill, index_put, masked_scatter, scatter_add, scatter_reduce; and
the gathers index_sample and multiplex, and reduce_as.

All write through `Put` (or the diagonal ops), whose gradients reach both the tensor and the
written values.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to, sum_to
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.diagonal import DiagEmbed, diagonal
from framework.ops.manipulation.gather import take_along_axis
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.join import stack
from framework.ops.manipulation.scatter import ADD, ASSIGN, Put, put_along_axis
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.where import where


def _axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


def _int_index(index: Tensor, op: str, bools: bool = False):
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}: index must be a Tensor, got {type(index).__name__}")
    kinds = "iub" if bools else "iu"
    if index._data.dtype.kind not in kinds:
        raise TypeError(f"{op}: index must be an integer tensor, got {index.dtype}")
    return index._data


def _in_range(index, size: int, op: str) -> None:
    if index.size and (int(index.max()) >= size or int(index.min()) < -size):
        raise IndexError(f"{op}: an index is out of range for a dim of size {size}")


def _value_like(value: object, x: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return cast(value, x._data.dtype)
    return Tensor._wrap(get_array_module(x._data).asarray(value, dtype=x._data.dtype))


def _put(x: Tensor, key: tuple, value: object, op: str, repeats: bool = False) -> Tensor:
    value = _value_like(value, x)
    target = x._data[key].shape
    try:
        get_array_module(x._data).broadcast_shapes(value._data.shape, target)
    except ValueError:
        raise ValueError(f"{op}: values {value.shape} do not fit the slot {list(target)}") from None
    return Put(key, repeats, ASSIGN).apply(x, value)


def select_scatter(
    x: Tensor, values: Tensor, axis: int, index: int, name: str | None = None
) -> Tensor:
    """`x` with the slice `index` along `axis` replaced by `values` (shape of `x` without
    `axis`), same dtype as `x`; the gradient reaches `x` off the slice and `values`.

        framework.select_scatter(framework.zeros([2, 2]), framework.ones([2]), 0, 1)
        # [[0, 0], [1, 1]]
    """
    axis = _axis(int(axis), x._data.ndim, "select_scatter")
    size = x._data.shape[axis]
    if not -size <= int(index) < size:
        raise IndexError(f"select_scatter: index {index} is out of range for dim {axis} of {size}")
    key = (builtins.slice(None),) * axis + (int(index),)
    return _put(x, key, values, "select_scatter")


def slice_scatter(
    x: Tensor,
    value: Tensor,
    axes: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    strides: Sequence[int],
    name: str | None = None,
) -> Tensor:
    """`x` with the strided slice `x[starts:ends:strides]` (along `axes`) replaced by
    `value` (shaped as that slice, or broadcasting to it), same dtype as `x`.

        framework.slice_scatter(framework.zeros([2, 4]), framework.ones([2, 2]), [1], [0], [4], [2])
        # [[1, 0, 1, 0], [1, 0, 1, 0]]
    """
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError("slice_scatter: axes, starts, ends and strides must have one length")
    if any(int(step) == 0 for step in strides):
        raise ValueError("slice_scatter: strides must not be 0")
    key = [builtins.slice(None)] * x._data.ndim
    for axis, start, end, step in zip(axes, starts, ends, strides, strict=True):
        key[_axis(int(axis), x._data.ndim, "slice_scatter")] = builtins.slice(start, end, step)
    return _put(x, tuple(key), value, "slice_scatter")


def diagonal_scatter(
    x: Tensor, y: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> Tensor:
    """`x` with diagonal `offset` of the planes (`axis1`, `axis2`) replaced by `y` (shaped
    as `diagonal(x, offset, axis1, axis2)`), same dtype as `x`.

        framework.diagonal_scatter(framework.zeros([2, 2]), framework.ones([2]))
        # [[1, 0], [0, 1]]
    """
    old = diagonal(x, offset, axis1, axis2)
    if old._data.shape != y._data.shape:
        raise ValueError(f"diagonal_scatter: y must be {old.shape}, got {y.shape}")
    ndim = x._data.ndim

    def embed(t: Tensor) -> Tensor:
        # A Function instance is one graph node: each embedding needs its own, or the second
        # apply would take over the first's place and x's diagonal would keep its gradient.
        return DiagEmbed(tuple(x._data.shape), int(offset), axis1 % ndim, axis2 % ndim).apply(t)

    # Selecting rather than subtracting diag(x) keeps y exact where x's diagonal holds inf or
    # nan (inf - inf would be nan); the gradient goes to x off the diagonal and to y on it.
    on_diagonal = embed(Tensor._wrap(get_array_module(x._data).ones(old._data.shape, bool)))
    return where(on_diagonal, embed(cast(y, x._data.dtype)), x)


def fill_diagonal_tensor(
    x: Tensor, y: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1, name: str | None = None
) -> Tensor:
    """`paddle.Tensor.fill_diagonal_tensor`: `diagonal_scatter` under Paddle's argument names.
    `y` has `x`'s shape without `dim1` and `dim2`, then the diagonal's length; gradients flow
    to `x` off the diagonal and to `y`.

        x = framework.zeros([2, 3])
        x.fill_diagonal_tensor(framework.ones([2]))   # [[1, 0, 0], [0, 1, 0]]
    """
    return diagonal_scatter(x, y, offset, dim1, dim2)


def index_fill(
    x: Tensor, index: Tensor, axis: int, value: float | Tensor, name: str | None = None
) -> Tensor:
    """`x` with the slices `index` (1-D ints) along `axis` set to the scalar `value`, same
    dtype as `x`; the gradient reaches `x` outside those slices.

        framework.index_fill(framework.zeros([2, 3]), framework.to_tensor([1]), 1, 5.0)
        # [[0, 5, 0], [0, 5, 0]]
    """
    axis = _axis(int(axis), x._data.ndim, "index_fill")
    positions = _int_index(index, "index_fill").reshape(-1)
    _in_range(positions, x._data.shape[axis], "index_fill")
    key = (builtins.slice(None),) * axis + (positions,)
    return _put(x, key, value, "index_fill", repeats=True)


def index_put(
    x: Tensor,
    indices: Sequence[Tensor],
    value: Tensor,
    accumulate: bool = False,
    name: str | None = None,
) -> Tensor:
    """`x` with `x[indices] = value` (or `+= value`, every repeat adding, when `accumulate`);
    `indices` is a tuple of int or bool tensors, one per leading dim. Same dtype as `x`.

        framework.index_put(framework.zeros([2, 2]), (framework.to_tensor([0, 1]),
                            framework.to_tensor([1, 1])), framework.to_tensor(3.0))
        # [[0, 3], [0, 3]]
    """
    key = tuple(_int_index(t, "index_put", bools=True) for t in indices)
    dims = sum(k.ndim if k.dtype.kind == "b" else 1 for k in key)
    if dims > x._data.ndim:
        raise ValueError(f"index_put: {len(key)} index tensors for a {x._data.ndim}-D tensor")
    for d, k in enumerate(key):
        if k.dtype.kind != "b":
            _in_range(k, x._data.shape[d], "index_put")
    value = _value_like(value, x)
    slot = x._data[key].shape
    try:
        get_array_module(x._data).broadcast_shapes(value._data.shape, slot)
    except ValueError:
        raise ValueError(
            f"index_put: values {value.shape} do not fit the slot {list(slot)}"
        ) from None
    return Put(key, True, ADD if accumulate else ASSIGN).apply(x, value)


def masked_scatter(x: Tensor, mask: Tensor, value: Tensor, name: str | None = None) -> Tensor:
    """`x` with the positions where `mask` (broadcast to `x`) is true filled, in row-major
    order, by the leading elements of `value`; same dtype as `x`.

        framework.masked_scatter(framework.zeros([3]), framework.to_tensor([True, False, True]),
                                 framework.to_tensor([5.0, 6.0]))   # [5, 0, 6]
    """
    xp = get_array_module(x._data)
    if mask._data.dtype.kind != "b":
        raise TypeError(f"masked_scatter: mask must be a bool tensor, got {mask.dtype}")
    try:
        where = xp.broadcast_to(mask._data, x._data.shape)
    except ValueError:
        raise ValueError(
            f"masked_scatter: mask {mask.shape} does not broadcast to {x.shape}"
        ) from None
    count = int(where.sum())
    if value._data.size < count:
        raise ValueError(f"masked_scatter: {count} positions but only {value._data.size} values")
    flat = Reshape((value._data.size,)).apply(cast(value, x._data.dtype))
    return Put((where,), False, ASSIGN).apply(x, getitem(flat, builtins.slice(0, count)))


def _leading_block(src: Tensor, shape: tuple[int, ...]) -> Tensor:
    if tuple(src._data.shape) == shape:
        return src
    return getitem(src, tuple(builtins.slice(0, n) for n in shape))


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:  # noqa: A002
    """`input` with `src[i][j]` added at `[index[i][j]][j]` along `dim` (PyTorch's
    scatter_add; `src` may be larger than `index`, its leading block is used). Same dtype
    as `input`; repeated indices all add.

        framework.scatter_add(framework.zeros([1, 3]), 1, framework.to_tensor([[0, 0]]),
                              framework.ones([1, 2]))   # [[2, 0, 0]]
    """
    return scatter_reduce(input, dim, index, src, "sum")


_REDUCE_NAMES = {"sum": "add", "prod": "mul", "mean": "mean", "amin": "amin", "amax": "amax"}


def scatter_reduce(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    dim: int,
    index: Tensor,
    src: Tensor,
    reduce: str,
    *,
    include_self: bool = True,
) -> Tensor:
    """`input` with the values of `src` reduced into it at `index` along `dim`: `reduce` is
    'sum', 'prod', 'mean', 'amin' or 'amax'; `include_self=False` leaves the old values out.
    `index` and `src` have the dims of `input`, `src` at least as large as `index` in each.

        framework.scatter_reduce(framework.ones([1, 2]), 1, framework.to_tensor([[1, 1]]),
                                 framework.to_tensor([[3.0, 4.0]]), "amax")   # [[1, 4]]
    """
    if reduce not in _REDUCE_NAMES:
        raise ValueError(f"scatter_reduce: reduce must be one of {sorted(_REDUCE_NAMES)}")
    idx = _int_index(index, "scatter_reduce")
    ndim = input._data.ndim
    if idx.ndim != ndim or src._data.ndim != ndim:
        raise ValueError(
            f"scatter_reduce: index {index.shape} and src {src.shape} need the {ndim} dims of input"
        )
    if any(s < i for s, i in zip(src._data.shape, idx.shape, strict=True)):
        raise ValueError(f"scatter_reduce: src {src.shape} is smaller than index {index.shape}")
    # put_along_axis's add path wraps an out-of-range index instead of refusing it: check here.
    _in_range(idx, input._data.shape[_axis(int(dim), ndim, "scatter_reduce")], "scatter_reduce")
    src = _leading_block(src, tuple(idx.shape))
    return put_along_axis(
        input, index, src, dim, _REDUCE_NAMES[reduce], include_self=include_self, broadcast=False
    )


def index_sample(x: Tensor, index: Tensor) -> Tensor:
    """`out[i, j] = x[i, index[i, j]]` for `x [N, D]` and int `index [N, K]`: `[N, K]`, the
    dtype of `x`; the gradient scatters back into `x`.

        x = framework.to_tensor([[1, 2], [3, 4]])
        framework.index_sample(x, framework.to_tensor([[1], [0]]))   # [[2], [3]]
    """
    _in_range(
        _int_index(index, "index_sample"), x._data.shape[-1] if x._data.ndim else 0, "index_sample"
    )
    if x._data.ndim != 2 or index._data.ndim != 2 or index._data.shape[0] != x._data.shape[0]:
        raise ValueError(
            f"index_sample: needs x [N, D] and index [N, K], got {x.shape}, {index.shape}"
        )
    return take_along_axis(x, index, 1)


def multiplex(inputs: Sequence[Tensor], index: Tensor, name: str | None = None) -> Tensor:
    """Row `i` of the result is row `i` of `inputs[index[i]]` (`index`: int `[N, 1]`); the
    shape and dtype of each input (they must agree).

        framework.multiplex([framework.zeros([2, 2]), framework.ones([2, 2])],
                            framework.to_tensor([[1], [0]]))   # [[1, 1], [0, 0]]
    """
    stacked = stack(list(inputs), axis=0)
    xp = get_array_module(stacked._data)
    rows = _int_index(index, "multiplex").reshape(-1).astype("int64")
    _in_range(rows, len(inputs), "multiplex")
    n = stacked._data.shape[1]
    if rows.shape[0] != n:
        raise ValueError(f"multiplex: index needs one entry per row ({n}), got {index.shape}")
    return getitem(stacked, (Tensor._wrap(rows), Tensor._wrap(xp.arange(n))))


def reduce_as(x: Tensor, target: Tensor, name: str | None = None) -> Tensor:
    """`x` summed down to the shape of `target` (the reverse of broadcasting to it), dtype of
    `x`; differentiable in `x`.

        framework.reduce_as(framework.ones([2, 3]), framework.ones([3]))   # [2, 2, 2]
    """
    try:
        broadcast_to(Tensor._wrap(target._data), x.shape)
    except ValueError:
        raise ValueError(f"reduce_as: {target.shape} does not broadcast to {x.shape}") from None
    return sum_to(x, tuple(target._data.shape))
