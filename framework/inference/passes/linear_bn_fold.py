"""Linear + BatchNorm folding: `batch_norm(x @ W + b)` over the feature axis of a 2-D result
is `x @ (W * a) + (b * a + c)` (see `conv_bn_fold` for a and c)."""

from __future__ import annotations

import numpy as np

from framework.core.backend import to_numpy
from framework.inference.passes.conv_bn_fold import bn_affine
from framework.inference.passes.rewrite import remove_nodes, sole_consumer
from framework.jit.graph import Graph
from framework.jit.op_schema import attr


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    users = graph.consumers()
    doomed = []
    for linear in graph.nodes:
        if linear.op_type != "linear" or linear.attrs.get("activation"):
            continue
        if len(graph.values[linear.outputs[0]].shape) != 2:
            continue
        bn = sole_consumer(graph, linear.outputs[0], users)
        if bn is None or bn.op_type != "batch_norm" or bn.attrs.get("activation"):
            continue
        if int(attr(bn, "axis")) % 2 != 1:
            continue
        weight = linear.inputs[1]
        bias = linear.inputs[2] if len(linear.inputs) > 2 else ""
        if weight not in graph.initializers or (bias and bias not in graph.initializers):
            continue
        affine = bn_affine(graph, bn)
        if affine is None:
            continue
        a, c = affine
        w = to_numpy(graph.tensors[weight])
        b = to_numpy(graph.tensors[bias]).astype(np.float64) if bias else 0.0
        w_name = graph.unique_name(f"{linear.name}.folded_weight")
        graph.add_initializer(w_name, (w.astype(np.float64) * a).astype(w.dtype), "constant")
        b_name = graph.unique_name(f"{linear.name}.folded_bias")
        graph.add_initializer(b_name, (b * a + c).astype(w.dtype), "constant")
        del graph.values[linear.outputs[0]]
        linear.inputs = [linear.inputs[0], w_name, b_name]
        linear.outputs = list(bn.outputs)
        doomed.append(bn)
    remove_nodes(graph, doomed)
    return graph
