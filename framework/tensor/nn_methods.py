"""The Tensor methods Paddle binds whose functions live in `framework.nn` rather than in
`framework.ops` (which binds its own families in `framework.ops.__init__`): `x.sigmoid()`,
`x.sigmoid_()`, the PyTorch-style `x.softmax(dim)` and `create_parameter`. They are bound here
because `framework.ops` loads before `framework.nn` and must not import it."""

from __future__ import annotations

import importlib

from framework.core.tensor import Tensor
from framework.nn.param_attr import create_parameter
from framework.ops.tensor_binding import bind
from framework.tensor.compat_softmax import softmax

# `framework.nn.functional.sigmoid` names the function, which hides the module of that name.
_sigmoid_module = importlib.import_module("framework.nn.functional.sigmoid")
sigmoid = _sigmoid_module.sigmoid
sigmoid_ = _sigmoid_module.sigmoid_

TENSOR_METHODS = {
    "create_parameter": create_parameter,
    "sigmoid": sigmoid,
    "sigmoid_": sigmoid_,
    "softmax": softmax,
}

bind(Tensor, TENSOR_METHODS)
