"""Repeating data: tile, its Tensor-method alias repeat, and repeat_interleave."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to, sum_to
from framework.ops.manipulation.gather import index_select
from framework.ops.manipulation.shape import Reshape, reshape


class Tile(Function):
    def __init__(self, reps: tuple[int, ...]) -> None:
        self.reps = reps

    def forward(self, x):
        self.input_shape = x.shape
        return get_array_module(x).tile(x, self.reps)

    def backward(self, gy: Tensor) -> Tensor:
        # gy has shape (r0*s0, r1*s1, ...); view it as (r0, s0, r1, s1, ...) and sum the r's.
        shape = (1,) * (len(self.reps) - len(self.input_shape)) + self.input_shape
        reps = (1,) * (len(shape) - len(self.reps)) + self.reps
        split = tuple(n for pair in zip(reps, shape, strict=True) for n in pair)
        kept = tuple(n for s in shape for n in (1, s))
        g = sum_to(Reshape(split).apply(gy), kept)
        return Reshape(self.input_shape).apply(g)


def tile(x: Tensor, repeat_times: Sequence[int] | Tensor, name: str | None = None) -> Tensor:
    """Repeat `x` `repeat_times[i]` times along dim i (missing leading dims count as 1).

    framework.tile(framework.to_tensor([1, 2]), [2, 3]).shape   # [2, 6]
    """
    if isinstance(repeat_times, Tensor):
        reps = tuple(int(r) for r in repeat_times.numpy().reshape(-1))
    else:
        reps = tuple(int(r) for r in repeat_times)
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: repeat_times must not be negative, got {list(reps)}")
    if all(r == 1 for r in reps) and len(reps) <= x._data.ndim:
        return x
    return Tile(reps).apply(x)


def repeat(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    *sizes: int | Sequence[int] | Tensor,
    repeats: int | Sequence[int] | Tensor | None = None,
) -> Tensor:
    """`x.repeat(...)`: Paddle 3.3's alias of `tile`, so it repeats the whole tensor.

    The counts come as separate ints (`x.repeat(2, 3)`), one list, tuple or 1-D tensor
    (`x.repeat([2, 3])`), or `repeats=`. Fewer counts than dims apply to the last dims, so
    `x.repeat(2)` doubles the last dim. For repeating each element, see `repeat_interleave`.

        x = framework.to_tensor([[1, 2], [3, 4]])
        x.repeat(2).shape         # [2, 4]
        x.repeat(2, 3).shape      # [4, 6]
    """
    if repeats is None:
        if not sizes:
            raise TypeError("repeat: pass the number of repeats, e.g. x.repeat(2, 3)")
        repeats = sizes[0] if len(sizes) == 1 else sizes
    elif sizes:
        raise TypeError("repeat: pass the repeats either positionally or as repeats=, not both")
    if isinstance(repeats, int):
        repeats = [repeats]
    return tile(input, repeats)


def repeat_interleave(
    x: Tensor, repeats: int | Tensor, axis: int | None = None, name: str | None = None
) -> Tensor:
    """Repeat each element (or slice along `axis`) `repeats` times in place; `repeats` may be a
    1-D tensor with one count per slice. Without `axis` the input is flattened first.

        framework.repeat_interleave(framework.to_tensor([1, 2]), 2)   # [1, 1, 2, 2]
    """
    if axis is None:
        x = reshape(x, [-1])
        axis = 0
    axis %= max(x._data.ndim, 1)
    if isinstance(repeats, Tensor) and repeats._data.size == 1:
        repeats = int(repeats.item())
    if isinstance(repeats, int):
        shape = x._data.shape
        expanded = shape[: axis + 1] + (repeats,) + shape[axis + 1 :]
        inserted = reshape(x, shape[: axis + 1] + (1,) + shape[axis + 1 :])
        return reshape(
            broadcast_to(inserted, expanded),
            shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1 :],
        )
    xp = get_array_module(x._data)
    counts = repeats._data if isinstance(repeats, Tensor) else xp.asarray(repeats)
    if counts.shape != (x._data.shape[axis],):
        raise ValueError(
            f"repeat_interleave: repeats has shape {list(counts.shape)}, expected "
            f"[{x._data.shape[axis]}] (one count per slice along axis {axis})"
        )
    index = xp.repeat(xp.arange(counts.shape[0]), counts)
    return index_select(x, Tensor._wrap(index), axis)
