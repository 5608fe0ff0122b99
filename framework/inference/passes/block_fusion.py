"""Inverted-residual fusion: a 1x1 convolution whose result only feeds a depthwise one, whose
result only feeds another 1x1 convolution (MobileNetV2's block body), becomes one
`inverted_residual` node run by `kernels/inverted_residual.py`, which keeps the wide
intermediate tensors in cache.

The executor applies this on the CPU when weights are prepared (initializers), after the
graph passes: the fused op has no schema of its own, so it never appears in a saved or
validated graph. The nodes' activations (fused by `activation_fusion`) are kept.
"""

from __future__ import annotations

from framework.inference.kernels.inverted_residual import OP_TYPE
from framework.inference.passes.rewrite import sole_consumer
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr


def run(graph: Graph) -> Graph:
    """`graph` with its fusable chains fused (a new graph), or `graph` itself when none."""
    original, graph = graph, graph.copy()  # the arrays are shared; nodes and values are new
    users = graph.consumers()
    chains: dict[int, tuple[Node, Node, Node]] = {}
    taken: set[int] = set()
    for expand in graph.nodes:
        if id(expand) in taken or not _pointwise(graph, expand):
            continue
        dw = sole_consumer(graph, expand.outputs[0], users)
        if dw is None or not _depthwise(graph, dw, expand):
            continue
        project = sole_consumer(graph, dw.outputs[0], users)
        if project is None or not _pointwise(graph, project) or project.inputs[0] != dw.outputs[0]:
            continue
        chains[id(project)] = (expand, dw, project)
        taken.update((id(expand), id(dw), id(project)))
    if not chains:
        return original
    nodes = []
    for node in graph.nodes:
        if id(node) in taken and id(node) not in chains:
            continue
        if id(node) not in chains:
            nodes.append(node)
            continue
        expand, dw, project = chains[id(node)]
        nodes.append(
            Node(
                OP_TYPE,
                [
                    expand.inputs[0],
                    *_weights(expand),
                    *_weights(dw),
                    *_weights(project),
                ],
                list(project.outputs),
                {"expand": expand, "depthwise": dw, "project": project},
                name=f"{expand.name}+{dw.name}+{project.name}",
                scope=project.scope,
            )
        )
        for value in (expand.outputs[0], dw.outputs[0]):
            graph.values.pop(value, None)
    graph.nodes = nodes
    return graph


def _weights(node: Node) -> list[str]:
    return [node.inputs[1], node.inputs[2] if len(node.inputs) > 2 else ""]


def _conv2d_with_static_weights(graph: Graph, node: Node) -> bool:
    return (
        node.op_type == "conv2d"
        and len(node.outputs) == 1
        and attr(node, "data_format") == "NCHW"
        and node.inputs[1] in graph.initializers
        and (len(node.inputs) < 3 or not node.inputs[2] or node.inputs[2] in graph.initializers)
        and node.inputs[0] not in graph.initializers
        and graph.values.get(node.outputs[0]) is not None
        and graph.values[node.outputs[0]].dtype in ("float32", "float64")
    )


def _pointwise(graph: Graph, node: Node) -> bool:
    if not _conv2d_with_static_weights(graph, node) or int(attr(node, "groups")) != 1:
        return False
    weight = graph.tensors[node.inputs[1]]
    return (
        weight.ndim == 4
        and weight.shape[2:] == (1, 1)
        and [int(s) for s in attr(node, "strides")] == [1, 1]
        and not any(int(p) for p in attr(node, "pads"))
    )


def _depthwise(graph: Graph, node: Node, expand: Node) -> bool:
    if not _conv2d_with_static_weights(graph, node) or node.inputs[0] != expand.outputs[0]:
        return False
    weight = graph.tensors[node.inputs[1]]
    hidden = graph.tensors[expand.inputs[1]].shape[0]
    return (
        weight.ndim == 4 and weight.shape[:2] == (hidden, 1) and int(attr(node, "groups")) == hidden
    )
