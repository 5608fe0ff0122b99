"""Sampan's deep-learning framework: NumPy on CPU, CuPy on GPU, with PaddlePaddle's API.

    import framework as paddle

    x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    y = (x * x).sum()
    y.backward()
    x.grad   # [[2., 4.]]

The public API is re-exported below, one block per package: by name, or for the op families
whose whole `__all__` Paddle has at top level (`framework.ops.math`, ...), by that list.
"""

# --- core: tensors, dtypes, devices, autograd, randomness --------------------------------------
from framework.core.autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from framework.core.backend import (
    CPUPlace,
    CUDAPinnedPlace,
    CUDAPlace,
    XPUPinnedPlace,
    device_count,
    get_device,
    is_compiled_with_cuda,
    set_device,
)
from framework.core.dtype import (
    bool_ as bool,  # noqa: A001 - Paddle's name `paddle.bool`
    complex64,
    complex64 as cfloat,
    complex128,
    complex128 as cdouble,
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
from framework.core.dtype import (
    double,
    dtype,
    finfo,
    half,
    iinfo,
    uint32,
    uint64,
)
from framework.core.dtype import float32 as float  # noqa: A001 - Paddle's name `paddle.float`
from framework.core.dtype import int16 as short
from framework.core.dtype import int32 as int  # noqa: A001 - Paddle's name `paddle.int`
from framework.core.dtype import int64 as long
from framework.core.random import (
    Generator,
    get_cuda_rng_state,
    manual_seed,
    set_cuda_rng_state,
)
from framework.core.tensor_types import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    Size,
)
from framework.core.printing import set_printoptions
from framework.core.runtime_switches import (
    LazyGuard,
    disable_signal_handler,
    get_flags,
    set_flags,
)
from framework.core.random import get_rng_state, seed, set_rng_state
from framework.core.tensor import Parameter, Tensor, to_tensor

# --- ops: math, comparisons, logic, reductions, creation, random (owner: math) ----------------
# Paddle has every op of these three families at top level: each family's `__all__` is the list.
from framework.ops.creation import *  # noqa: F403
from framework.ops.logic import *  # noqa: F403
from framework.ops.math import *  # noqa: F403
from framework.ops.reduction import (
    all,  # noqa: A004 - Paddle's names shadow builtins here, as in `paddle`
    amax,
    amin,
    any,
    argmax,
    argmin,
    count_nonzero,
    logsumexp,
    max,
    mean,
    median,
    min,
    nanmean,
    nanmedian,
    nanquantile,
    nansum,
    prod,
    quantile,
    std,
    sum,
    var,
)

# --- ops: manipulation, indexing, linalg, search and sort (owner: manipulation) ----------------
from framework import linalg
from framework import fft, signal
from framework.ops.creation.mmap_storage import MmapStorage
from framework.linalg import cholesky, eigvalsh  # Paddle has these at top level, outside __all__
from framework.linalg import inv as inverse
from framework.ops.linalg import (
    addmm,
    baddbmm,
    bmm,
    cross,
    dot,
    einsum,
    inner,
    kron,
    matmul,
    matrix_transpose,
    mm,
    mv,
    norm,
    outer,
    tensordot,
    vecdot,
)
from framework.ops.manipulation.diagonal import diag_embed, diagonal
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
    split_with_sizes,
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

