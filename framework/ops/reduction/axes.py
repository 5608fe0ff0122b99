"""Reading Paddle's `axis` argument: an int, a list or tuple of ints, a Tensor, or None."""

from __future__ import annotations

from framework.core.tensor import Tensor


def normalize_axes(axis: object, ndim: int) -> tuple[int, ...]:
    """Sorted, non-negative, unique axes; None or an empty list means every axis.

    A 0-D tensor accepts axis 0 and -1 (and reduces nothing), as Paddle allows.
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, Tensor):
        axis = axis.tolist()
    if isinstance(axis, int) or hasattr(axis, "__index__"):
        axes = [int(axis)]
    else:
        axes = [int(a) for a in axis]
        if not axes:
            return tuple(range(ndim))
    bound = max(ndim, 1)
    result = set()
    for a in axes:
        if not -bound <= a < bound:
            raise ValueError(
                f"axis {a} is out of range for a tensor with {ndim} dims "
                f"(expected -{bound} <= axis < {bound})"
            )
        result.add(a % bound)
    if ndim == 0:
        return ()
    return tuple(sorted(result))


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdim: bool) -> tuple:
    """The output shape of reducing `shape` over `axes`."""
    if keepdim:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    """How many elements each output element reduces over."""
    n = 1
    for a in axes:
        n *= shape[a]
    return n
