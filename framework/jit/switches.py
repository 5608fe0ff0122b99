"""Process-wide `paddle.jit` switches: `enable_to_static`, `ignore_module`, `set_code_level`
and `set_verbosity`.

`enable_to_static(False)` makes every `to_static` function run its Python code eagerly, as
Paddle does (for debugging a model without rebuilding it). The other three tune Paddle's
source-to-source translator, which this framework does not have (it captures graphs by
tracing, which records whatever code runs), so they record their value and change nothing.
"""

from __future__ import annotations

from types import ModuleType


class _Switches:
    to_static = True
    code_level = 0
    verbosity = 0
    ignored_modules: list[ModuleType] = []


_switches = _Switches()


def enable_to_static(enable_to_static_bool: bool) -> None:
    """Turn `to_static` on (the default) or off for the whole process; off, a to_static
    function or Layer runs its Python code eagerly.

    framework.jit.enable_to_static(False)   # debug: every @to_static runs eagerly
    """
    if not isinstance(enable_to_static_bool, bool):
        raise TypeError(
            "enable_to_static: enable_to_static_bool must be a bool, got "
            f"{type(enable_to_static_bool).__name__}"
        )
    _switches.to_static = enable_to_static_bool


def to_static_enabled() -> bool:
    return _switches.to_static


def ignore_module(modules: list[ModuleType]) -> None:
    """Modules whose functions Paddle's translator leaves alone. Tracing records the ops any
    code runs, so nothing needs leaving alone here; the modules are recorded.

    framework.jit.ignore_module([numpy])
    """
    _switches.ignored_modules.extend(modules)


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """The level of translated code Paddle prints. No code is translated here; recorded.

    framework.jit.set_code_level(100)
    """
    _switches.code_level = int(level)


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """How much Paddle's translator logs. No translator runs here; recorded.

    framework.jit.set_verbosity(1)
    """
    _switches.verbosity = int(level)
