"""INT8 fusion: a QDQ graph (see `framework.quantization.ir_ops`) becomes INT8 kernels.

0. Duplicate `quantize_linear` nodes (same tensor and parameters) are merged.
1. `conv2d` / `linear` reading `dequantize_linear(q)` of an int8 activation and
   `dequantize_linear(w)` of an int8 weight initializer (zero points 0, one scale per output
   channel or one in all), with a bias that is absent, a float initializer or the
   `dequantize_linear` of an int32 initializer, becomes `quantized_conv2d` /
   `quantized_linear` on `q` (dequantized float32 output, activation kept).
2. Requantization: when such an op's result is read only by a per-tensor int8
   `quantize_linear`, the op writes that int8 result itself (`y_scale`, `y_zero_point`).
3. Pass-through: `dequantize_linear(q) -> reshape/transpose/max_pool2d -> quantize_linear`
   with the same scale and zero point is the op applied to `q` (exact: these ops only move or
   select values, and quantization is monotonic).

What is left over (a DQ feeding a float add, ...) runs as standalone kernels; nodes nobody
reads any more are removed by dead-code elimination. A graph without QDQ nodes is unchanged.
Run before constant folding, which would turn dequantized weights back into float ones.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import to_numpy
from framework.inference.passes.rewrite import remove_nodes, rename_uses, sole_consumer
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr

_PASS_THROUGH = {"reshape", "transpose", "max_pool2d"}


def run(graph: Graph) -> Graph:
    if not any(node.op_type == "dequantize_linear" for node in graph.nodes):
        return graph
    graph = graph.copy()
    _merge_duplicate_quantizes(graph)
    _fuse_quantized_ops(graph)
    _fuse_requantize(graph)
    _fuse_pass_through(graph)
    return graph


def _array(graph: Graph, name: str) -> np.ndarray | None:
    if not name or name not in graph.initializers:
        return None
    return np.asarray(to_numpy(graph.tensors[name]))


def _per_tensor(graph: Graph, node: Node) -> tuple[float, int] | None:
    """(scale, zero point) of a per-tensor int8 quantize/dequantize node with static params."""
    scale, zero = _array(graph, node.inputs[1]), _array(graph, node.inputs[2])
    if scale is None or zero is None or scale.size != 1 or zero.size != 1:
        return None
    if zero.dtype != np.int8:
        return None
    return float(scale.reshape(())), int(zero.reshape(()))


def _weight(graph: Graph, dq: Node | None, channel_axis: int) -> str | None:
    """The int8 weight initializer under a symmetric dequantize_linear, if it is one."""
    if dq is None or dq.op_type != "dequantize_linear":
        return None
    q, scale, zero = (_array(graph, name) for name in dq.inputs)
    if q is None or scale is None or q.dtype != np.int8:
        return None
    if zero is not None and np.any(zero != 0):
        return None
    rank = q.ndim
    if scale.size > 1 and (
        int(attr(dq, "axis")) % rank != channel_axis or scale.size != q.shape[channel_axis]
    ):
        return None
    return dq.inputs[0]


def _bias(graph: Graph, name: str, producers: dict[str, Node]) -> str | None:
    """A float32 bias initializer equal to the op's bias input ("" when absent), or None."""
    if not name:
        return ""
    if name in graph.initializers:
        return name if graph.values[name].dtype == "float32" else None
    dq = producers.get(name)
    if dq is None or dq.op_type != "dequantize_linear":
        return None
    q, scale, zero = (_array(graph, n) for n in dq.inputs)
    if q is None or scale is None or q.ndim != 1:
        return None
    zero = np.zeros(1) if zero is None else zero
    real = (q.astype(np.float64) - zero) * scale.astype(np.float64)
    folded = graph.unique_name(f"{dq.name}.folded")
    graph.add_initializer(folded, real.astype(np.float32), "constant")
    return folded


def _merge_duplicate_quantizes(graph: Graph) -> None:
    """One quantize_linear per (tensor, scale, zero point): QDQ graphs give every reader its
    own pair, for onnxruntime."""
    first: dict[tuple, Node] = {}
    doomed = []
    for node in graph.nodes:
        if node.op_type != "quantize_linear":
            continue
        key = (tuple(node.inputs), attr(node, "axis"))
        kept = first.setdefault(key, node)
        if kept is not node:
            rename_uses(graph, node.outputs[0], kept.outputs[0])
            del graph.values[node.outputs[0]]
            doomed.append(node)
    remove_nodes(graph, doomed)


def _fuse_quantized_ops(graph: Graph) -> None:
    producers = graph.producers()
    for index, node in enumerate(graph.nodes):
        if node.op_type == "conv2d" and attr(node, "data_format") == "NCHW":
            op_type, channel_axis = "quantized_conv2d", 0
        elif node.op_type == "linear":
            op_type, channel_axis = "quantized_linear", 1
        else:
            continue
        x_dq = producers.get(node.inputs[0])
        if x_dq is None or x_dq.op_type != "dequantize_linear":
            continue
        params = _per_tensor(graph, x_dq)
        if params is None or graph.values[x_dq.inputs[0]].dtype != "int8":
            continue
        weight = _weight(graph, producers.get(node.inputs[1]), channel_axis)
        if weight is None:
            continue
        bias = _bias(graph, node.inputs[2] if len(node.inputs) > 2 else "", producers)
        if bias is None:
            continue
        w_dq = producers[node.inputs[1]]
        attrs = dict(node.attrs)
        graph.nodes[index] = Node(
            op_type,
            [x_dq.inputs[0], x_dq.inputs[1], x_dq.inputs[2], weight, w_dq.inputs[1], bias],
            list(node.outputs),
            attrs,
            node.name,
            node.scope,
        )


def _fuse_requantize(graph: Graph) -> None:
    users = graph.consumers()
    doomed = []
    for node in graph.nodes:
        if node.op_type not in ("quantized_conv2d", "quantized_linear") or len(node.inputs) > 6:
            continue
        q = sole_consumer(graph, node.outputs[0], users)
        if q is None or q.op_type != "quantize_linear" or _per_tensor(graph, q) is None:
            continue
        del graph.values[node.outputs[0]]
        node.inputs = [*node.inputs, q.inputs[1], q.inputs[2]]
        node.outputs = list(q.outputs)
        doomed.append(q)
    remove_nodes(graph, doomed)


def _fuse_pass_through(graph: Graph) -> None:
    producers = graph.producers()
    users = graph.consumers()
    doomed = []
    for node in graph.nodes:
        if node.op_type not in _PASS_THROUGH:
            continue
        if node.op_type == "max_pool2d" and (
            any(int(p) for p in attr(node, "pads")) or attr(node, "data_format") != "NCHW"
        ):
            continue  # the float kernel pads with -inf, which int8 arrays cannot hold
        dq = producers.get(node.inputs[0])
        q = sole_consumer(graph, node.outputs[0], users)
        if dq is None or q is None or dq.op_type != "dequantize_linear":
            continue
        if q.op_type != "quantize_linear":
            continue
        before, after = _per_tensor(graph, dq), _per_tensor(graph, q)
        if before is None or before != after or graph.values[dq.inputs[0]].dtype != "int8":
            continue
        del graph.values[node.outputs[0]]
        node.inputs = [dq.inputs[0], *node.inputs[1:]]
        node.outputs = list(q.outputs)
        doomed.append(q)
    remove_nodes(graph, doomed)
