"""How a tensor sits in memory, as Paddle's Tensor reports it: `strides`, `stride()`,
`get_strides()`, `offset`, `is_contiguous()`, `contiguous()`, `data_ptr()`, `device`, and
`copy_(src)`. Strides count elements, the offset bytes from the start of the storage, as
in Paddle; they are those of the NumPy (or CuPy) array behind the tensor, so a transpose,
which is a view here, is not contiguous (Paddle's `t()` copies).
"""

from __future__ import annotations

from framework.core import backend
from framework.core.tensor import Tensor
from framework.ops.manipulation.cast import clone
from framework.ops.manipulation.inplace import bump_version, check_inplace


def _strides(self: Tensor) -> list[int]:
    itemsize = self._data.dtype.itemsize
    return [int(s) // itemsize for s in self._data.strides]


def stride(self: Tensor) -> list[int]:
    """The step in elements between neighbours along each dim.

    framework.ones([2, 3]).stride()   # [3, 1]
    """
    return _strides(self)


def is_contiguous(self: Tensor) -> bool:
    """Whether the elements lie in row-major order with no gaps."""
    return bool(self._data.flags.c_contiguous)


def contiguous(self: Tensor) -> Tensor:
    """`self` when contiguous, else a row-major copy (differentiable, like `clone`)."""
    return self if is_contiguous(self) else clone(self)


def _address(array) -> int:
    if backend.is_gpu_array(array):
        return int(array.data.ptr)
    return int(array.__array_interface__["data"][0])


def data_ptr(self: Tensor) -> int:
    """The address of the first element."""
    return _address(self._data)


def _offset(self: Tensor) -> int:
    root = self._data
    while getattr(root, "base", None) is not None and hasattr(root.base, "dtype"):
        root = root.base
    return _address(self._data) - _address(root)


def _device(self: Tensor) -> str:
    place = backend.place_of(self._data)
    return "cpu" if isinstance(place, backend.CPUPlace) else f"gpu:{place.device_id}"


def copy_(self: Tensor, src: Tensor, blocking: bool = True) -> Tensor:
    """Give `self` the shape and values of `src` (a copy, on `self`'s device) and return it;
    the dtypes must match, as in Paddle. `blocking` is accepted for Paddle's signature: the
    copy is always finished on return.

        x = framework.zeros([2]); x.copy_(framework.to_tensor([[1.0, 2.0]]))   # [[1., 2.]]
    """
    check_inplace(self, "copy_")
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_: src must be a Tensor, got {type(src).__name__}")
    if src._data.dtype != self._data.dtype:
        raise RuntimeError(
            f"(PreconditionNotMet) Tensor {self.name or ''} has different data type with Tensor "
            f"{src.name or ''}, Tensor Copy cannot be performed! ({self._data.dtype.name} and "
            f"{src._data.dtype.name})"
        )
    place = backend.place_of(self._data)
    bump_version(self)
    self._data = backend.to_place(src._data, place).copy()
    self._node = None
    self._out_index = 0
    return self


TENSOR_METHODS = {
    "contiguous": contiguous,
    "copy_": copy_,
    "data_ptr": data_ptr,
    "device": property(_device),
    "get_strides": stride,
    "is_contiguous": is_contiguous,
    "offset": property(_offset),
    "stride": stride,
    "strides": property(_strides),
}
