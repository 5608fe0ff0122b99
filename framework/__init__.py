"""Sampan's deep-learning framework: NumPy on CPU, CuPy on GPU, with PaddlePaddle's API.

    import framework as paddle

    x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    y = (x * x).sum()
    y.backward()
    x.grad   # [[2., 4.]]

The public API is re-exported explicitly below, one block per package.
"""

# --- core: tensors, dtypes, devices, autograd, randomness --------------------------------------
from framework.core.autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from framework.core.backend import (
    CPUPlace,
    CUDAPlace,
    device_count,
    get_device,
    is_compiled_with_cuda,
    set_device,
)
from framework.core.dtype import (
    bool_ as bool,  # noqa: A001 - Paddle's name `paddle.bool`
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from framework.core.random import get_rng_state, seed, set_rng_state
from framework.core.tensor import Parameter, Tensor, to_tensor

# --- ops: math, comparisons, logic, reductions, creation, random (owner: math) ----------------
from framework.ops.math import add, multiply

# --- ops: manipulation, indexing, linalg, search and sort (owner: manipulation) ----------------
from framework.ops.manipulation import broadcast_to, expand

# --- nn (owner: nn layers) ----------------------------------------------------------------------
from framework import nn
from framework.nn.param_attr import ParamAttr, create_parameter

# --- optimizer, save/load, regularizer (owner: optimizers) ---------------------------------------

# --- io, vision, metric (owner: data toolkit) ----------------------------------------------------
from framework import io

__version__ = "0.1.0"
