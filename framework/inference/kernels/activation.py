"""Activations applied in place, used by standalone activation ops and by fused ones
(`activation` attributes that the fusion pass puts on conv, linear, add and batch_norm)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def in_place(spec: dict | None, xp: Any) -> Callable[[Any], None] | None:
    """A function that applies the activation `spec` to a float array, overwriting it."""
    if spec is None:
        return None
    kind = spec["type"]
    if kind == "relu":
        return lambda y: xp.maximum(y, 0, out=y)
    if kind == "clip":
        return clip_in_place(spec.get("min"), spec.get("max"), xp)
    if kind == "hardswish":
        return lambda y: hardswish_into(xp, y, y)
    if kind == "hard_sigmoid":
        slope, offset = float(spec["slope"]), float(spec["offset"])

        def hard_sigmoid(y) -> None:
            y *= y.dtype.type(slope)
            y += y.dtype.type(offset)
            xp.clip(y, 0, 1, out=y)

        return hard_sigmoid
    if kind == "leaky_relu":
        alpha = float(spec["alpha"])

        def leaky_relu(y) -> None:  # y - (1 - alpha) * min(y, 0)
            negative = xp.minimum(y, 0)
            negative *= y.dtype.type(1.0 - alpha)
            y -= negative

        return leaky_relu
    if kind == "sigmoid":
        return lambda y: sigmoid_into(xp, y, y)
    if kind == "silu":

        def silu(y) -> None:
            s = sigmoid_into(xp, y, xp.empty_like(y))
            y *= s

        return silu
    raise ValueError(f"unknown fused activation {spec!r}")


def clip_in_place(low: float | None, high: float | None, xp: Any) -> Callable[[Any], None]:
    if low is None and high is None:
        return lambda y: None
    if low is None:
        return lambda y: xp.minimum(y, high, out=y)
    if high is None:
        return lambda y: xp.maximum(y, low, out=y)
    return lambda y: xp.clip(y, low, high, out=y)


def sigmoid_into(xp: Any, x, out):
    """`out = 1 / (1 + exp(-x))` as `0.5 * tanh(x / 2) + 0.5` (no overflow); out may be x."""
    half = x.dtype.type(0.5)
    xp.multiply(x, half, out=out)
    xp.tanh(out, out=out)
    out *= half
    out += half
    return out


def hardswish_into(xp: Any, x, out):
    """`out = x * clip(x + 3, 0, 6) / 6`; out may be x."""
    kind = x.dtype.type
    gate = xp.add(x, kind(3))
    xp.clip(gate, 0, 6, out=gate)
    gate *= kind(1.0 / 6.0)
    return xp.multiply(x, gate, out=out)
