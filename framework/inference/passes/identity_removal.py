"""Identity removal: ops that return their input unchanged (identity, dropout at inference
folded to `scale(1, 0)`, a cast to the same dtype, a transpose by the identity permutation,
a reshape to the same static shape) are cut out and their readers read the input."""

from __future__ import annotations

from framework.inference.passes.rewrite import drop_value, rename_uses
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr


def is_identity(graph: Graph, node: Node) -> bool:
    op = node.op_type
    if op == "identity":
        return True
    if op == "scale":
        return attr(node, "scale") == 1.0 and attr(node, "bias") == 0.0
    source = graph.values.get(node.inputs[0]) if node.inputs else None
    if source is None:
        return False
    if op == "cast":
        return source.dtype == attr(node, "dtype")
    if op == "transpose":
        return list(attr(node, "perm")) == list(range(len(source.shape)))
    if op == "reshape":
        target = graph.values[node.outputs[0]].shape
        return source.is_static and list(source.shape) == list(target)
    return False


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    producers = graph.producers()
    kept = []
    for node in graph.nodes:
        if not is_identity(graph, node):
            kept.append(node)
            continue
        source, result = node.inputs[0], node.outputs[0]
        if result not in graph.outputs:
            rename_uses(graph, result, source)
            drop_value(graph, result)
            continue
        # The result is a graph output: keep its name by renaming the source's producer.
        producer = producers.get(source)
        readers = [n for n in graph.nodes if source in n.inputs]
        if producer is None or source in graph.outputs or len(readers) != 1:
            kept.append(node)
            continue
        producer.outputs = [result if n == source else n for n in producer.outputs]
        graph.values[result].shape = list(graph.values[source].shape)
        drop_value(graph, source)
    graph.nodes = kept
    return graph
