"""Tensors from and to other array objects without a copy where possible: `as_tensor`,
`asarray`, `from_numpy`, `from_dlpack`, `to_dlpack`, and `tolist`.

`to_tensor` always copies; these share the buffer of a NumPy (or CuPy) array whose dtype and
device already fit, as Paddle's do.
"""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


def _parse_place(device: object):
    if device is None:
        return None
    return backend._parse_device(device) if isinstance(device, str) else device


def as_tensor(
    data: object,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A tensor over `data`: an array (or tensor) of the same dtype and device is shared, not
    copied; anything else (lists, other dtypes) is converted.

        a = numpy.zeros(3, "float32")
        t = framework.as_tensor(a)   # t and a share memory
    """
    place = _parse_place(device)
    if isinstance(data, Tensor):
        array = data._data
    elif isinstance(data, np.ndarray) or backend.is_gpu_array(data):
        array = data
    else:
        return Tensor(data, dtype=dtype, place=place, stop_gradient=not requires_grad)
    if dtype is not None and array.dtype != dtypes.convert_dtype(dtype):
        array = array.astype(dtypes.convert_dtype(dtype))
    if place is not None:
        array = backend.to_place(array, place)
    if (
        isinstance(data, Tensor)
        and array is data._data
        and data.stop_gradient == (not requires_grad)
    ):
        return data
    return Tensor._wrap(array, stop_gradient=not requires_grad)


def asarray(
    obj: object,
    *,
    dtype: object = None,
    device: object = None,
    copy: bool | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """The array-API `asarray`: `as_tensor`, or a copy when `copy=True`.

    framework.asarray([1, 2], dtype="float32")  # float32 [1., 2.]
    """
    if copy:
        source = obj._data if isinstance(obj, Tensor) else obj
        return Tensor(
            source.copy() if hasattr(source, "copy") else source,
            dtype=dtype,
            place=_parse_place(device),
            stop_gradient=not requires_grad,
        )
    return as_tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A CPU tensor sharing `ndarray`'s memory: writes through one show in the other.

    framework.from_numpy(numpy.arange(3))  # int64 [0, 1, 2]
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(ndarray).__name__}")
    return Tensor._wrap(ndarray)


def to_dlpack(x: Tensor):
    """A DLPack capsule over `x`'s buffer (no copy), for `torch.from_dlpack` and friends.

    capsule = framework.to_dlpack(framework.ones([2]))
    """
    return x._data.__dlpack__()


def from_dlpack(dlpack: object, *, device: object = None, copy: bool | None = None) -> Tensor:
    """A tensor over the memory of an object that supports DLPack (`__dlpack__`: a torch or
    CuPy tensor, a NumPy array) or over a DLPack capsule. CUDA memory becomes a GPU tensor.

    framework.from_dlpack(numpy.arange(3.0))  # float64 [0., 1., 2.]
    """
    if isinstance(dlpack, Tensor):
        return as_tensor(dlpack, device=device)
    on_gpu = hasattr(dlpack, "__dlpack_device__") and dlpack.__dlpack_device__()[0] == 2
    if type(dlpack).__name__ == "PyCapsule":
        array = _from_capsule(dlpack)
    elif on_gpu:
        array = backend.cupy.from_dlpack(dlpack)
    else:
        array = np.from_dlpack(dlpack)
    if copy:
        array = array.copy()
    tensor = Tensor._wrap(array)
    return as_tensor(tensor, device=device) if device is not None else tensor


class _Capsule:
    """Presents a bare capsule through the `__dlpack__` protocol NumPy and CuPy read."""

    def __init__(self, capsule: object) -> None:
        self.capsule = capsule

    def __dlpack__(self, **kwargs: object) -> object:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


def _from_capsule(capsule: object):
    try:
        return np.from_dlpack(_Capsule(capsule))
    except (BufferError, RuntimeError, TypeError):  # a CUDA capsule: only CuPy can read it
        if backend.cupy is None:
            raise
        return backend.cupy.from_dlpack(capsule)


def tolist(x: Tensor) -> list:
    """`x`'s values as nested Python lists (a scalar for a 0-d tensor).

    framework.tolist(framework.to_tensor([[1, 2]]))  # [[1, 2]]
    """
    return x.tolist()
