"""NumPy-style stacking and splitting: atleast_1d/2d/3d, vstack, hstack, dstack, column_stack,
row_stack, tensor_split, hsplit, vsplit, dsplit.

Compositions of reshape, concat and slicing, so gradients flow through those ops.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.join import concat
from framework.ops.manipulation.shape import Reshape


def _at_least(x: Tensor, ndim: int) -> Tensor:
    shape = tuple(x._data.shape)
    if len(shape) >= ndim:
        return x
    if ndim == 1:
        return Reshape((1,)).apply(x)
    if ndim == 2:
        return Reshape((1,) + shape if shape else (1, 1)).apply(x)
    # NumPy's 3-D rule: [] -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1].
    target = {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]
    return Reshape(target).apply(x)


def _at_least_all(inputs: tuple, ndim: int):
    outs = [_at_least(t if isinstance(t, Tensor) else Tensor(t), ndim) for t in inputs]
    return outs[0] if len(outs) == 1 else outs


def atleast_1d(*inputs, name: str | None = None):
    """Each input with at least 1 dim (a 0-D tensor becomes `[1]`); one input gives a tensor,
    several a list.

        framework.atleast_1d(framework.to_tensor(3.0)).shape   # [1]
    """
    return _at_least_all(inputs, 1)


def atleast_2d(*inputs, name: str | None = None):
    """Each input with at least 2 dims: `[]` -> `[1, 1]`, `[n]` -> `[1, n]`."""
    return _at_least_all(inputs, 2)


def atleast_3d(*inputs, name: str | None = None):
    """Each input with at least 3 dims: `[]` -> `[1, 1, 1]`, `[n]` -> `[1, n, 1]`,
    `[m, n]` -> `[m, n, 1]` (NumPy's rule)."""
    return _at_least_all(inputs, 3)


def vstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """Stack rows: inputs made at least 2-D, joined on dim 0 (`[n]` inputs become rows).

    framework.vstack([framework.ones([3]), framework.zeros([3])]).shape   # [2, 3]
    """
    return concat([_at_least(t, 2) for t in x], axis=0)


row_stack = vstack


def hstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """Stack columns: 1-D inputs are joined end to end, others on dim 1."""
    tensors = [_at_least(t, 1) for t in x]
    return concat(tensors, axis=0 if tensors and tensors[0]._data.ndim == 1 else 1)


def dstack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """Stack along the third dim, after making each input at least 3-D."""
    return concat([_at_least(t, 3) for t in x], axis=2)


def column_stack(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """Join 1-D inputs as columns `[n, 1]`, and 2-D ones as they are, on dim 1."""
    columns = [
        Reshape((t._data.shape[0], 1)).apply(t) if t._data.ndim == 1 else _at_least(t, 2) for t in x
    ]
    return concat(columns, axis=1)


def _split_points(length: int, num_or_indices: int | Sequence[int], op: str) -> list[int]:
    if isinstance(num_or_indices, Tensor):
        num_or_indices = num_or_indices.tolist()
    if isinstance(num_or_indices, int) and not isinstance(num_or_indices, bool):
        n = num_or_indices
        if n < 1:
            raise ValueError(f"{op}: the number of sections must be positive, got {n}")
        # NumPy's array_split: the first `length % n` sections are one longer.
        size, extra = divmod(length, n)
        points, at = [], 0
        for i in range(n - 1):
            at += size + (1 if i < extra else 0)
            points.append(at)
        return points
    if isinstance(num_or_indices, bool) or not isinstance(num_or_indices, Sequence):
        raise TypeError(
            f"{op}: num_or_indices must be an int or a list of ints, got {num_or_indices!r}"
        )
    points = []
    for i in num_or_indices:
        if isinstance(i, Tensor):
            i = i.item()
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"{op}: indices must be ints, got {i!r}")
        # Negative indices count from the end and out-of-range ones clamp, as in slicing.
        points.append(min(max(i + length if i < 0 else i, 0), length))
    return points


def tensor_split(
    x: Tensor, num_or_indices: int | Sequence[int], axis: int = 0, name: str | None = None
) -> list[Tensor]:
    """Split `x` along `axis` into `n` near-equal parts (an int; the first `length % n` are
    one longer) or at the given indices (a list), as NumPy's `array_split`.

        parts = framework.tensor_split(framework.arange(7), 3)   # sizes 3, 2, 2
        parts = framework.tensor_split(framework.arange(7), [2, 5])   # sizes 2, 3, 2
    """
    if isinstance(axis, Tensor):
        axis = int(axis.item())
    ndim = x._data.ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"tensor_split: axis {axis} is out of range for {ndim} dims")
    axis %= ndim
    length = x._data.shape[axis]
    points = _split_points(length, num_or_indices, "tensor_split")
    bounds = [0] + points + [length]
    lead = (slice(None),) * axis
    return [
        getitem(x, lead + (slice(a, max(a, b)),))
        for a, b in zip(bounds[:-1], bounds[1:], strict=True)
    ]


def _split_on(x: Tensor, num_or_indices, axis: int, min_ndim: int, op: str) -> list[Tensor]:
    if x._data.ndim < min_ndim:
        raise ValueError(f"{op}: needs at least {min_ndim} dims, got shape {x.shape}")
    # Paddle splits unevenly like tensor_split here (NumPy would insist the int divides the dim).
    return tensor_split(x, num_or_indices, axis)


def hsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """`tensor_split` along dim 1 (dim 0 for a 1-D `x`).

    [a.shape for a in framework.hsplit(framework.ones([2, 4]), 2)]   # [[2, 2], [2, 2]]
    """
    return _split_on(x, num_or_indices, 0 if x._data.ndim == 1 else 1, 1, "hsplit")


def vsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """`tensor_split` along dim 0 of an at least 2-D `x` (ValueError for fewer dims).

    [a.shape for a in framework.vsplit(framework.ones([4, 2]), [1])]   # [[1, 2], [3, 2]]
    """
    return _split_on(x, num_or_indices, 0, 2, "vsplit")


def dsplit(x: Tensor, num_or_indices: int | Sequence[int], name: str | None = None) -> list:
    """`tensor_split` along dim 2 of an at least 3-D `x` (ValueError for fewer dims).

    [a.shape for a in framework.dsplit(framework.ones([1, 1, 4]), 2)]   # [[1, 1, 2]] * 2
    """
    return _split_on(x, num_or_indices, 2, 3, "dsplit")
