"""`cond` -> ONNX If and `while_loop` -> ONNX Loop, their sub-graphs exported as ONNX graphs.

ONNX sub-graphs read the enclosing graph's values by name, so a sub-graph's captured inputs
are renamed to the values the node passes (constants get their own copy inside, where the
op handlers can fold them). A while_loop's condition runs once before the Loop (on the initial
loop vars) and again at the end of each body iteration (on the new ones), ONNX Loop's
`cond` protocol; the copies get suffixed value names, as ONNX wants every name defined once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.jit import subgraph
from framework.jit.graph import Graph, Node
from framework.onnx.errors import OnnxExportError
from framework.onnx.export.context import ExportContext
from framework.onnx.export.exporter import _HANDLERS, _value_info, exports
from framework.onnx.proto import GraphProto


def _nested(ctx: ExportContext, sub: Graph, binds: dict[str, str], tag: str) -> tuple:
    """`sub`'s nodes re-named for export inside `ctx`'s graph: sub-graph inputs in `binds` take
    the outer ONNX names (constants a fresh copy), values made inside get `tag` appended.
    Returns the graph to export and the map {sub-graph name: exported name}."""
    rename: dict[str, str] = {}
    graph = Graph(sub.name)
    for name in sub.inputs:
        value = sub.values[name]
        outer = binds.get(name)
        if outer is None:  # a formal input (a loop var): keeps its name
            rename[name] = name + tag
            graph.add_value(name + tag, value.shape, value.dtype)
            graph.inputs.append(name + tag)
        elif ctx.is_initializer(outer):
            copy = ctx.fresh(f"{outer}{tag}")  # one copy per sub-graph input
            rename[name] = copy
            graph.add_initializer(copy, ctx.array(outer), "constant")
        else:
            rename[name] = outer
            if outer not in graph.values:  # one outer value may feed several inputs
                graph.add_value(outer, ctx.shape(outer), ctx.dtype(outer))
    for node in sub.nodes:
        for out in node.outputs:
            rename[out] = ctx.fresh(out + tag)
            value = sub.values[out]
            graph.add_value(rename[out], value.shape, value.dtype)
        graph.nodes.append(
            node.copy(
                inputs=[rename.get(n, n) for n in node.inputs],
                outputs=[rename[n] for n in node.outputs],
                name=node.name + tag,
            )
        )
    graph.outputs = [rename[n] for n in sub.outputs]
    return graph, rename


def _emit(ctx: ExportContext, graph: Graph) -> None:
    for node in graph.nodes:
        handler = _HANDLERS.get(node.op_type)
        if handler is None:
            raise OnnxExportError(node.op_type)
        ctx.begin(node)
        handler(ctx, node, [ctx.use(name) for name in node.inputs])


def _child(ctx: ExportContext, graph: Graph) -> ExportContext:
    child = ExportContext(graph, ctx.opset)
    child._taken = ctx._taken  # names stay unique across the whole model
    return child


def _proto(child: ExportContext, graph: Graph, outputs: Sequence[str], name: str) -> GraphProto:
    """The ONNX graph of an exported sub-graph; outputs not made inside get an Identity."""
    made = {out for node in child.nodes for out in node.outputs}
    names = []
    for out in outputs:
        if out not in made or out in names:
            alias = child.fresh(f"{out}_out")
            child.add("Identity", [out], [alias])
            child.describe(alias, child.shape(out), child.dtype(out))
            out = alias
        names.append(out)
    return GraphProto(
        name=name,
        nodes=child.nodes,
        inputs=[_value_info(child, n) for n in graph.inputs],
        outputs=[_value_info(child, n) for n in names],
        initializers=child.initializers,
    )


def _branch(ctx: ExportContext, node: Node, key: str, captured: list[str]) -> GraphProto:
    sub = subgraph.to_graph(node.attrs[key])
    graph, _ = _nested(ctx, sub, dict(zip(sub.inputs, captured, strict=True)), f"/{key}")
    child = _child(ctx, graph)
    _emit(child, graph)
    return _proto(child, graph, graph.outputs, f"{node.name}_{key}")


@exports("cond")
def _cond(ctx: ExportContext, node: Node, inputs: list[str]) -> None:
    pred, *captured = inputs
    if ctx.dtype(pred) != np.bool_:
        pred = ctx.cast(pred, np.bool_)
    then_branch = _branch(ctx, node, "true_graph", captured)
    else_branch = _branch(ctx, node, "false_graph", captured)
    ctx.add("If", [pred], node.outputs, then_branch=then_branch, else_branch=else_branch)


@exports("while_loop")
def _while_loop(ctx: ExportContext, node: Node, inputs: list[str]) -> None:
    count = int(node.attrs["num_loop_vars"])
    initial, captured = inputs[:count], inputs[count:]
    cond_sub = subgraph.to_graph(node.attrs["cond_graph"])
    body_sub = subgraph.to_graph(node.attrs["body_graph"])
    loop_vars = body_sub.inputs[:count]
    reads = dict(zip(body_sub.inputs[count:], captured, strict=True))
    # The first test, on the initial values, in the enclosing graph.
    first, _ = _nested(ctx, cond_sub, {**dict(zip(loop_vars, initial, strict=True)), **reads},
                       "/first_test")  # fmt: skip
    for name in first.values:
        if name not in ctx._info:
            ctx.describe(name, first.values[name].shape, first.values[name].dtype)
    for name, array in first.tensors.items():
        ctx.initializers[name] = np.asarray(array)
    _emit(ctx, first)
    # The body, then the test on its results.
    body, inside = _nested(ctx, body_sub, reads, "/body")
    child = _child(ctx, body)
    _emit(child, body)
    binds = dict(zip(loop_vars, body.outputs, strict=True))
    binds.update({name: inside[name] for name in reads})
    test, _ = _nested(child, cond_sub, binds, "/next_test")
    for name in test.values:
        if name not in child._info:
            child.describe(name, test.values[name].shape, test.values[name].dtype)
    for name, array in test.tensors.items():
        child.initializers[name] = np.asarray(array)
    _emit(child, test)
    iteration, keep_going = ctx.fresh(f"{node.name}/iteration"), ctx.fresh(f"{node.name}/cond")
    child.describe(iteration, [], np.int64)
    child.describe(keep_going, [], np.bool_)
    body.inputs = [iteration, keep_going, *body.inputs]
    proto = _proto(child, body, [test.outputs[0], *body.outputs], f"{node.name}_body")
    ctx.add("Loop", ["", first.outputs[0], *initial], node.outputs, body=proto)
