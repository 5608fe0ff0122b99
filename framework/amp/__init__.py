"""Automatic mixed precision (`framework.amp`), as in `paddle.amp`."""

from framework.amp import debugging
from framework.amp.auto_cast import (
    amp_cast,
    auto_cast,
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_auto_cast_enabled,
    is_autocast_enabled,
)
from framework.amp.decorate import decorate
from framework.amp.grad_scaler import GradScaler
from framework.core.backend import is_compiled_with_cuda


def _gpu_capability(device: str | None) -> float | None:
    """The compute capability of `device` (default: the current one) if it is a GPU."""
    from framework.core import backend

    place = backend._parse_device(device) if device is not None else backend.current_place()
    if not place.is_gpu_place() or not is_compiled_with_cuda():
        return None
    # CuPy gives it as a string of digits: "80" for 8.0, "53" for 5.3.
    return int(backend.cupy.cuda.Device(place.device_id).compute_capability) / 10


def is_float16_supported(device: str | None = None) -> bool:
    """Whether auto_cast's float16 pays on `device` (default: the current one): a GPU of
    compute capability 5.3 or later, as in Paddle. A CPU answers False (float16 still runs
    there, in software)."""
    capability = _gpu_capability(device)
    return capability is not None and capability >= 5.3


def is_bfloat16_supported(device: str | None = None) -> bool:
    """Whether bfloat16 is native on `device`: a GPU of compute capability 8.0 or later, as
    in Paddle; a CPU answers False."""
    capability = _gpu_capability(device)
    return capability is not None and capability >= 8.0


__all__ = [
    "GradScaler",
    "amp_cast",
    "auto_cast",
    "autocast",
    "debugging",
    "decorate",
    "get_autocast_cpu_dtype",
    "get_autocast_dtype",
    "get_autocast_gpu_dtype",
    "is_auto_cast_enabled",
    "is_autocast_enabled",
    "is_bfloat16_supported",
    "is_float16_supported",
]
