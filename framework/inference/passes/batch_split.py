"""Whether a graph can run its batch in independent slices (one per core).

A graph is batch-separable when output sample `i` depends on input sample `i` only. That is
decided conservatively from the final graph: every input, output and computed value has a
dynamic leading (batch) dimension and static other dimensions, every op is one known to work
sample by sample (convolutions, pooling, normalisation with fixed statistics, elementwise
maths, linear layers, reshapes keeping each sample's values together, ops along a non-batch
axis), and every weight an elementwise op combines with a batched value broadcasts over the
batch (fewer dimensions, or a leading dimension of 1).

The executor uses it to run a batch as independent slices, one per core.
"""

from __future__ import annotations

import math

from framework.inference.kernels.registry import INPLACE_OPS
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr

# Ops computing each sample from that sample alone (their other inputs are weights).
PER_SAMPLE = frozenset(
    {
        "conv1d",
        "conv2d",
        "conv1d_transpose",
        "conv2d_transpose",
        "group_norm",
        "instance_norm",
        "linear",
        "max_pool1d",
        "max_pool2d",
        "avg_pool1d",
        "avg_pool2d",
        "adaptive_avg_pool2d",
        "adaptive_max_pool2d",
        "identity",
        "gelu",
        "softplus",
        "mish",
        "log_sigmoid",
        "tanhshrink",
        "thresholded_relu",
    }
    | (INPLACE_OPS - {"batch_norm"})
)
ELEMENTWISE = INPLACE_OPS - {"batch_norm"}
# Ops with an `axis` attribute: per sample when that axis is not the batch axis (batch norm
# and prelu: the channel axis their weights run along; layer norm: the first normalised one).
ALONG_AXIS = frozenset({"softmax", "log_softmax", "concat", "batch_norm", "layer_norm", "prelu"})


def batch_separable(graph: Graph) -> bool:
    """Whether every output sample of `graph` depends on the same input sample only."""
    initializers = set(graph.initializers)
    for name in [*graph.inputs, *graph.outputs]:
        if not _batched(graph, name):
            return False
    for node in graph.nodes:
        if not node.inputs or not _per_sample(graph, node):
            return False
        elementwise = node.op_type in ELEMENTWISE
        out_rank = None
        for name in node.outputs:
            if not _batched(graph, name):
                return False
            out_rank = len(graph.values[name].shape)
        for name in node.inputs:
            if not name:
                continue
            if name in initializers:
                shape = graph.tensors[name].shape
                if elementwise and len(shape) == out_rank and shape[0] != 1:
                    return False  # would broadcast against the batch axis itself
            elif not _batched(graph, name):
                return False
    return True


def _batched(graph: Graph, name: str) -> bool:
    value = graph.values.get(name)
    if value is None or not value.shape or value.shape[0] is not None:
        return False
    return all(d is not None for d in value.shape[1:])


def _per_sample(graph: Graph, node: Node) -> bool:
    op = node.op_type
    if op in PER_SAMPLE:
        return True
    if op in ALONG_AXIS:
        axis = attr(node, "axis")
        if axis is None:  # prelu with one slope
            return True
        value = graph.values.get(node.inputs[0])
        return value is not None and int(axis) % max(1, len(value.shape)) != 0
    if op == "reshape":  # sample i's block of values stays row i when the per-sample sizes agree
        before, after = graph.values.get(node.inputs[0]), graph.values.get(node.outputs[0])
        return (
            before is not None
            and after is not None
            and None not in before.shape[1:]
            and None not in after.shape[1:]
            and math.prod(before.shape[1:]) == math.prod(after.shape[1:])
        )
    return False
