"""Automatic mixed precision (`framework.amp`), as in `paddle.amp`."""

from framework.amp import debugging
from framework.amp.auto_cast import amp_cast, auto_cast, is_auto_cast_enabled
from framework.amp.decorate import decorate
from framework.amp.grad_scaler import GradScaler
from framework.core.backend import is_compiled_with_cuda


def is_float16_supported(device: str | None = None) -> bool:
    """float16 runs everywhere; it is fast only on a GPU."""
    return True


def is_bfloat16_supported(device: str | None = None) -> bool:
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        return is_compiled_with_cuda()
    return True


__all__ = [
    "GradScaler",
    "amp_cast",
    "auto_cast",
    "debugging",
    "decorate",
    "is_auto_cast_enabled",
    "is_bfloat16_supported",
    "is_float16_supported",
]
