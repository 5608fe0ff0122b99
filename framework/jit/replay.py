"""Replaying a graph with the framework's differentiable ops, so a loaded model can train.

Each op type maps back to the autograd `Function` it was traced from (or to the functional
API where a Function needs a geometry object), so gradients of replayed graphs are exactly
those of the eager model. `replay(graph, inputs, initializers)` returns output Tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import framework.nn.functional as F
from framework.core.tensor import Tensor
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr
from framework.jit.translators import activation as act_t
from framework.jit.translators import math as math_t
from framework.nn.functional.activation import (
    CELU,
    ELU,
    ClipActivation,
    LeakyReLU,
    PReLU,
    Shrink,
    ThresholdedReLU,
)
from framework.nn.functional.gelu import GELU, GELUTanh
from framework.nn.functional.sigmoid import HardSigmoid
from framework.nn.functional.softmax import LogSoftmax, Softmax
from framework.nn.functional.softplus import Softplus
from framework.ops import logic
from framework.ops.linalg.matmul import MatMul
from framework.ops.manipulation.broadcast import BroadcastTo
from framework.ops.manipulation.cast import Cast
from framework.ops.manipulation.flip import Flip, Roll
from framework.ops.manipulation.gather import Take
from framework.ops.manipulation.indexing import GetItem
from framework.ops.manipulation.join import Concat, Split, Stack, Unstack
from framework.ops.manipulation.pad import Pad
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.tile import Tile
from framework.ops.manipulation.transpose import Transpose
from framework.ops.manipulation.where import Clip, Where
from framework.ops.math.arithmetic import Scale
from framework.ops.math.exponential import LogBase
from framework.ops.math.rounding import Round
from framework.ops.nn.embedding import EmbeddingLookup
from framework.ops.nn.interpolate import AxisResample, ResampleSpec
from framework.ops.nn.linear import Linear
from framework.ops.reduction.extrema import Max, Min, argmax, argmin
from framework.ops.reduction.logsumexp import LogSumExp
from framework.ops.reduction.moments import Var
from framework.ops.reduction.prod import Prod
from framework.ops.reduction.sum import Sum

Replayer = Callable[[Node, list], Any]
_REPLAY: dict[str, Replayer] = {}


def replays(*op_types: str) -> Callable[[Replayer], Replayer]:
    def register(fn: Replayer) -> Replayer:
        for op in op_types:
            _REPLAY[op] = fn
        return fn

    return register


def replay(graph: Graph, inputs: Sequence[Tensor], initializers: Sequence[Tensor]) -> list[Tensor]:
    env: dict[str, Tensor | None] = {"": None}
    env.update(zip(graph.inputs, inputs, strict=True))
    env.update(zip(graph.initializers, initializers, strict=True))
    for node in graph.nodes:
        fn = _REPLAY.get(node.op_type)
        if fn is None:
            raise NotImplementedError(f"op {node.op_type!r} cannot be replayed with gradients")
        args = [env[name] for name in node.inputs]
        try:
            result = fn(node, args)
        except Exception as error:
            error.add_note(f"while replaying node {node.name} ({node.op_type})")
            raise
        results = result if isinstance(result, tuple | list) else (result,)
        env.update(zip(node.outputs, results, strict=True))
    return [env[name] for name in graph.outputs]


def _activate(t: Tensor, spec: dict | None) -> Tensor:
    if spec is None:
        return t
    kind = spec["type"]
    if kind == "clip":
        low, high = spec.get("min"), spec.get("max")
        if low is None or high is None:
            return Clip(low, high).apply(t)
        return ClipActivation(low, high).apply(t)
    if kind == "hard_sigmoid":
        return HardSigmoid(spec["slope"], spec["offset"]).apply(t)
    if kind == "leaky_relu":
        return LeakyReLU(spec["alpha"]).apply(t)
    return _UNARY_FUNCTIONS[kind]().apply(t)


_BINARY_FUNCTIONS = {op: cls for cls, op in math_t._BINARY.items()}
_UNARY_FUNCTIONS = {op: cls for cls, op in {**math_t._UNARY, **act_t._PLAIN}.items()}


@replays(*_BINARY_FUNCTIONS)
def _binary(node, args):
    y = _BINARY_FUNCTIONS[node.op_type]().apply(*args)
    return _activate(y, node.attrs.get("activation"))


@replays(*_UNARY_FUNCTIONS)
def _unary(node, args):
    return _UNARY_FUNCTIONS[node.op_type]().apply(*args)


_SIMPLE: dict[str, Callable[[Node], Any]] = {
    "log2": lambda n: LogBase(2),
    "log10": lambda n: LogBase(10),
    "round": lambda n: Round(attr(n, "decimals")),
    "scale": lambda n: Scale(attr(n, "scale"), attr(n, "bias"), attr(n, "bias_after_scale")),
    "clip": lambda n: Clip(attr(n, "min"), attr(n, "max")),
    "leaky_relu": lambda n: LeakyReLU(attr(n, "alpha")),
    "elu": lambda n: ELU(attr(n, "alpha"), attr(n, "scale")),
    "celu": lambda n: CELU(attr(n, "alpha")),
    "hard_sigmoid": lambda n: HardSigmoid(attr(n, "slope"), attr(n, "offset")),
    "gelu": lambda n: GELUTanh() if attr(n, "approximate") else GELU(),
    "softplus": lambda n: Softplus(attr(n, "beta"), attr(n, "threshold")),
    "shrink": lambda n: Shrink(attr(n, "lambd"), attr(n, "bias")),
    "thresholded_relu": lambda n: ThresholdedReLU(attr(n, "threshold"), attr(n, "value")),
    "softmax": lambda n: Softmax(attr(n, "axis")),
    "log_softmax": lambda n: LogSoftmax(attr(n, "axis")),
    "prelu": lambda n: PReLU(attr(n, "axis")),
    "matmul": lambda n: MatMul(attr(n, "transpose_x"), attr(n, "transpose_y")),
    "cast": lambda n: Cast(np.dtype(attr(n, "dtype"))),
    "transpose": lambda n: Transpose(tuple(attr(n, "perm"))),
    "concat": lambda n: Concat(attr(n, "axis")),
    "stack": lambda n: Stack(attr(n, "axis")),
    "tile": lambda n: Tile(tuple(attr(n, "repeat_times"))),
    "pad": lambda n: Pad(
        tuple(tuple(p) for p in attr(n, "pads")), attr(n, "mode"), attr(n, "value")
    ),
    "flip": lambda n: Flip(tuple(attr(n, "axes"))),
    "roll": lambda n: Roll(
        tuple(attr(n, "shifts")), None if attr(n, "axes") is None else tuple(attr(n, "axes"))
    ),
}


@replays(*_SIMPLE)
def _simple(node, args):
    return _SIMPLE[node.op_type](node).apply(*args)


_LOGIC = {
    "equal": logic.equal,
    "not_equal": logic.not_equal,
    "less": logic.less_than,
    "less_equal": logic.less_equal,
    "greater": logic.greater_than,
    "greater_equal": logic.greater_equal,
    "logical_and": logic.logical_and,
    "logical_or": logic.logical_or,
    "logical_xor": logic.logical_xor,
    "logical_not": logic.logical_not,
}


@replays(*_LOGIC)
def _logic(node, args):
    return _LOGIC[node.op_type](*args)


@replays("argmax", "argmin")
def _arg_extremum(node, args):
    find = argmax if node.op_type == "argmax" else argmin
    return find(args[0], attr(node, "axis"), attr(node, "keepdim"), attr(node, "dtype"))


def resample_spec(node: Node) -> ResampleSpec:
    """The resize a `resample_axis` node records."""
    return ResampleSpec(
        str(attr(node, "mode")),
        bool(attr(node, "align_corners")),
        int(attr(node, "align_mode")),
        attr(node, "out_size"),
        attr(node, "scale"),
    )


@replays("resample_axis")
def _resample_axis(node, args):
    (x,) = args
    axis = int(attr(node, "axis"))
    return AxisResample.from_spec(axis, x.shape[axis], resample_spec(node)).apply(x)


@replays("identity")
def _identity(node, args):
    return args[0]


@replays("linear")
def _linear(node, args):
    inputs = [a for a in args if a is not None]
    return _activate(Linear().apply(*inputs), node.attrs.get("activation"))


@replays("where")
def _where(node, args):
    condition, x, y = args
    return Where(condition._data.astype(bool)).apply(x, y)


@replays("reshape")
def _reshape(node, args):
    x = args[0]
    shape = [x.shape[i] if d == 0 else d for i, d in enumerate(attr(node, "shape"))]
    return Reshape(_infer(shape, x.size)).apply(x)


def _infer(shape: list[int], size: int) -> tuple[int, ...]:
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1]))
        shape = [size // known if d == -1 else d for d in shape]
    return tuple(shape)


@replays("split")
def _split(node, args):
    return Split(attr(node, "axis"), tuple(attr(node, "sections"))).apply(*args)


@replays("unstack")
def _unstack(node, args):
    return Unstack(attr(node, "axis")).apply(*args)


@replays("slice")
def _slice(node, args):
    decrease = set(attr(node, "decrease_axes"))
    parts = {}
    for axis, start, end, step in zip(
        attr(node, "axes"),
        attr(node, "starts"),
        attr(node, "ends"),
        attr(node, "steps"),
        strict=True,
    ):
        parts[axis] = start if axis in decrease else slice(start, end, step)
    key = tuple(parts.get(a, slice(None)) for a in range(max(parts, default=-1) + 1))
    return GetItem(key, False).apply(args[0])


@replays("expand")
def _expand(node, args):
    x = args[0]
    shape = list(attr(node, "shape"))
    offset = len(shape) - x.ndim
    target = tuple(x.shape[i - offset] if d == -1 else d for i, d in enumerate(shape))
    return BroadcastTo(target).apply(x)


@replays("gather")
def _gather(node, args):
    x, index = args
    return Take(index._data, attr(node, "axis")).apply(x)


@replays("embedding")
def _embedding(node, args):
    ids, weight = args
    return EmbeddingLookup(ids._data, attr(node, "padding_idx")).apply(weight)


def _axes(node, x: Tensor) -> tuple[int, ...]:
    axes = attr(node, "axes")
    return tuple(range(x.ndim)) if axes is None else tuple(sorted(a % x.ndim for a in axes))


@replays("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
         "reduce_logsumexp", "reduce_var")  # fmt: skip
def _reduce(node, args):
    x = args[0]
    axes, keepdim = _axes(node, x), bool(attr(node, "keepdim"))
    op = node.op_type
    if op in ("reduce_sum", "reduce_mean"):
        count = int(np.prod([x.shape[a] for a in axes])) if op == "reduce_mean" else 1
        return Sum(axes, keepdim, count).apply(x)
    if op in ("reduce_max", "reduce_min"):
        return (Max if op == "reduce_max" else Min)(axes, keepdim).apply(x)
    if op == "reduce_prod":
        return Prod(axes, keepdim, None).apply(x)
    if op == "reduce_logsumexp":
        return LogSumExp(axes, keepdim).apply(x)
    return Var(axes, keepdim, attr(node, "ddof")).apply(x)


# --- convolution, pooling, normalization through the functional API ----------------------------
def _paddle_pads(pads: list[int]) -> list[int]:
    """ONNX order (begins, then ends) -> Paddle's (begin, end) per spatial dim."""
    half = len(pads) // 2
    return [v for i in range(half) for v in (pads[i], pads[half + i])]


