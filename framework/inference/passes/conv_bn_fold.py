"""Conv + BatchNorm folding: `batch_norm(conv(x, w, b))` with running statistics is
`conv(x, w * a, b * a + c)` per output channel, where `a = gamma / sqrt(var + eps)` and
`c = beta - mean * a`. The batch norm disappears; the folded weights are new constants (the
original parameters are left untouched, so the source graph stays valid)."""

from __future__ import annotations

import numpy as np

from framework.core.backend import to_numpy
from framework.inference.passes.rewrite import remove_nodes, sole_consumer
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr

_CHANNEL_AXIS = {"NCHW": 1, "NCL": 1, "NHWC": -1, "NLC": -1}


def bn_affine(graph: Graph, bn: Node) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-channel (a, c) of an inference batch norm whose parameters are initializers."""
    _, scale, bias, mean, var = (bn.inputs + ["", "", "", ""])[:5]
    for name in (scale, bias, mean, var):
        if name and name not in graph.initializers:
            return None
    if not mean or not var:
        return None
    get = lambda name: to_numpy(graph.tensors[name]).astype(np.float64)  # noqa: E731
    a = 1.0 / np.sqrt(get(var) + float(attr(bn, "epsilon")))
    if scale:
        a = a * get(scale)
    c = -get(mean) * a
    if bias:
        c = c + get(bias)
    return a, c


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    users = graph.consumers()
    doomed = []
    for conv in graph.nodes:
        if conv.op_type not in ("conv1d", "conv2d") or conv.attrs.get("activation"):
            continue
        bn = sole_consumer(graph, conv.outputs[0], users)
        if bn is None or bn.op_type != "batch_norm" or bn.attrs.get("activation"):
            continue
        rank = len(graph.values[conv.outputs[0]].shape)
        if int(attr(bn, "axis")) % rank != _CHANNEL_AXIS[attr(conv, "data_format")] % rank:
            continue
        weight = conv.inputs[1]
        bias = conv.inputs[2] if len(conv.inputs) > 2 else ""
        if weight not in graph.initializers or (bias and bias not in graph.initializers):
            continue
        affine = bn_affine(graph, bn)
        if affine is None:
            continue
        a, c = affine
        w = to_numpy(graph.tensors[weight])
        folded_w = (w.astype(np.float64) * a.reshape(-1, *([1] * (w.ndim - 1)))).astype(w.dtype)
        b = to_numpy(graph.tensors[bias]).astype(np.float64) if bias else 0.0
        folded_b = (b * a + c).astype(w.dtype)
        w_name = graph.unique_name(f"{conv.name}.folded_weight")
        graph.add_initializer(w_name, folded_w, "constant")
        b_name = graph.unique_name(f"{conv.name}.folded_bias")
        graph.add_initializer(b_name, folded_b, "constant")
        del graph.values[conv.outputs[0]]
        conv.inputs = [conv.inputs[0], w_name, b_name]
        conv.outputs = list(bn.outputs)
        doomed.append(bn)
    remove_nodes(graph, doomed)
    return graph
