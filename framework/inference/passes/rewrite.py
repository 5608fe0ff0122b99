"""Small graph-editing helpers shared by the passes."""

from __future__ import annotations

from framework.jit.graph import Graph, Node


def rename_uses(graph: Graph, old: str, new: str) -> None:
    """Every read of value `old` (by nodes and as a graph output) reads `new` instead."""
    for node in graph.nodes:
        if old in node.inputs:
            node.inputs = [new if name == old else name for name in node.inputs]
    graph.outputs = [new if name == old else name for name in graph.outputs]


def sole_consumer(graph: Graph, name: str, users: dict[str, list[Node]]) -> Node | None:
    """The one node reading `name`, when exactly one does and it is not a graph output."""
    readers = users.get(name, [])
    if len(readers) != 1 or name in graph.outputs:
        return None
    return readers[0]


def is_initializer(graph: Graph, name: str) -> bool:
    return name in graph.initializers


def remove_nodes(graph: Graph, doomed: list[Node]) -> None:
    ids = {id(node) for node in doomed}
    graph.nodes = [node for node in graph.nodes if id(node) not in ids]


def drop_value(graph: Graph, name: str) -> None:
    if name not in graph.initializers:
        graph.values.pop(name, None)
