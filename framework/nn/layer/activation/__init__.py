"""Activation layers, each a thin Layer over `framework.nn.functional`, as in `paddle.nn`.

act = framework.nn.LeakyReLU(negative_slope=0.2)
y = act(x)   # same as F.leaky_relu(x, 0.2)

This package re-exports them from its modules, by family: `rectifiers`, `smooth`, `shrinks`,
`softmax`, `gated`, over the base in `elementwise`.
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
from collections.abc import Callable

from framework.core.tensor import Tensor
from framework.nn.functional import activation as F
from framework.nn.functional.maxout import maxout
from framework.nn.functional.rrelu import rrelu
from framework.nn.initializer import Constant
from framework.nn.layer.activation.gated import GLU, Maxout
from framework.nn.layer.activation.rectifiers import (
    CELU,
    ELU,
    SELU,
    Hardtanh,
    LeakyReLU,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    ThresholdedReLU,
)
from framework.nn.layer.activation.shrinks import Hardshrink, Softshrink, Softsign, Tanhshrink
from framework.nn.layer.activation.smooth import (
    GELU,
    Hardsigmoid,
    Hardswish,
    LogSigmoid,
    Mish,
    Sigmoid,
    SiLU,
    Silu,
    Softplus,
    Swish,
    Tanh,
)
from framework.nn.layer.activation.softmax import LogSoftmax, Softmax, Softmax2D
from framework.nn.layer.layers import Layer, default_dtype
