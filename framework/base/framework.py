"""`framework.base.framework`, as `paddle.base.framework`: the mode queries and `Parameter`.

Paddle's static-graph objects (`Program`, `Executor`, `program_guard`, `default_main_program`,
`default_startup_program`) have no counterpart in this dynamic-graph-only framework: using them
raises NotImplementedError that points at `framework.jit.to_static`.
"""

from __future__ import annotations

from framework.core.runtime_switches import get_flags, set_flags
from framework.core.tensor import Parameter
from framework.framework import in_dynamic_mode

_STATIC = (
    "{} belongs to Paddle's static-graph mode, which this framework does not have: keep the "
    "code in dynamic-graph mode and capture a static graph with framework.jit.to_static "
    "(export it with framework.jit.save)"
)


def in_dygraph_mode() -> bool:
    """True: dynamic-graph mode is the only mode."""
    return in_dynamic_mode()


class Program:
    """Paddle's static-graph Program: not supported; constructing one raises."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(_STATIC.format("paddle.static.Program"))


class Executor:
    """Paddle's static-graph Executor: not supported; constructing one raises."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(_STATIC.format("paddle.static.Executor"))


def default_main_program() -> Program:
    raise NotImplementedError(_STATIC.format("default_main_program"))


def default_startup_program() -> Program:
    raise NotImplementedError(_STATIC.format("default_startup_program"))


def program_guard(main_program: object = None, startup_program: object = None) -> None:
    raise NotImplementedError(_STATIC.format("program_guard"))


__all__ = [
    "Executor",
    "Parameter",
    "Program",
    "default_main_program",
    "default_startup_program",
    "get_flags",
    "in_dygraph_mode",
    "in_dynamic_mode",
    "program_guard",
    "set_flags",
]
