"""max, min, amax, amin over axes, and argmax, argmin.

Where several elements tie for the extremum, the gradient is split evenly among them: this is
what Paddle 3 does for both `max` and `amax` (and `min`/`amin`), and what PyTorch's `amax`
does. (PyTorch's `max(dim)` instead sends it all to one index.)
"""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.recording import record_op
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import reject_complex
from framework.ops.reduction.axes import normalize_axes
from framework.ops.reduction.sum import ExpandReduced


class _Extremum(Function):
    real_only = True
    take_max = True

    def __init__(self, axes: tuple[int, ...], keepdim: bool) -> None:
        self.axes = axes
        self.keepdim = keepdim

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        if x.size == 0 and self.axes and any(x.shape[a] == 0 for a in self.axes):
            raise ValueError(
                f"{'max' if self.take_max else 'min'}: cannot reduce over an empty axis "
                f"(input shape {list(x.shape)}, axes {list(self.axes)})"
            )
        if self.take_max:
            return x.max(axis=self.axes, keepdims=self.keepdim)
        return x.min(axis=self.axes, keepdims=self.keepdim)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        xp = get_array_module(x._data)
        shape = tuple(1 if i in self.axes else n for i, n in enumerate(x._data.shape))
        ties = x._data == y._data.reshape(shape)
        share = ties.astype(x._data.dtype)
        share /= ties.sum(axis=self.axes, keepdims=True, dtype=xp.int64).astype(share.dtype)
        spread = ExpandReduced(x._data.shape, self.axes, self.keepdim)
        return spread.apply(gy) * Tensor._wrap(share)


class Max(_Extremum):
    take_max = True


class Min(_Extremum):
    take_max = False


def max(  # noqa: A001 - Paddle's name
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Largest element over `axis` (int, list/tuple, or None for all).

    The gradient is shared evenly among tied maxima (Paddle 3's rule for max and amax).

        framework.max(framework.to_tensor([[1.0, 5.0], [4.0, 2.0]]), axis=0)  # [4., 5.]
    """
    return Max(normalize_axes(axis, x._data.ndim), bool(keepdim)).apply(x)


def min(  # noqa: A001 - Paddle's name
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Smallest element over `axis`; the gradient is shared evenly among tied minima."""
    return Min(normalize_axes(axis, x._data.ndim), bool(keepdim)).apply(x)


def amax(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Largest element over `axis`, the gradient split evenly among ties (same as `max`)."""
    return max(x, axis, keepdim)


def amin(
    x: Tensor,
    axis: int | list[int] | tuple[int, ...] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """Smallest element over `axis`, the gradient split evenly among ties (same as `min`)."""
    return min(x, axis, keepdim)


def _arg_extremum(x: Tensor, axis: int | None, keepdim: bool, dtype: object, take_max: bool):
    reject_complex(x, "argmax" if take_max else "argmin")
    data = x._data
    xp = get_array_module(data)
    find = xp.argmax if take_max else xp.argmin
    if data.size == 0:
        raise ValueError(f"arg{'max' if take_max else 'min'} of an empty tensor")
    if axis is None:
        index = find(data.reshape(-1))
        if keepdim:
            index = index.reshape((1,) * data.ndim)
    else:
        (axis,) = normalize_axes(int(axis), data.ndim) or (None,)
        index = find(data, axis=axis, keepdims=bool(keepdim))
    index = xp.asarray(index, dtype=dtypes.convert_dtype(dtype))
    attrs = {"axis": axis, "keepdim": bool(keepdim), "dtype": index.dtype.name}
    record_op("argmax" if take_max else "argmin", [data], attrs, index)
    return Tensor._wrap(index)


def argmax(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: object = "int64",
    name: str | None = None,
) -> Tensor:
    """Index of the largest element along `axis` (over the flattened tensor when None).
    The first one wins a tie. Has no gradient.

        framework.argmax(framework.to_tensor([[1, 3], [4, 2]]), axis=1)  # [1, 0]
    """
    return _arg_extremum(x, axis, keepdim, dtype, take_max=True)


def argmin(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    dtype: object = "int64",
    name: str | None = None,
) -> Tensor:
    """Index of the smallest element along `axis` (flattened when None); no gradient."""
    return _arg_extremum(x, axis, keepdim, dtype, take_max=False)
