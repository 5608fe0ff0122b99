"""Errors raised while turning a dynamic-graph model into a static graph, or loading one.

Every error says where it happened (the layer path and the op) and what to do about it, because
the person reading it is usually looking at model code, not at the tracer.
"""

from __future__ import annotations


class TracingError(RuntimeError):
    """The model cannot be captured as a static graph as written."""


class UnsupportedOpError(TracingError):
    """An op ran during tracing that has no static-graph form yet."""


class ControlFlowError(TracingError):
    """A traced tensor was turned into a Python value (`x.item()`, `int(x)`, an `if` that
    could not be transcribed into graph control flow...), so Python control flow would be
    baked into the graph for that one input. Transcribed `if`/`while` statements name their
    file and line."""


class GraphDivergenceError(TracingError):
    """Tracing with a second input produced a different graph: something in the model depends
    on the input's values or on a dimension declared dynamic."""


class ModelFormatError(ValueError):
    """A saved model is missing, unreadable, or not a graph this framework wrote."""


def location(scope: str, op: str | None = None) -> str:
    """`"in layer 'layer1.0.conv1' (op conv2d)"`, for messages."""
    where = f"in layer '{scope}'" if scope else "at the top level of forward"
    return f"{where} (op {op})" if op else where
