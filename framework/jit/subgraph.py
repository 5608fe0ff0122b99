"""Sub-graphs: the bodies of control-flow nodes (`cond`, `while_loop`), kept in node attributes.

A sub-graph is a JSON object in a node's attrs, so the graph stays one JSON document:

    {"inputs": [{"name": "x", "shape": [null, 4], "dtype": "float32"}, ...],
     "outputs": ["v12", ...],
     "values": [{"name": "v12", "shape": [null, 4], "dtype": "float32"}, ...],
     "nodes": [{"name": "relu_0", "op_type": "relu", ...}, ...]}

Its inputs bind, by position, to the values the control-flow node passes it (see the op's
schema); it reads nothing else, so a sub-graph runs on its own (`to_graph`) with the same
executor, replay and passes as a whole model. Outputs may name inputs directly (a branch that
returns a value it was given).
"""

from __future__ import annotations

from framework.jit.graph import Graph, Node

# op type -> the attrs holding its sub-graphs
SUBGRAPH_ATTRS: dict[str, tuple[str, ...]] = {
    "cond": ("true_graph", "false_graph"),
    "while_loop": ("cond_graph", "body_graph"),
}


def to_json(graph: Graph) -> dict:
    """The sub-graph form of `graph` (which has no initializers)."""
    produced = {out for node in graph.nodes for out in node.outputs}
    return {
        "inputs": [graph.values[n].to_json() for n in graph.inputs],
        "outputs": list(graph.outputs),
        "values": [v.to_json() for n, v in graph.values.items() if n in produced],
        "nodes": [node.to_json() for node in graph.nodes],
    }


def to_graph(doc: dict, name: str = "subgraph") -> Graph:
    """A runnable Graph from a sub-graph attribute (built once per attribute object)."""
    graph = Graph(name)
    for entry in doc["inputs"]:
        graph.add_value(entry["name"], entry["shape"], entry["dtype"])
        graph.inputs.append(entry["name"])
    for entry in doc["values"]:
        graph.add_value(entry["name"], entry["shape"], entry["dtype"])
    for entry in doc["nodes"]:
        graph.nodes.append(
            Node(
                entry["op_type"],
                list(entry["inputs"]),
                list(entry["outputs"]),
                dict(entry.get("attrs", {})),
                entry["name"],
                entry.get("scope", ""),
            )
        )
    graph.outputs = list(doc["outputs"])
    return graph


def subgraphs(node: Node) -> dict[str, Graph]:
    """The sub-graphs of a control-flow node by attr name ({} for other ops)."""
    return {key: to_graph(node.attrs[key], f"{node.name}.{key}") for key in attrs_of(node)}


def attrs_of(node: Node) -> tuple[str, ...]:
    return SUBGRAPH_ATTRS.get(node.op_type, ())


def validate(node: Node) -> None:
    """Check a control-flow node's sub-graphs: each well formed, inputs and outputs matching
    the node's (see the op schemas)."""
    for key, sub in subgraphs(node).items():
        try:
            sub.validate()
        except ValueError as error:
            raise ValueError(f"node {node.name} ({node.op_type}) {key}: {error}") from None
        if node.op_type == "cond":
            want_in, want_out = len(node.inputs) - 1, len(node.outputs)
        else:
            want_in = len(node.inputs)
            want_out = 1 if key == "cond_graph" else int(node.attrs.get("num_loop_vars", 0))
        if len(sub.inputs) != want_in or len(sub.outputs) != want_out:
            raise ValueError(
                f"node {node.name} ({node.op_type}) {key} takes {len(sub.inputs)} inputs and "
                f"gives {len(sub.outputs)} outputs; the node needs {want_in} and {want_out}"
            )
    if node.op_type == "while_loop":
        count = node.attrs.get("num_loop_vars")
        if not isinstance(count, int) or not 0 < count <= len(node.inputs):
            raise ValueError(f"node {node.name} (while_loop) has a bad num_loop_vars {count!r}")
        if len(node.outputs) != count:
            raise ValueError(f"node {node.name} (while_loop) must give its {count} loop vars")
