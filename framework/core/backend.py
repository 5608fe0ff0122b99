"""Array backends and devices: NumPy on CPU, CuPy on GPU.

This is the only module in the framework that imports cupy. Everything else asks for the array
module of an array (`get_array_module`) or of the current device (`current_xp`).
"""

from __future__ import annotations

import numpy as np

try:  # CuPy imports without a GPU; whether a GPU is usable is asked separately.
    import cupy  # noqa: I001
except ImportError:  # pragma: no cover - depends on the install
    cupy = None


class Place:
    """Where a tensor lives. Mirrors `paddle.CPUPlace` / `paddle.CUDAPlace`."""

    __slots__ = ()

    def is_cpu_place(self) -> bool:
        return isinstance(self, CPUPlace)

    def is_gpu_place(self) -> bool:
        return isinstance(self, CUDAPlace)


class CPUPlace(Place):
    __slots__ = ()

    def __repr__(self) -> str:
        return "Place(cpu)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CPUPlace)

    def __hash__(self) -> int:
        return hash("cpu")


class CUDAPlace(Place):
    __slots__ = ("device_id",)

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = int(device_id)

    def get_device_id(self) -> int:
        return self.device_id

    def __repr__(self) -> str:
        return f"Place(gpu:{self.device_id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CUDAPlace) and other.device_id == self.device_id

    def __hash__(self) -> int:
        return hash(("gpu", self.device_id))


class CUDAPinnedPlace(CPUPlace):
    """Page-locked host memory, for fast copies to a GPU. Host memory is CPU memory, so a
    tensor placed here is a CPU tensor; as in Paddle, it needs a CUDA build (a GPU here)."""

    __slots__ = ()

    def __init__(self) -> None:
        if not is_compiled_with_cuda():
            raise RuntimeError(
                "Cannot use CUDAPinnedPlace in CPU only version: it needs CuPy and a CUDA GPU"
            )

    def __repr__(self) -> str:
        return "Place(gpu_pinned)"


class XPUPinnedPlace(CPUPlace):
    """Paddle's pinned memory for Kunlun XPUs, which this framework does not drive: raises."""

    __slots__ = ()

    def __init__(self) -> None:
        raise RuntimeError("Cannot use XPUPinnedPlace: this framework has no XPU support")


_CPU = CPUPlace()
_current_place: Place = _CPU


def is_compiled_with_cuda() -> bool:
    """True when CuPy is installed and at least one CUDA device is usable."""
    if cupy is None:
        return False
    try:
        return bool(cupy.cuda.is_available())
    except Exception:  # a broken driver is the same as no GPU to the user
        return False


def device_count() -> int:
    return cupy.cuda.runtime.getDeviceCount() if is_compiled_with_cuda() else 0


def _parse_device(device: str | Place) -> Place:
    if isinstance(device, Place):
        return device
    text = str(device).strip().lower()
    if text == "cpu":
        return _CPU
    if text in ("gpu", "cuda"):
        index = 0
    elif text.startswith(("gpu:", "cuda:")):
        try:
            index = int(text.split(":", 1)[1])
        except ValueError:
            raise ValueError(f"bad device {device!r}: expected 'cpu', 'gpu' or 'gpu:N'") from None
    else:
        raise ValueError(f"bad device {device!r}: expected 'cpu', 'gpu' or 'gpu:N'")
    if not is_compiled_with_cuda():
        reason = "CuPy is not installed" if cupy is None else "no CUDA device is usable"
        raise RuntimeError(
            f"device {device!r} was requested but {reason}. "
            "Install the 'gpu' extra on a machine with an NVIDIA GPU, or use set_device('cpu')."
        )
    if index >= device_count():
        raise RuntimeError(
            f"device {device!r} was requested but only {device_count()} GPU(s) exist"
        )
    return CUDAPlace(index)


def set_device(device: str | Place) -> Place:
    """Select the device new tensors are created on: 'cpu', 'gpu' or 'gpu:N'."""
    global _current_place
    _current_place = _parse_device(device)
    if isinstance(_current_place, CUDAPlace):
        cupy.cuda.Device(_current_place.device_id).use()
    return _current_place


def get_device() -> str:
    """The current device as a string: 'cpu' or 'gpu:N'."""
    place = _current_place
    return "cpu" if isinstance(place, CPUPlace) else f"gpu:{place.device_id}"


def current_place() -> Place:
    return _current_place


def get_array_module(*arrays: object):
    """numpy or cupy, whichever owns the given arrays (numpy for plain Python values)."""
    if cupy is not None:
        for array in arrays:
            if isinstance(array, cupy.ndarray):
                return cupy
    return np


def xp_for_place(place: Place):
    return np if isinstance(place, CPUPlace) else cupy


def current_xp():
    return xp_for_place(_current_place)


def place_of(array: object) -> Place:
    if cupy is not None and isinstance(array, cupy.ndarray):
        return CUDAPlace(array.device.id)
    return _CPU


def is_gpu_array(array: object) -> bool:
    return cupy is not None and isinstance(array, cupy.ndarray)


def to_place(array, place: Place):
    """Move an array to `place`, copying only when it is elsewhere."""
    if isinstance(place, CPUPlace):
        return cupy.asnumpy(array) if is_gpu_array(array) else np.asarray(array)
    with cupy.cuda.Device(place.device_id):
        return cupy.asarray(array)


def to_numpy(array) -> np.ndarray:
    return cupy.asnumpy(array) if is_gpu_array(array) else np.asarray(array)


def elementwise_kernel(in_params: str, out_params: str, operation: str, name: str):
    """A fused CuPy elementwise kernel (GPU only). Ops use it for hot elementwise chains."""
    if cupy is None:
        raise RuntimeError("CuPy is not installed")
    return cupy.ElementwiseKernel(in_params, out_params, operation, name)


def raw_kernel(code: str, name: str):
    """A raw CUDA kernel (GPU only), for ops such as im2col that need their own."""
    if cupy is None:
        raise RuntimeError("CuPy is not installed")
    return cupy.RawKernel(code, name)


def gpu_special_functions():
    """`cupyx.scipy.special` (GPU only): gammaln, digamma, polygamma, erfinv, i0, ..."""
    if cupy is None:
        raise RuntimeError("CuPy is not installed")
    import cupyx.scipy.special

    return cupyx.scipy.special
