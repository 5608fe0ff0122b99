"""Reading values at integer indices: gather, gather_nd, index_select, take_along_axis.

Backward scatters the gradient into zeros and adds up repeated indices (`ScatterInto`).
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.broadcast import broadcast_to
from framework.ops.manipulation.indexing import GetItem, ScatterInto, along_axis_key


class Take(Function):
    def __init__(self, index, axis: int) -> None:
        self.index = index
        self.axis = axis

    def forward(self, x):
        self.input_shape = x.shape
        return get_array_module(x).take(x, self.index, axis=self.axis)

    def backward(self, gy: Tensor) -> Tensor:
        key = (slice(None),) * self.axis + (self.index,)
        return ScatterInto(self.input_shape, key, self.index.size > 1).apply(gy)


def _indices(index: Tensor | object, xp):
    array = index._data if isinstance(index, Tensor) else xp.asarray(index)
    if array.dtype.kind not in "iu":
        raise TypeError(f"indices must be an integer tensor, got {array.dtype}")
    return array


def _take(x: Tensor, index: Tensor, axis: int, op: str) -> Tensor:
    xp = get_array_module(x._data)
    ndim = x._data.ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"{op}: axis {axis} is out of range for a tensor of shape {x.shape}")
    axis %= ndim
    idx = _indices(index, xp)
    size = x._data.shape[axis]
    if idx.size and (int(idx.max()) >= size or int(idx.min()) < -size):
        raise IndexError(
            f"{op}: index out of range: axis {axis} of a tensor of shape {x.shape} has size "
            f"{size}, got indices in [{int(idx.min())}, {int(idx.max())}]"
        )
    return Take(idx, axis).apply(x)


def gather(
    x: Tensor, index: Tensor, axis: int | Tensor | None = None, name: str | None = None
) -> Tensor:
    """The slices of `x` at the 1-D (or 0-D) `index` along `axis` (default 0).

    x = framework.to_tensor([[1, 2], [3, 4], [5, 6]])
    framework.gather(x, framework.to_tensor([2, 0]))   # [[5, 6], [1, 2]]
    """
    axis = 0 if axis is None else int(axis.item() if isinstance(axis, Tensor) else axis)
    return _take(x, index, axis, "gather")


def index_select(x: Tensor, index: Tensor, axis: int = 0, name: str | None = None) -> Tensor:
    """The slices of `x` at the 1-D `index` along `axis`."""
    return _take(x, index, int(axis), "index_select")


def gather_nd(x: Tensor, index: Tensor, name: str | None = None) -> Tensor:
    """Gather by coordinate tuples: `index` has shape `[..., k]`; the result has shape
    `index.shape[:-1] + x.shape[k:]`.

        x = framework.to_tensor([[1, 2], [3, 4]])
        framework.gather_nd(x, framework.to_tensor([[1, 0], [0, 1]]))   # [3, 2]
    """
    xp = get_array_module(x._data)
    idx = _indices(index, xp)
    k = idx.shape[-1]
    if k > x._data.ndim:
        raise ValueError(f"gather_nd: index addresses {k} dims but the input has shape {x.shape}")
    key = tuple(idx[..., i] for i in range(k))
    return GetItem(key, True).apply(x)


def take_along_axis(arr: Tensor, indices: Tensor, axis: int, broadcast: bool = True) -> Tensor:
    """Pick values along `axis` at `indices` (same number of dims as `arr`), as NumPy's
    `take_along_axis`; with `broadcast`, `indices` is broadcast to `arr` outside `axis`.

        x = framework.to_tensor([[10., 30., 20.], [60., 40., 50.]])
        idx = framework.argsort(x, axis=1)
        framework.take_along_axis(x, idx, axis=1)   # each row sorted
    """
    xp = get_array_module(arr._data)
    idx = _indices(indices, xp)
    ndim = arr._data.ndim
    if idx.ndim != ndim:
        raise ValueError(
            "take_along_axis: `indices` and `arr` must have the same number of dims, got "
            f"{list(idx.shape)} and {arr.shape}"
        )
    axis %= ndim
    if broadcast:
        shape = [
            max(a, i) if a and i else 0 for a, i in zip(arr._data.shape, idx.shape, strict=True)
        ]
        shape[axis] = idx.shape[axis]
        idx = xp.broadcast_to(idx, shape)
        shape[axis] = arr._data.shape[axis]
        if tuple(shape) != arr._data.shape:
            arr = broadcast_to(arr, shape)
    return GetItem(along_axis_key(xp, idx, axis), True).apply(arr)
