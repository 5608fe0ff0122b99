"""Paddle's `paddle.static.nn.cond` and `while_loop`: control flow that a static graph keeps.

Run eagerly they are plain Python (the taken branch, the loop's iterations), so autograd goes
through exactly what ran. Inside `framework.jit.to_static` (or `jit.save`), a predicate that
depends on the inputs makes a `cond` / `while_loop` node holding every branch as a sub-graph
(`framework.jit.control_flow`), so the saved model branches and loops per input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from framework.core.tensor import Tensor, to_tensor
from framework.jit import tracer as tracing


def cond(
    pred: Tensor | bool,
    true_fn: Callable[[], Any] | None = None,
    false_fn: Callable[[], Any] | None = None,
    name: str | None = None,
    return_names: Sequence[str] | None = None,
) -> Any:
    """`true_fn()` if `pred` else `false_fn()` (None for a missing function).

    `pred` is a bool Tensor with one element (shape [] or [1]). Traced, both functions run
    once and must return the same structure of tensors (same dtypes and ranks).

        out = framework.static.nn.cond(x.sum() > 0, lambda: x * 2, lambda: -x)
    """
    _check_callable(true_fn, "true_fn")
    _check_callable(false_fn, "false_fn")
    tracer = tracing.active_tracer()
    if isinstance(pred, Tensor) and tracer is not None and tracer.is_dynamic(pred._data):
        from framework.jit.control_flow import trace_cond

        return trace_cond(tracer, pred, true_fn, false_fn)
    if isinstance(pred, Tensor):
        if pred.size != 1:
            raise ValueError(f"cond: pred must hold one element, got shape {pred.shape}")
        taken = bool(pred)
    else:
        taken = bool(pred)
    branch = true_fn if taken else false_fn
    return branch() if branch is not None else None


def while_loop(
    cond: Callable[..., Tensor],
    body: Callable[..., Any],
    loop_vars: Sequence[Any],
    is_test: bool = False,
    name: str | None = None,
) -> list[Any]:
    """`while cond(*loop_vars): loop_vars = body(*loop_vars)`; returns the final loop vars.

    `cond` returns a one-element bool Tensor; `body` returns as many values as `loop_vars`
    (a single value for one loop var), each keeping its dtype and rank.

        i, s = framework.static.nn.while_loop(lambda i, s: i < n, lambda i, s: [i + 1, s + x],
                                              [framework.zeros([], "int64"), x])
    """
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callable")
    if not isinstance(loop_vars, list | tuple) or not loop_vars:
        raise ValueError("while_loop: loop_vars must be a non-empty list or tuple")
    loop_vars = list(loop_vars)
    tracer = tracing.active_tracer()
    while True:
        if tracer is not None and _depends_on_inputs(tracer, cond, loop_vars):
            from framework.jit.control_flow import trace_while

            return trace_while(tracer, cond, body, [_as_tensor(v) for v in loop_vars])
        pred = cond(*loop_vars)
        if isinstance(pred, Tensor) and pred.size != 1:
            raise ValueError(f"while_loop: cond must give one element, got shape {pred.shape}")
        if not bool(pred):
            return loop_vars
        new = body(*loop_vars)
        new = list(new) if isinstance(new, list | tuple) else [new]
        if len(new) != len(loop_vars):
            raise ValueError(
                f"while_loop: body returned {len(new)} values for {len(loop_vars)} loop vars"
            )
        loop_vars = new


def _depends_on_inputs(tracer: Any, cond: Callable, loop_vars: list) -> bool:
    """Whether the loop must become a node: a loop var or the condition depends on the graph
    inputs (a loop over constants runs in Python and its ops are traced as they run)."""
    if any(isinstance(v, Tensor) and tracer.is_dynamic(v._data) for v in loop_vars):
        return True
    with tracer.sub_trace():  # a look at the condition; its nodes are dropped
        pred = cond(*loop_vars)
    return isinstance(pred, Tensor) and tracer.is_dynamic(pred._data)


def _as_tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    return to_tensor(value)


def _check_callable(fn: Any, what: str) -> None:
    if fn is not None and not callable(fn):
        raise TypeError(f"cond: {what} must be callable or None, got {type(fn).__name__}")