# --- Paddle 3 names added for code written against paddle (owner: linalg/API coverage) -----------
from framework.ops.linalg import (
    cdist,
    dist,
    pdist,
    renorm,
)
from framework.ops.manipulation import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    broadcast_shapes,
    cartesian_prod,
    column_stack,
    combinations,
    crop,
    diagflat,
    diagonal_scatter,
    dsplit,
    dstack,
    hsplit,
    hstack,
    index_fill,
    index_put,
    index_sample,
    is_complex,
    is_empty,
    is_floating_point,
    is_integer,
    is_tensor,
    isreal,
    masked_scatter,
    msort,
    multiplex,
    narrow,
    permute,
    rank,
    ravel,
    reduce_as,
    rot90,
    row_stack,
    scatter_add,
    scatter_reduce,
    select_scatter,
    shape,
    slice,  # noqa: A004 - Paddle shadows builtins here
    slice_scatter,
    strided_slice,
    swapaxes,
    swapdims,
    take,
    tensor_split,
    trace,
    tril_indices,
    triu_indices,
    unflatten,
    unfold,
    vander,
    view,
    view_as,
    vsplit,
    vstack,
)
from framework.ops.search import (
    bincount,
    bucketize,
    cummax,
    cummin,
    histogram,
    histogram_bin_edges,
    histogramdd,
    isin,
    logcumsumexp,
)
from framework.ops.inplace_forms import (
    addmm_,
    baddbmm_,
    bitwise_and_,
    bitwise_not_,
    bitwise_or_,
    bitwise_xor_,
    cast_,
    cumprod_,
    cumsum_,
    clamp_,
    clip_,
    put_along_axis_,
    equal_,
    greater_equal_,
    greater_than_,
    index_add_,
    index_fill_,
    index_put_,
    less_,
    less_equal_,
    less_than_,
    logical_and_,
    logical_not_,
    logical_or_,
    logical_xor_,
    masked_fill_,
    masked_scatter_,
    not_equal_,
    renorm_,
    scatter_,
    scatter_add_,
    t_,
    transpose_,
    tril_,
    triu_,
    where_,
)
from framework.ops.inplace_forms import (
    bitwise_invert_,
    bitwise_left_shift_,
    bitwise_right_shift_,
)
from framework.ops.manipulation import argwhere, as_strided, shard_index
from framework.reader_batch import batch
from framework.ops.search import unique_consecutive
from framework.ops.linalg import outer as ger
from framework.ops.logic import equal as eq
from framework.ops.logic import greater_equal as ge
from framework.ops.logic import greater_than as greater
from framework.ops.logic import greater_than as gt
from framework.ops.logic import less_equal as le
from framework.ops.logic import less_than as less
from framework.ops.logic import less_than as lt
from framework.ops.logic import not_equal as ne
from framework.ops.manipulation import clip as clamp
from framework.ops.manipulation import concat as cat
from framework.ops.manipulation import concat as concatenate
from framework.ops.manipulation import flip as reverse
from framework.ops.manipulation import take_along_axis as take_along_dim
from framework.ops.math import divide as div
from framework.ops.math import divide_ as div_
from framework.ops.math import multiply as mul
from framework.ops.math import neg as negative
from framework.ops.math import subtract_ as sub_

# --- nn (owner: nn layers) ----------------------------------------------------------------------
from framework import nn
from framework.nn.functional import (  # Paddle exports these functional forms at top level too
    adaptive_avg_pool1d,
    conv1d,
    conv2d,
    conv3d,
    group_norm,
    layer_norm,
    sigmoid,
)
from framework.nn.param_attr import ParamAttr, create_parameter
from framework.data_parallel import DataParallel

# --- optimizer, save/load, regularizer (owner: optimizers) ---------------------------------------
from framework import optimizer, regularizer
from framework.core.serialization import load, save

# --- io, vision, metric (owner: data toolkit) ----------------------------------------------------
from framework import io, metric

# framework.vision needs Pillow, which the standalone framework wheel (`make wheel`) does not
# require: it is imported on first use (`framework.vision`, `from framework.vision import ...`).

# --- high-level API, mixed precision (owner: hapi/amp) --------------------------------------------
from framework import amp, hapi
from framework.amp import (
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_enabled,
)
from framework.hapi import Model, callbacks, flops, summary

# --- interop (owner: interop) ------------------------------------------------------------------
from framework import interop

# --- jit, inference (owner: jit/inference) ------------------------------------------------------
from framework import inference, jit, static

# --- onnx (owner: onnx) -------------------------------------------------------------------------
from framework import onnx

# --- quantization (owner: quantization) ---------------------------------------------------------
from framework import quantization, slim

# --- Paddle's module paths: paddle.tensor, paddle.framework, paddle.base (owner: API coverage) ---
# Thin re-exports of the objects above, under the module paths Paddle code imports from. They
# load last: each imports names from the packages above. The framework is dynamic-graph only:
# `disable_static` is a no-op, `enable_static` raises (see `framework.framework`).
from framework import base, framework, tensor
from framework.tensor.compat_softmax import softmax  # PyTorch-style, as paddle.softmax
from framework.framework import disable_static, enable_static, in_dynamic_mode

# Constants, as `paddle.pi` and friends.
from math import e, inf, nan, pi  # noqa: E402

newaxis = None

__version__ = "0.1.0"


def __getattr__(name: str):
    if name == "vision":
        import importlib

        return importlib.import_module("framework.vision")
    raise AttributeError(f"module 'framework' has no attribute {name!r}")