@replays("conv1d", "conv2d")
def _conv(node, args):
    x, weight, *rest = args
    bias = rest[0] if rest else None
    conv = F.conv1d if node.op_type == "conv1d" else F.conv2d
    y = conv(
        x,
        weight,
        bias,
        stride=attr(node, "strides"),
        padding=_paddle_pads(attr(node, "pads")),
        dilation=attr(node, "dilations"),
        groups=attr(node, "groups"),
        data_format=attr(node, "data_format"),
    )
    return _activate(y, node.attrs.get("activation"))


@replays("conv1d_transpose", "conv2d_transpose")
def _conv_transpose(node, args):
    x, weight, *rest = args
    bias = rest[0] if rest else None
    conv = F.conv1d_transpose if node.op_type == "conv1d_transpose" else F.conv2d_transpose
    return conv(
        x,
        weight,
        bias,
        stride=attr(node, "strides"),
        padding=_paddle_pads(attr(node, "pads")),
        output_padding=attr(node, "output_padding"),
        dilation=attr(node, "dilations"),
        groups=attr(node, "groups"),
        data_format=attr(node, "data_format"),
    )


@replays("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d")
def _pool(node, args):
    common = {
        "kernel_size": attr(node, "kernel_shape"),
        "stride": attr(node, "strides"),
        "padding": _paddle_pads(attr(node, "pads")),
        "ceil_mode": attr(node, "ceil_mode"),
    }
    op = node.op_type
    one_d = op.endswith("1d")
    if attr(node, "data_format") not in ("NCHW", "NCL"):
        common["data_format"] = attr(node, "data_format")
    if op.startswith("max"):
        return (F.max_pool1d if one_d else F.max_pool2d)(args[0], **common)
    common["exclusive"] = attr(node, "exclusive")
    if not one_d:
        common["divisor_override"] = attr(node, "divisor")
    return (F.avg_pool1d if one_d else F.avg_pool2d)(args[0], **common)


