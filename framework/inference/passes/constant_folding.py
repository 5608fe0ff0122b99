"""Constant folding: a node whose inputs are all initializers is computed once, here, and its
outputs become constant initializers (for example a weight transposed or scaled in forward).

Folding never makes the model much bigger: a result more than four times the size of its
inputs (a broadcast or a tile of a small constant) is left to run."""

from __future__ import annotations

import numpy as np

from framework.core.backend import to_numpy
from framework.inference.kernels import KernelContext, builder_for
from framework.jit.graph import Graph

_GROWTH_LIMIT = 4
_SMALL = 1 << 16  # bytes under which any growth is fine


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    kept = []
    for node in graph.nodes:
        names = [n for n in node.inputs if n]
        if not names or not all(n in graph.initializers for n in names):
            kept.append(node)
            continue
        arrays = [to_numpy(graph.tensors[n]) if n else None for n in node.inputs]
        static = [a for a in arrays if a is not None]
        ctx = KernelContext(np, None, None, arrays)
        result = builder_for(node.op_type)(node, ctx)(*arrays)
        results = list(result) if isinstance(result, tuple) else [result]
        size_in = max(a.nbytes for a in static)
        if any(r.nbytes > max(_SMALL, _GROWTH_LIMIT * size_in) for r in results):
            kept.append(node)
            continue
        for name, array in zip(node.outputs, results, strict=True):
            del graph.values[name]
            graph.add_initializer(name, np.ascontiguousarray(array), "constant")
    graph.nodes = kept
    return graph
