"""Slices, windows and reorderings with Paddle's names: slice, strided_slice, crop, narrow,
take, unfold, rot90, unflatten, ravel, view, view_as, permute, swapaxes/swapdims, msort.

Compositions of `getitem`, reshape, flip and transpose (the reinterpreting `view(dtype)`
aside), so gradients flow through those ops.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.flip import flip
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.shape import Reshape, _reshape_target
from framework.ops.manipulation.transpose import moveaxis, transpose


def _ints(values, op: str) -> list[int]:
    if isinstance(values, Tensor):
        return [int(v) for v in values.tolist()]
    return [int(v.item()) if isinstance(v, Tensor) else int(v) for v in values]


def _axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor with {ndim} dims")
    return axis % ndim


def _sliced(x: Tensor, axes, starts, ends, strides, op: str) -> Tensor:
    axes, starts, ends = _ints(axes, op), _ints(starts, op), _ints(ends, op)
    strides = [1] * len(axes) if strides is None else _ints(strides, op)
    if not len(axes) == len(starts) == len(ends) == len(strides):
        raise ValueError(f"{op}: axes, starts, ends (and strides) must have one length")
    key = [builtins.slice(None)] * x._data.ndim
    for axis, start, end, step in zip(axes, starts, ends, strides, strict=True):
        if step == 0:
            raise ValueError(f"{op}: strides must not be 0")
        key[_axis(axis, x._data.ndim, op)] = builtins.slice(start, end, step)
    return getitem(x, tuple(key))


def slice(  # noqa: A001 - Paddle's name
    input: Tensor,  # noqa: A002
    axes: Sequence[int],
    starts: Sequence[int] | Tensor,
    ends: Sequence[int] | Tensor,
) -> Tensor:
    """`input[starts[i]:ends[i]]` along each of `axes` (negative values count from the end;
    out-of-range ends are clamped).

        framework.slice(framework.ones([4, 5]), axes=[0, 1], starts=[1, 0], ends=[3, -1]).shape
        # [2, 4]
    """
    return _sliced(input, axes, starts, ends, None, "slice")


def strided_slice(
    x: Tensor,
    axes: Sequence[int],
    starts: Sequence[int] | Tensor,
    ends: Sequence[int] | Tensor,
    strides: Sequence[int] | Tensor,
    name: str | None = None,
) -> Tensor:
    """`x[starts[i]:ends[i]:strides[i]]` along each of `axes` (negative strides walk back;
    a stride of 0 is a ValueError). Same dtype as `x`.

        framework.strided_slice(framework.ones([3, 4]), [1], [3], [0], [-1]).shape   # [3, 3]
    """
    return _sliced(x, axes, starts, ends, strides, "strided_slice")


def crop(
    x: Tensor,
    shape: Sequence[int] | None = None,
    offsets: Sequence[int] | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The block of `x` of `shape` (-1: to the end of that dim) starting at `offsets`
    (default zeros); a block leaving `x` is a ValueError.

        framework.crop(framework.ones([4, 5]), shape=[2, -1], offsets=[1, 2]).shape   # [2, 3]
    """
    ndim = x._data.ndim
    shape = list(x._data.shape) if shape is None else _ints(shape, "crop")
    offsets = [0] * ndim if offsets is None else _ints(offsets, "crop")
    if len(shape) != ndim or len(offsets) != ndim:
        raise ValueError(f"crop: shape and offsets need {ndim} entries for {x.shape}")
    key = []
    for n, size, offset in zip(x._data.shape, shape, offsets, strict=True):
        end = n if size == -1 else offset + size
        if offset < 0 or end > n:
            raise ValueError(f"crop: the block {shape} at {offsets} leaves {x.shape}")
        key.append(builtins.slice(offset, end))
    return getitem(x, tuple(key))


