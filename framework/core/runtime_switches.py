"""Process-wide switches Paddle exposes at top level: `get_flags` / `set_flags`, `LazyGuard`
and `disable_signal_handler`.

The framework has no C++ runtime whose behaviour the flags select, so they are a registry:
`set_flags` records a value, `get_flags` reads it back (known flags start at Paddle's
defaults), and scripts that tune Paddle's flags run unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

_FLAGS: dict[str, bool | str | float] = {
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_cudnn_exhaustive_search": False,
    "FLAGS_embedding_deterministic": 0,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.5,
    "FLAGS_allocator_strategy": "auto_growth",
    "FLAGS_use_cuda_managed_memory": False,
    "FLAGS_enable_pir_api": True,
    "FLAGS_use_mkldnn": False,
    "FLAGS_call_stack_level": 1,
}


def _flag_name(name: object) -> str:
    if not isinstance(name, str) or not name.startswith("FLAGS_"):
        raise ValueError(f"a flag name is a string starting with 'FLAGS_', got {name!r}")
    return name


def set_flags(flags: dict[str, bool | str | float]) -> None:
    """Set flags from a `{name: value}` dict.

    framework.set_flags({"FLAGS_cudnn_deterministic": True})
    """
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags must be a dict, got {type(flags).__name__}")
    for name, value in flags.items():
        _FLAGS[_flag_name(name)] = value


def get_flags(flags: str | Sequence[str]) -> dict[str, bool | str | float]:
    """The values of one flag or several, as a `{name: value}` dict.

    framework.get_flags("FLAGS_check_nan_inf")   # {'FLAGS_check_nan_inf': False}
    """
    names = [flags] if isinstance(flags, str) else list(flags)
    result = {}
    for name in names:
        if _flag_name(name) not in _FLAGS:
            raise ValueError(f"Flag {name} cannot get its value through this function.")
        result[name] = _FLAGS[name]
    return result


class LazyGuard:
    """`with LazyGuard(): model = Net()`: Paddle defers parameter initialisation inside it.

    Here parameters are initialised when created (NumPy arrays are cheap to make), so the guard
    changes nothing; it exists so code that builds large models under it runs unchanged.
    """

    def __enter__(self) -> LazyGuard:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def disable_signal_handler() -> None:
    """Paddle removes its C++ signal handlers so that another library can install its own.
    This framework installs none, so there is nothing to remove."""
