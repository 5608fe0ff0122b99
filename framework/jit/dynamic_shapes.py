"""Merging two traces of one model into a graph that runs at any size of its dynamic dims.

Both traces must record the same ops, wired the same way, with the same constants. Value
shapes that differ become None. Attributes that differ followed a dynamic dimension: a few
ops can express that (`reshape` with 0 = "copy the input dim" and -1 = "infer", `expand` with
-1 = "keep"), everything else is reported, naming the op, its layer and the attribute.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from framework.core.backend import to_numpy
from framework.jit.errors import GraphDivergenceError, location
from framework.jit.graph import Graph, Node


def merge_traces(a: Graph, b: Graph, input_shapes: list[list[int | None]]) -> Graph:
    """`a` with dynamic dims as None and shape attributes generalised; raises on divergence."""
    _check_same_ops(a, b)
    _check_same_constants(a, b)
    merged = a.copy()
    for node, other in zip(merged.nodes, b.nodes, strict=True):
        differing = [k for k in node.attrs if other.attrs.get(k) != node.attrs[k]]
        if not differing:
            continue
        rule = _GENERALISE.get(node.op_type)
        new = rule(node, other, a, b) if rule is not None else None
        unresolved = [k for k in differing if new is None or k not in new]
        if unresolved:
            key = unresolved[0]
            raise _attribute_error(node, key, node.attrs[key], other.attrs.get(key), a, b)
        node.attrs.update(new)
    for name, value in merged.values.items():
        shape_b = b.values[name].shape
        value.shape = [
            da if da == db else None for da, db in zip(value.shape, shape_b, strict=True)
        ]
    for name, shape in zip(merged.inputs, input_shapes, strict=True):
        merged.values[name].shape = [
            None if s is None else d for d, s in zip(merged.values[name].shape, shape, strict=True)
        ]
    merged.metadata["traced_input_shapes"] = [
        [a.values[n].shape for n in a.inputs],
        [b.values[n].shape for n in b.inputs],
    ]
    return merged


def _check_same_ops(a: Graph, b: Graph) -> None:
    for index in range(max(len(a.nodes), len(b.nodes))):
        na = a.nodes[index] if index < len(a.nodes) else None
        nb = b.nodes[index] if index < len(b.nodes) else None
        if na is not None and nb is not None and _same_structure(na, nb, a, b):
            continue
        first = _describe(na)
        second = _describe(nb)
        raise GraphDivergenceError(
            f"tracing twice (input shapes {_shapes(a)} and {_shapes(b)}, different values) "
            f"recorded different ops: op #{index} is {first} in the first trace and {second} "
            "in the second. Python control flow in the model depends on the input's values or "
            "on a dimension declared dynamic (e.g. `if x.shape[0] > 1:` or a loop over a "
            "size). Rewrite it with tensor ops, make the dimension static in the InputSpec, or "
            "run this model eagerly."
        )
    if a.outputs != b.outputs:
        raise GraphDivergenceError(
            f"tracing twice returned different outputs ({a.outputs} vs {b.outputs})"
        )


def _same_structure(na: Node, nb: Node, a: Graph, b: Graph) -> bool:
    if na.op_type != nb.op_type or na.inputs != nb.inputs or len(na.outputs) != len(nb.outputs):
        return False
    return all(
        len(a.values[x].shape) == len(b.values[y].shape)
        for x, y in zip(na.outputs, nb.outputs, strict=True)
    )


def _check_same_constants(a: Graph, b: Graph) -> None:
    if set(a.initializers) != set(b.initializers):
        raise GraphDivergenceError("tracing twice captured different constants")
    users = a.consumers()
    for name, init in a.initializers.items():
        if init.kind != "constant":
            continue
        va, vb = to_numpy(a.tensors[name]), to_numpy(b.tensors[name])
        if va.shape == vb.shape and np.array_equal(va, vb, equal_nan=va.dtype.kind == "f"):
            continue
        readers = users.get(name, [])
        where = (
            f"read by op {readers[0].op_type} {location(readers[0].scope)}" if readers else "unused"
        )
        raise GraphDivergenceError(
            f"a tensor that no recorded op computes ({name}, shape {list(va.shape)}, {where}) "
            "differs between two traces with different inputs: it was derived from the inputs "
            "outside the tracer's view (bitwise ops on integers, topk/argsort indices, "
            "`zeros_like(x)`, `to_tensor(x.numpy())`, shapes from `x.shape` turned into "
            "tensors) or is "
            "random (dropout in training mode, `randn` in forward). Use recorded ops instead, "
            "or call layer.eval()."
        )


def _attribute_error(node: Node, key: str, value, other, a: Graph, b: Graph):
    return GraphDivergenceError(
        f"op {node.op_type} {location(node.scope)} has {key}={value} when traced with input "
        f"shapes {_shapes(a)} but {key}={other} with {_shapes(b)}: it depends on a dimension "
        "declared dynamic (None in the InputSpec). Make that dimension static, or compute the "
        "size with -1 (e.g. `reshape(x, [-1, 512])`, `flatten(x, 1)`)."
    )


def _describe(node: Node | None) -> str:
    if node is None:
        return "missing"
    return f"{node.op_type} {location(node.scope)}"


def _shapes(graph: Graph) -> list:
    return [graph.values[n].shape for n in graph.inputs]


# --- attribute rules ----------------------------------------------------------------------------
def _reshape(node: Node, other: Node, a: Graph, b: Graph) -> dict | None:
    target_a, target_b = node.attrs["shape"], other.attrs["shape"]
    if len(target_a) != len(target_b):
        return None
    in_a, in_b = a.values[node.inputs[0]].shape, b.values[other.inputs[0]].shape
    shape = []
    for i, (da, db) in enumerate(zip(target_a, target_b, strict=True)):
        if da == db:
            shape.append(da)
        elif i < len(in_a) and in_a[i] == da and in_b[i] == db:
            shape.append(0)
        else:
            shape.append(-1)
    if shape.count(-1) > 1:
        return None
    return {"shape": shape}


def _expand(node: Node, other: Node, a: Graph, b: Graph) -> dict | None:
    target_a, target_b = node.attrs["shape"], other.attrs["shape"]
    in_a, in_b = a.values[node.inputs[0]].shape, b.values[other.inputs[0]].shape
    if len(target_a) != len(target_b):
        return None
    offset = len(target_a) - len(in_a)
    shape = []
    for i, (da, db) in enumerate(zip(target_a, target_b, strict=True)):
        if da == db:
            shape.append(da)
        elif i >= offset and in_a[i - offset] == da and in_b[i - offset] == db:
            shape.append(-1)
        else:
            return None
    return {"shape": shape}


def _control_flow(node: Node, other: Node, a: Graph, b: Graph) -> dict | None:
    """Sub-graphs traced at two sizes, merged as whole graphs are."""
    from framework.jit import subgraph

    merged = {}
    for key in subgraph.attrs_of(node):
        if node.attrs[key] == other.attrs[key]:
            continue
        sub_a = subgraph.to_graph(node.attrs[key])
        sub_b = subgraph.to_graph(other.attrs[key])
        if len(sub_a.inputs) != len(sub_b.inputs):
            return None
        shapes = [
            [x if x == y else None for x, y in zip(sa, sb, strict=True)]
            for sa, sb in zip(_shapes(sub_a), _shapes(sub_b), strict=True)
        ]
        result = merge_traces(sub_a, sub_b, shapes)
        result.metadata.clear()
        merged[key] = subgraph.to_json(result)
    return merged


_GENERALISE: dict[str, Callable] = {
    "reshape": _reshape,
    "expand": _expand,
    "cond": _control_flow,
    "while_loop": _control_flow,
}