def narrow(input: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor:  # noqa: A002
    """`length` entries of `input` along `dim` from `start` (negative counts from the end).

    framework.narrow(framework.ones([4, 5]), 1, -2, 2).shape   # [4, 2]
    """
    dim = _axis(int(dim), input._data.ndim, "narrow")
    n = input._data.shape[dim]
    start = int(start.item()) if isinstance(start, Tensor) else int(start)
    start = start + n if start < 0 else start
    if not 0 <= start <= n or length < 0 or start + length > n:
        raise ValueError(f"narrow: [{start}, {start + length}) is outside dim {dim} of size {n}")
    key = (builtins.slice(None),) * dim + (builtins.slice(start, start + length),)
    return getitem(input, key)


def take(x: Tensor, index: Tensor, mode: str = "raise", name: str | None = None) -> Tensor:
    """Elements of the flattened `x` at `index` (any shape; the result has its shape).
    `mode`: 'raise' (indices in [-n, n), negative from the end), 'wrap' (modulo n) or 'clip'
    (to [0, n - 1]).

        framework.take(framework.arange(6.0).reshape([2, 3]), framework.to_tensor([[0, 5]]))
        # [[0., 5.]]
    """
    if index._data.dtype.kind not in "iu":
        raise TypeError(f"take: index must be an integer tensor, got {index.dtype}")
    xp = get_array_module(x._data)
    n = x._data.size
    if n == 0 and index._data.size:
        raise IndexError("take: cannot take from an empty tensor")
    idx = index._data.astype("int64")
    if mode == "raise":
        if idx.size and (int(idx.max()) >= n or int(idx.min()) < -n):
            raise IndexError(f"take: an index is out of range for {n} elements")
        idx = xp.where(idx < 0, idx + n, idx)
    elif mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = xp.clip(idx, 0, n - 1)
    else:
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    flat = Reshape((n,)).apply(x)
    return getitem(flat, Tensor._wrap(idx))


def unfold(x: Tensor, axis: int, size: int, step: int, name: str | None = None) -> Tensor:
    """Sliding windows of `size` every `step` along `axis`: that dim becomes the window count
    and a new last dim of `size` holds each window.

        framework.arange(5.0).unfold(0, 2, 2)   # [[0, 1], [2, 3]]
    """
    ndim = x._data.ndim
    axis = _axis(int(axis), max(ndim, 1), "unfold")
    length = x._data.shape[axis] if ndim else 1
    if size < 0 or size > length or step <= 0:
        raise ValueError(f"unfold: size {size} / step {step} do not fit dim of size {length}")
    if ndim == 0:
        # Paddle treats a 0-D tensor as one window of one element, shape [1].
        return Reshape((1,)).apply(x)
    xp = get_array_module(x._data)
    count = (length - size) // step + 1
    windows = xp.arange(count)[:, None] * step + xp.arange(size)[None, :]
    key = (builtins.slice(None),) * axis + (Tensor._wrap(windows),)
    return moveaxis(getitem(x, key), axis + 1, -1)


def rot90(x: Tensor, k: int = 1, axes: Sequence[int] = (0, 1), name: str | None = None) -> Tensor:
    """`x` rotated by 90 degrees `k` times in the plane of `axes`, from the first axis towards
    the second (NumPy's rot90).

        framework.rot90(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]))   # [[2, 4], [1, 3]]
    """
    ndim = x._data.ndim
    if len(axes) != 2 or ndim < 2:
        raise ValueError(f"rot90: needs two axes of an at least 2-D tensor, got {axes}, {x.shape}")
    a, b = _axis(int(axes[0]), ndim, "rot90"), _axis(int(axes[1]), ndim, "rot90")
    if a == b:
        raise ValueError(f"rot90: the axes must differ, got {axes}")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return flip(x, [a, b])
    perm = list(range(ndim))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 1:
        return transpose(flip(x, [b]), perm)
    return flip(transpose(x, perm), [b])


def unflatten(x: Tensor, axis: int, shape: Sequence[int], name: str | None = None) -> Tensor:
    """Dim `axis` of `x` split into `shape` (one entry may be -1).

    framework.unflatten(framework.ones([2, 6]), 1, [2, -1]).shape   # [2, 2, 3]
    """
    ndim = x._data.ndim
    axis = _axis(int(axis), ndim, "unflatten")
    sizes = _ints(shape, "unflatten")
    inner = Tensor._wrap(get_array_module(x._data).empty((x._data.shape[axis],), dtype="int8"))
    sizes = list(_reshape_target(inner, sizes))
    full = list(x._data.shape[:axis]) + sizes + list(x._data.shape[axis + 1 :])
    return Reshape(tuple(full)).apply(x)


def ravel(input: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """`input` flattened to 1-D `[numel]` (a 0-D input gives `[1]`), same dtype.

    framework.ravel(framework.ones([2, 3])).shape   # [6]
    """
    return Reshape((input._data.size,)).apply(input)


def view(x: Tensor, shape_or_dtype, name: str | None = None) -> Tensor:
    """`x` reshaped (a shape, with -1 and 0 as in `reshape`), or its bytes reinterpreted as
    another dtype (the last dim scales by the size ratio; not differentiable).

        framework.view(framework.ones([2, 3]), [3, 2]).shape   # [3, 2]
    """
    if isinstance(shape_or_dtype, list | tuple | Tensor):
        return Reshape(_reshape_target(x, shape_or_dtype)).apply(x)
    dtype = dtypes.convert_dtype(shape_or_dtype)
    try:
        return Tensor._wrap(x._data.view(dtype))
    except ValueError as error:
        raise ValueError(f"view: cannot view {x.dtype} {x.shape} as {dtype}: {error}") from None


def view_as(x: Tensor, other: Tensor, name: str | None = None) -> Tensor:
    """`x` reshaped to the shape of `other` (same number of elements, else ValueError).

    framework.view_as(framework.ones([2, 3]), framework.ones([3, 2])).shape   # [3, 2]
    """
    if x._data.size != other._data.size:
        raise ValueError(f"view_as: {x.shape} and {other.shape} differ in size")
    return Reshape(tuple(other._data.shape)).apply(x)


def permute(input: Tensor, *dims) -> Tensor:  # noqa: A002 - Paddle's argument name
    """`transpose` under PyTorch's name: `permute(x, [1, 0])` or `x.permute(1, 0)`.

    framework.permute(framework.ones([2, 3, 4]), [2, 0, 1]).shape   # [4, 2, 3]
    """
    perm = dims[0] if len(dims) == 1 and isinstance(dims[0], list | tuple) else dims
    return transpose(input, list(perm))


def swapaxes(x: Tensor, *axes, name: str | None = None) -> Tensor:
    """`x` with two dims exchanged, PyTorch's way `swapaxes(x, 0, 2)`, or with a full
    permutation `swapaxes(x, [2, 1, 0])` as Paddle's own `swapaxes` (an alias of `transpose`)
    also takes. Same dtype; negative axes count from the end.

        framework.swapaxes(framework.ones([2, 3, 4]), 0, 2).shape   # [4, 3, 2]
    """
    if len(axes) == 1 and isinstance(axes[0], list | tuple | Tensor):
        return transpose(x, _ints(axes[0], "swapaxes"))
    if len(axes) != 2:
        raise TypeError(f"swapaxes: takes two axes or one permutation, got {axes!r}")
    ndim = x._data.ndim
    a, b = (_axis(int(axis), ndim, "swapaxes") for axis in axes)
    perm = list(range(ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


swapdims = swapaxes


def msort(input: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """`input` sorted along dim 0, ascending (same shape and dtype).

    framework.msort(framework.to_tensor([[3, 1], [1, 2]]))   # [[1, 1], [3, 2]]
    """
    from framework.ops.search.sort import sort  # search imports manipulation: import late

    return sort(input, axis=0)
