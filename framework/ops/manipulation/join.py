"""Joining and splitting along an axis: concat, stack, split, chunk, unbind, unstack.

Each pair is its own adjoint: concat's backward splits the gradient, split's concatenates it,
stack's unstacks it and unstack's stacks it.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class Concat(Function):
    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, *xs):
        self.sizes = tuple(x.shape[self.axis] for x in xs)
        return get_array_module(xs[0]).concatenate(xs, axis=self.axis)

    def backward(self, gy: Tensor):
        grads = Split(self.axis, self.sizes).apply(gy)
        return tuple(
            g if need else None for g, need in zip(grads, self.needs_input_grad, strict=True)
        )


class Split(Function):
    def __init__(self, axis: int, sizes: tuple[int, ...]) -> None:
        self.axis = axis
        self.sizes = sizes

    def forward(self, x):
        xp = get_array_module(x)
        bounds = []
        total = 0
        for size in self.sizes[:-1]:
            total += size
            bounds.append(total)
        return tuple(xp.split(x, bounds, axis=self.axis))

    def backward(self, *gys: Tensor) -> Tensor:
        return Concat(self.axis).apply(*gys)


class Stack(Function):
    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, *xs):
        return get_array_module(xs[0]).stack(xs, axis=self.axis)

    def backward(self, gy: Tensor):
        grads = Unstack(self.axis).apply(gy)
        return tuple(
            g if need else None for g, need in zip(grads, self.needs_input_grad, strict=True)
        )


class Unstack(Function):
    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, x):
        lead = (slice(None),) * self.axis
        return tuple(x[lead + (i,)] for i in range(x.shape[self.axis]))

    def backward(self, *gys: Tensor) -> Tensor:
        return Stack(self.axis).apply(*gys)


def _axis_value(axis: int | Tensor) -> int:
    return int(axis.item()) if isinstance(axis, Tensor) else int(axis)


def _check_axis(axis: int, ndim: int, op: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for tensors with {ndim} dims")
    return axis % ndim


def tensor_list(x: Sequence[Tensor], op: str, argument: str) -> list[Tensor]:
    """`x` as a list of tensors. A single Tensor is refused, as Paddle refuses it, rather than
    iterated along its first dim: `t.concat()` (the method form) would otherwise silently
    flatten `t`."""
    if isinstance(x, Tensor):
        raise ValueError(
            f"{op}(): argument '{argument}' (position 0) must be list of Tensors, but got Tensor"
        )
    return list(x)


def concat(x: Sequence[Tensor], axis: int | Tensor = 0, name: str | None = None) -> Tensor:
    """Join tensors of the same dtype along an existing `axis`; other dims must match.

    framework.concat([framework.ones([2, 3]), framework.zeros([1, 3])]).shape   # [3, 3]
    """
    tensors = tensor_list(x, "concat", "x")
    if not tensors:
        raise ValueError("concat: needs at least one tensor")
    first = tensors[0]
    axis = _check_axis(_axis_value(axis), first._data.ndim, "concat")
    if len(tensors) == 1:
        return first
    dtype = first._data.dtype
    for other in tensors:
        if other._data.dtype != dtype:
            raise TypeError(
                f"concat: all tensors must have the same dtype, got {first.dtype} and {other.dtype}"
            )
    try:
        return Concat(axis).apply(*tensors)
    except ValueError:
        for other in tensors[1:]:
            a, b = first._data.shape, other._data.shape
            if len(a) != len(b) or a[:axis] != b[:axis] or a[axis + 1 :] != b[axis + 1 :]:
                raise ValueError(
                    f"concat: shapes {list(a)} and {list(b)} differ outside axis {axis}"
                ) from None
        raise


def stack(x: Sequence[Tensor], axis: int = 0, name: str | None = None) -> Tensor:
    """Join same-shaped tensors along a new `axis`.

    framework.stack([framework.ones([2, 3])] * 4, axis=1).shape   # [2, 4, 3]
    """
    tensors = tensor_list(x, "stack", "x")
    if not tensors:
        raise ValueError("stack: needs at least one tensor")
    first = tensors[0]
    for other in tensors[1:]:
        if other._data.shape != first._data.shape:
            raise ValueError(f"stack: shapes differ: {first.shape} and {other.shape}")
        if other._data.dtype != first._data.dtype:
            raise TypeError(f"stack: dtypes differ: {first.dtype} and {other.dtype}")
    axis = _check_axis(int(axis), first._data.ndim + 1, "stack")
    return Stack(axis).apply(*tensors)


def _section_sizes(length: int, num_or_sections: int | Sequence[int], axis: int) -> tuple:
    if isinstance(num_or_sections, int | Tensor) and not (
        isinstance(num_or_sections, Tensor) and num_or_sections._data.ndim > 0
    ):
        num = int(num_or_sections)
        if num <= 0 or length % num:
            raise ValueError(
                f"split: the size {length} of axis {axis} is not evenly divisible into {num} parts"
            )
        return (length // num,) * num
    sizes = [int(s) for s in num_or_sections]
    if sizes.count(-1) > 1:
        raise ValueError(f"split: sections {sizes} may contain only one -1")
    known = sum(s for s in sizes if s != -1)
    if -1 in sizes:
        if known > length:
            raise ValueError(f"split: sections {sizes} exceed the size {length} of axis {axis}")
        sizes[sizes.index(-1)] = length - known
    elif known != length:
        raise ValueError(
            f"split: sections {sizes} sum to {known}, but axis {axis} has size {length}"
        )
    return tuple(sizes)


def split(
    x: Tensor,
    num_or_sections: int | Sequence[int],
    axis: int | Tensor = 0,
    name: str | None = None,
) -> list[Tensor]:
    """Split `x` along `axis` into `num_or_sections` equal parts, or parts of the listed sizes
    (one of which may be -1, inferred).

        a, b, c = framework.split(framework.ones([7, 2]), [2, -1, 3])   # sizes 2, 2, 3
    """
    axis = _check_axis(_axis_value(axis), x._data.ndim, "split")
    sizes = _section_sizes(x._data.shape[axis], num_or_sections, axis)
    return list(Split(axis, sizes).apply(x))


def split_with_sizes(x: Tensor, split_sizes: Sequence[int], dim: int = 0) -> list[Tensor]:
    """Split `x` along `dim` into parts of exactly `split_sizes` (they must add up to the size
    of `dim`; no -1), as `paddle.Tensor.split_with_sizes`.

        a, b = framework.ones([5, 2]).split_with_sizes([2, 3])   # shapes [2, 2] and [3, 2]
    """
    sizes = [int(s) for s in split_sizes]
    axis = _check_axis(_axis_value(dim), x._data.ndim, "split_with_sizes")
    # Paddle's messages, so that code matching on them carries over.
    if any(s < 0 for s in sizes):
        raise ValueError("split_with_sizes expects split_sizes have only non-negative entries")
    if sum(sizes) != x._data.shape[axis]:
        raise ValueError(
            f"Split sizes add up to {sum(sizes)} but got the tensor's size of {x._data.shape[axis]}"
        )
    return list(Split(axis, sizes).apply(x))


def chunk(x: Tensor, chunks: int, axis: int | Tensor = 0, name: str | None = None) -> list[Tensor]:
    """Split `x` into `chunks` equal parts along `axis` (the size must divide evenly)."""
    return split(x, int(chunks), axis)


def unbind(input: Tensor, axis: int = 0) -> list[Tensor]:  # noqa: A002 - Paddle's argument name
    """The slices of `input` along `axis`, each without that dim.

    rows = framework.unbind(framework.ones([3, 4]))   # three tensors of shape [4]
    """
    axis = _check_axis(int(axis), input._data.ndim, "unbind")
    if input._data.shape[axis] == 0:
        return []
    return list(Unstack(axis).apply(input))


def unstack(x: Tensor, axis: int = 0, num: int | None = None) -> list[Tensor]:
    """Paddle's `unstack`: the same as `unbind`."""
    return unbind(x, axis)
