"""Translators for activations (`framework.nn.functional` Functions)."""

from __future__ import annotations

from framework.jit.translators.registry import translates
from framework.nn.functional.activation import (
    CELU,
    ELU,
    ClipActivation,
    LeakyReLU,
    PReLU,
    ReLU,
    Shrink,
    Softsign,
    TanhShrink,
    ThresholdedReLU,
)
from framework.nn.functional.gelu import GELU, GELUTanh
from framework.nn.functional.sigmoid import HardSigmoid, HardSwish, LogSigmoid, Sigmoid, SiLU
from framework.nn.functional.softmax import LogSoftmax, Softmax
from framework.nn.functional.softplus import Mish, Softplus

_PLAIN = {
    ReLU: "relu",
    TanhShrink: "tanhshrink",
    Softsign: "softsign",
    Sigmoid: "sigmoid",
    LogSigmoid: "log_sigmoid",
    SiLU: "silu",
    HardSwish: "hardswish",
    Mish: "mish",
}


@translates(*_PLAIN)
def plain(fn, inputs, outputs, tracer) -> None:
    tracer.emit(_PLAIN[type(fn)], inputs, {}, outputs)


@translates(ClipActivation)
def clip_activation(fn, inputs, outputs, tracer) -> None:
    tracer.emit("clip", inputs, {"min": float(fn.low), "max": float(fn.high)}, outputs)


@translates(LeakyReLU)
def leaky_relu(fn, inputs, outputs, tracer) -> None:
    tracer.emit("leaky_relu", inputs, {"alpha": float(fn.slope)}, outputs)


@translates(PReLU)
def prelu(fn, inputs, outputs, tracer) -> None:
    axis = None if fn.axis is None else int(fn.axis)
    tracer.emit("prelu", inputs, {"axis": axis}, outputs)


@translates(ELU)
def elu(fn, inputs, outputs, tracer) -> None:
    tracer.emit("elu", inputs, {"alpha": float(fn.alpha), "scale": float(fn.scale)}, outputs)


@translates(CELU)
def celu(fn, inputs, outputs, tracer) -> None:
    tracer.emit("celu", inputs, {"alpha": float(fn.alpha)}, outputs)


@translates(Shrink)
def shrink(fn, inputs, outputs, tracer) -> None:
    attrs = {"lambd": float(fn.threshold), "bias": float(fn.shift)}
    tracer.emit("shrink", inputs, attrs, outputs)


@translates(ThresholdedReLU)
def thresholded_relu(fn, inputs, outputs, tracer) -> None:
    attrs = {"threshold": float(fn.threshold), "value": float(fn.value)}
    tracer.emit("thresholded_relu", inputs, attrs, outputs)


@translates(HardSigmoid)
def hard_sigmoid(fn, inputs, outputs, tracer) -> None:
    attrs = {"slope": float(fn.slope), "offset": float(fn.offset)}
    tracer.emit("hard_sigmoid", inputs, attrs, outputs)


@translates(GELU, GELUTanh)
def gelu_(fn, inputs, outputs, tracer) -> None:
    tracer.emit("gelu", inputs, {"approximate": isinstance(fn, GELUTanh)}, outputs)


@translates(Softmax, LogSoftmax)
def softmax_(fn, inputs, outputs, tracer) -> None:
    op = "log_softmax" if isinstance(fn, LogSoftmax) else "softmax"
    tracer.emit(op, inputs, {"axis": int(fn.axis)}, outputs)


@translates(Softplus)
def softplus_(fn, inputs, outputs, tracer) -> None:
    attrs = {"beta": float(fn.beta), "threshold": float(fn.threshold)}
    tracer.emit("softplus", inputs, attrs, outputs)
