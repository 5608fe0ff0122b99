"""How ops without an autograd `Function` reach the static-graph tracer.

Comparisons, logical and bitwise ops and argmax/argmin have no gradient, so they never pass
through `Function.apply`, where the tracer records every other op. They report here instead;
while a trace runs, `framework.jit` installs the hook that turns them into graph nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

_hook: Callable | None = None


def set_op_hook(hook: Callable | None) -> Callable | None:
    """Install `hook(op_type, inputs, attrs, outputs)`; returns the previous one."""
    global _hook
    previous = _hook
    _hook = hook
    return previous


def record_op(op_type: str, inputs: Sequence[Any], attrs: dict, output: Any) -> None:
    """Report an op on raw arrays (`output` is the array it produced)."""
    if _hook is not None:
        _hook(op_type, inputs, attrs, output)
