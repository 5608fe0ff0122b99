"""as_strided: a strided window onto a tensor's (contiguous, row-major) elements."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.slicing import take


def as_strided(
    x: Tensor,
    shape: Sequence[int],
    stride: Sequence[int],
    offset: int = 0,
    name: str | None = None,
) -> Tensor:
    """The tensor of `shape` whose element `[i0, i1, ...]` is element
    `offset + i0 * stride[0] + i1 * stride[1] + ...` of `x` flattened (strides count
    elements, as in Paddle and PyTorch). A copy, not a view: writes to it do not reach `x`.
    Differentiable (overlapping windows add their gradients).

        x = framework.arange(6.0)
        framework.as_strided(x, [2, 3], [1, 1])   # [[0., 1., 2.], [1., 2., 3.]]
    """
    shape, stride = [int(s) for s in shape], [int(s) for s in stride]
    if len(shape) != len(stride):
        raise ValueError(f"as_strided: shape {shape} and stride {stride} differ in length")
    if any(s < 0 for s in shape + stride) or offset < 0:
        raise ValueError("as_strided: shape, stride and offset must be non-negative")
    xp = get_array_module(x._data)
    index = xp.full(shape, int(offset), dtype="int64")
    for axis, (size, step) in enumerate(zip(shape, stride, strict=True)):
        along = xp.arange(size, dtype="int64") * step
        index = index + along.reshape([size if a == axis else 1 for a in range(len(shape))])
    if index.size and int(index.max()) >= x._data.size:
        raise ValueError(
            f"as_strided: the window reaches element {int(index.max())} but x has "
            f"{x._data.size} elements"
        )
    return take(x, Tensor._wrap(index))
