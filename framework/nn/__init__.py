"""Neural-network layers (`framework.nn`), as in `paddle.nn`."""

# --- layers, containers, activations, losses, initializers (owner: nn layers) ------------------
from framework.nn import functional, initializer
from framework.nn.layer.activation import (
    CELU,
    ELU,
    GELU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Silu,
    Softmax,
    Softplus,
    Softshrink,
    Softsign,
    Swish,
    Tanh,
    Tanhshrink,
    ThresholdedReLU,
)
from framework.nn.layer.container import LayerDict, LayerList, ParameterList, Sequential
from framework.nn.layer.layers import Layer
from framework.nn.layer.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from framework.nn.param_attr import ParamAttr

# --- gradient clipping (owner: optimizers) -----------------------------------------------------
from framework.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
