"""Dead-code elimination: drop nodes whose results no graph output needs, then the values and
initializers nothing reads any more."""

from __future__ import annotations

from framework.jit.graph import Graph


def run(graph: Graph) -> Graph:
    graph = graph.copy()
    live = set(graph.outputs)
    kept = []
    for node in reversed(graph.nodes):
        if any(name in live for name in node.outputs):
            kept.append(node)
            live.update(name for name in node.inputs if name)
    graph.nodes = kept[::-1]
    for name in list(graph.initializers):
        if name not in live:
            graph.remove_initializer(name)
    produced = {name for node in graph.nodes for name in node.outputs}
    keep_values = produced | set(graph.inputs) | set(graph.initializers) | set(graph.outputs)
    graph.values = {k: v for k, v in graph.values.items() if k in keep_values}
    return graph
