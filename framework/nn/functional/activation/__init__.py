"""Rectifier-like activations: relu, relu6, leaky_relu, prelu, elu, celu, selu, hardtanh,
the shrinks, tanhshrink and softsign.

Each is one fused Function: forward is a single pass over the array, and backward is written
with Tensor ops, so that higher-order gradients work. Where a formula on raw arrays measurably
pays (benchmarks/backward_formulas.py), plain backwards use it instead and the Tensor formula
serves only recorded ones (`create_graph=True`). The piecewise-linear ones multiply by a
constant mask, whose own derivative is zero.

This package re-exports them from its modules, by family: `rectifiers`, `exponential`,
`shrinks`, `inplace_forms` (`relu_`, ...), and `masks` (the gradients they share).
Sigmoid-like, softplus-like, GELU and softmax activations live in sibling modules and are
re-exported here, as in `paddle.nn.functional.activation`; `tanh` is `framework.tanh`.
"""

from __future__ import annotations

from framework.nn.functional.activation.exponential import CELU, ELU, celu, elu, selu
from framework.nn.functional.activation.inplace_forms import (
    elu_,
    hardtanh_,
    leaky_relu_,
    relu_,
    softmax_,
    thresholded_relu_,
)
from framework.nn.functional.activation.rectifiers import (
    ClipActivation,
    LeakyReLU,
    PReLU,
    ReLU,
    hardtanh,
    leaky_relu,
    prelu,
    relu,
    relu6,
)
from framework.nn.functional.activation.shrinks import (
    Shrink,
    Softsign,
    TanhShrink,
    ThresholdedReLU,
    hardshrink,
    softshrink,
    softsign,
    tanhshrink,
    thresholded_relu,
)
from framework.nn.functional.gelu import gelu
from framework.nn.functional.sigmoid import (
    glu,
    hardsigmoid,
    hardswish,
    log_sigmoid,
    sigmoid,
    silu,
    swish,
)
from framework.nn.functional.softmax import log_softmax, softmax
from framework.nn.functional.softplus import mish, softplus
from framework.ops.math import tanh

__all__ = [
    "celu",
    "elu",
    "elu_",
    "gelu",
    "glu",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "leaky_relu",
    "leaky_relu_",
    "log_sigmoid",
    "log_softmax",
    "mish",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
    "softmax_",
    "softplus",
    "softshrink",
    "softsign",
    "swish",
    "tanh",
    "tanhshrink",
    "thresholded_relu",
    "thresholded_relu_",
]