@replays("adaptive_avg_pool2d")
def _adaptive_avg(node, args):
    return F.adaptive_avg_pool2d(args[0], attr(node, "output_size"), attr(node, "data_format"))


@replays("adaptive_max_pool2d")
def _adaptive_max(node, args):
    return F.adaptive_max_pool2d(args[0], attr(node, "output_size"))


_CHANNEL_FIRST = {2: "NC", 3: "NCL", 4: "NCHW", 5: "NCDHW"}
_CHANNEL_LAST = {2: "NC", 3: "NLC", 4: "NHWC", 5: "NDHWC"}


@replays("batch_norm")
def _batch_norm(node, args):
    x, scale, bias, mean, var = args
    axis = attr(node, "axis") % x.ndim
    layout = _CHANNEL_FIRST if axis == 1 else _CHANNEL_LAST
    y = F.batch_norm(
        x, mean, var, scale, bias, training=False, epsilon=attr(node, "epsilon"),
        data_format=layout[x.ndim],
    )  # fmt: skip
    return _activate(y, node.attrs.get("activation"))


@replays("layer_norm")
def _layer_norm(node, args):
    x, scale, bias = (args + [None, None])[:3]
    shape = x.shape[attr(node, "axis") % x.ndim :]
    return F.layer_norm(x, shape, scale, bias, attr(node, "epsilon"))


@replays("group_norm")
def _group_norm(node, args):
    x, scale, bias = (args + [None, None])[:3]
    return F.group_norm(
        x, attr(node, "num_groups"), attr(node, "epsilon"), scale, bias, attr(node, "data_format")
    )


@replays("instance_norm")
def _instance_norm(node, args):
    x, scale, bias = (args + [None, None])[:3]
    return F.instance_norm(
        x, weight=scale, bias=bias, eps=attr(node, "epsilon"), data_format=attr(node, "data_format")
    )


def replayable_ops() -> list[str]:
    return sorted(_REPLAY)


# Control flow replays its sub-graphs with `replay`, so it registers from its own module.
from framework.jit import replay_control_flow  # noqa: E402, F401
