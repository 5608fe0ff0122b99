"""What transcribed code calls at run time (`_jst.<name>` in the rewritten source).

Each helper dispatches on what it is given: Python values run plain Python, so a function
whose conditions are Python bools behaves exactly as written; a tensor condition becomes
`static.nn.cond` / `while_loop` (graph control flow while tracing, the taken path eagerly).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from framework.core.tensor import Tensor, to_tensor
from framework.jit import tracer as tracing
from framework.jit.control_flow import UNDEFINED
from framework.jit.errors import ControlFlowError
from framework.ops import logic
from framework.static.nn.control_flow import cond, while_loop

__all__ = [
    "UNDEFINED",
    "and_",
    "convert_ifelse",
    "convert_while",
    "lookup",
    "not_",
    "or_",
    "python_bool",
    "range_args",
    "range_cond",
]


def lookup(scope: dict, name: str) -> Any:
    """The current value of a local the rewritten code passes on (UNDEFINED before its first
    assignment)."""
    return scope.get(name, UNDEFINED)


def convert_ifelse(pred: Any, true_fn: Callable, false_fn: Callable, args: Sequence) -> Any:
    if not isinstance(pred, Tensor):
        return true_fn(*args) if pred else false_fn(*args)
    return cond(pred, lambda: true_fn(*args), lambda: false_fn(*args))


def convert_while(cond_fn: Callable, body_fn: Callable, values: Sequence) -> tuple:
    """`while cond_fn(*values): values = body_fn(*values)`; once the condition is a tensor
    computed from the traced inputs, the remaining iterations become a while_loop node (over
    the defined values). A condition on Python values stays a Python loop, as written."""
    values = list(values)
    tracer = tracing.active_tracer()
    while True:
        if tracer is None:
            pred = cond_fn(*values)
        else:
            with tracer.sub_trace():  # a look at the condition; its nodes are dropped
                pred = cond_fn(*values)
            if isinstance(pred, Tensor) and tracer.is_dynamic(pred._data):
                return _loop_node(cond_fn, body_fn, values)
        if not pred:
            return tuple(values)
        values = list(body_fn(*values))


def _loop_node(cond_fn: Callable, body_fn: Callable, values: list) -> tuple:
    live = [i for i, v in enumerate(values) if v is not UNDEFINED]

    def full(loop_vars: Sequence) -> list:
        merged = list(values)
        for index, value in zip(live, loop_vars, strict=True):
            merged[index] = value
        return merged

    def body(*loop_vars: Any) -> list:
        out = body_fn(*full(loop_vars))
        return [out[i] for i in live]

    finals = while_loop(lambda *v: cond_fn(*full(v)), body, [values[i] for i in live])
    return tuple(full(finals))


def and_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    a = left()
    if isinstance(a, Tensor):
        return logic.logical_and(a, _as_bool(right()))
    return a and right()


def or_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    a = left()
    if isinstance(a, Tensor):
        return logic.logical_or(a, _as_bool(right()))
    return a or right()


def not_(value: Any) -> Any:
    return logic.logical_not(value) if isinstance(value, Tensor) else not value


def _as_bool(value: Any) -> Any:
    return value if isinstance(value, Tensor) else to_tensor(bool(value))


def range_args(*args: Any) -> tuple:
    """(start, stop, step) of `range(*args)`."""
    if len(args) == 1:
        return 0, args[0], 1
    if len(args) == 2:
        return args[0], args[1], 1
    return args


def range_cond(index: Any, stop: Any, step: Any) -> Any:
    if isinstance(step, Tensor):
        ahead = logic.logical_and(step > 0, index < stop)
        return logic.logical_or(ahead, logic.logical_and(step < 0, index > stop))
    return index < stop if step > 0 else index > stop


def python_bool(value: Any, where: str, reason: str) -> bool:
    """The test of an `if`/`while` the transcriber left as Python: fine for Python values and
    constant tensors, an error naming the line for a tensor computed from the inputs."""
    tracer = tracing.active_tracer()
    if isinstance(value, Tensor) and tracer is not None and tracer.is_dynamic(value._data):
        error = ControlFlowError(
            f"{where}: this condition is a tensor computed from the inputs, and the statement "
            f"cannot become graph control flow because {reason}. Rewrite it with "
            "`paddle.static.nn.cond(pred, true_fn, false_fn)` or "
            "`paddle.static.nn.while_loop(cond, body, loop_vars)`, or move that part out of "
            "the loop."
        )
        tracer.error = error
        raise error
    return bool(value)
