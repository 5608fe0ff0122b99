"""Neural-network layers (`framework.nn`), as in `paddle.nn`."""

# --- layers, containers, activations, losses, initializers (owner: nn layers) ------------------
from framework.nn import initializer
from framework.nn.layer.container import LayerDict, LayerList, ParameterList, Sequential
from framework.nn.layer.layers import Layer
from framework.nn.param_attr import ParamAttr

# --- gradient clipping (owner: optimizers) -----------------------------------------------------
from framework.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
