"""Bias + activation fusion: an activation that is the only reader of a conv, linear, add or
batch-norm result becomes that op's `activation` attribute, applied in place on its output
buffer right after the bias (one pass over memory fewer, and one buffer fewer)."""

from __future__ import annotations

from framework.inference.passes.rewrite import remove_nodes, sole_consumer
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr

PRODUCERS = {"conv1d", "conv2d", "linear", "add", "batch_norm"}


def activation_spec(node: Node) -> dict | None:
    """The `activation` attribute equivalent to an activation node, or None."""
    op = node.op_type
    if op in ("relu", "hardswish", "sigmoid", "silu"):
        return {"type": op}
    if op == "clip":
        low, high = attr(node, "min"), attr(node, "max")
        return {"type": "clip", "min": low, "max": high}
    if op == "hard_sigmoid":
        return {
            "type": op,
            "slope": float(attr(node, "slope")),
            "offset": float(attr(node, "offset")),
        }
    if op == "leaky_relu":
        return {"type": op, "alpha": float(attr(node, "alpha"))}
    return None


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    users = graph.consumers()
    doomed = []
    for node in graph.nodes:
        if node.op_type not in PRODUCERS or node.attrs.get("activation"):
            continue
        result = node.outputs[0]
        if graph.values[result].dtype not in ("float16", "float32", "float64"):
            continue
        act = sole_consumer(graph, result, users)
        spec = activation_spec(act) if act is not None else None
        if spec is None:
            continue
        node.attrs["activation"] = spec
        del graph.values[result]
        node.outputs = list(act.outputs)
        doomed.append(act)
    remove_nodes(graph, doomed)
    return graph
