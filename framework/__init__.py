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
from framework.ops.creation import (
    arange,
    assign,
    bernoulli,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    linspace,
    multinomial,
    normal,
    ones,
    ones_like,
    rand,
    randint,
    randint_like,
    randn,
    randperm,
    standard_normal,
    uniform,
    zeros,
    zeros_like,
)
from framework.ops.logic import (
    allclose,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    equal,
    equal_all,
    greater_equal,
    greater_than,
    isclose,
    less_equal,
    less_than,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    not_equal,
)
from framework.ops.math import (
    abs,  # noqa: A004 - Paddle's names shadow builtins here, as in `paddle`
    acos,
    add,
    add_n,
    asin,
    atan,
    atan2,
    ceil,
    cos,
    cosh,
    divide,
    erf,
    exp,
    expm1,
    floor,
    floor_divide,
    floor_mod,
    frac,
    isfinite,
    isinf,
    isnan,
    lerp,
    log,
    log1p,
    log2,
    log10,
    maximum,
    minimum,
    mod,
    multiply,
    multiply_,
    neg,
    pow,
    reciprocal,
    remainder,
    round,
    rsqrt,
    scale,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    subtract_,
    tan,
    tanh,
    trunc,
)
from framework.ops.reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    count_nonzero,
    logsumexp,
    max,
    mean,
    min,
    nanmean,
    nansum,
    prod,
    std,
    sum,
    var,
)

# --- ops: manipulation, indexing, linalg, search and sort (owner: manipulation) ----------------
from framework.ops import linalg
from framework.ops.linalg import bmm, dot, einsum, matmul, mm, norm, outer
from framework.ops.manipulation import (
    broadcast_shape,
    broadcast_tensors,
    broadcast_to,
    cast,
    chunk,
    clip,
    clone,
    concat,
    diag,
    expand,
    expand_as,
    flatten,
    flatten_,
    flip,
    gather,
    gather_nd,
    index_add,
    index_select,
    masked_fill,
    masked_select,
    meshgrid,
    moveaxis,
    nonzero,
    numel,
    put_along_axis,
    repeat_interleave,
    reshape,
    reshape_,
    roll,
    scatter,
    scatter_nd,
    scatter_nd_add,
    split,
    squeeze,
    squeeze_,
    stack,
    t,
    take_along_axis,
    tile,
    transpose,
    tril,
    triu,
    unbind,
    unsqueeze,
    unsqueeze_,
    unstack,
    where,
)
from framework.ops.search import (
    argsort,
    cumprod,
    cumsum,
    kthvalue,
    mode,
    searchsorted,
    sort,
    topk,
    unique,
)

# --- nn (owner: nn layers) ----------------------------------------------------------------------
from framework import nn
from framework.nn.param_attr import ParamAttr, create_parameter

# --- optimizer, save/load, regularizer (owner: optimizers) ---------------------------------------
from framework import optimizer, regularizer
from framework.core.serialization import load, save

# --- io, vision, metric (owner: data toolkit) ----------------------------------------------------
from framework import io, metric, vision

__version__ = "0.1.0"
