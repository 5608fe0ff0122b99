"""Tracing `cond` and `while_loop` into graph nodes whose sub-graphs hold the branches / body.

While a trace runs, `framework.static.nn.cond` and `while_loop` land here when their predicate
depends on the graph inputs. Each branch (or the loop's condition and body) runs once on the
tracer, its nodes recorded into a separate list (`Tracer.sub_trace`); the values it reads from
the enclosing code become explicit inputs of the node, so every sub-graph is self-contained
(`framework.jit.subgraph`). The node's outputs are computed for the example input as they
would be at run time: the taken branch's values, or the loop run to its end by the executor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor
from framework.jit import subgraph
from framework.jit.errors import TracingError, location
from framework.jit.graph import Graph
from framework.jit.tracer import Tracer

_SEALED = "a tensor made inside a cond/while_loop branch and not returned by it"


@dataclass
class Branch:
    """One traced sub-graph: its nodes, what it reads from outside, and what it returns."""

    nodes: list
    produced: dict[str, Any]  # value name -> Value, made inside
    captured: list[str]  # outer values it reads, in first-use order
    outputs: list[str]
    structure: Any  # the returned structure, tensors as {"tensor": i}
    leaves: list[Tensor] = field(default_factory=list)


def trace_branch(tracer: Tracer, fn: Callable[[], Any], placeholders: Sequence[str] = ()) -> Branch:
    with tracer.sub_trace() as nodes:
        result = fn()
    leaves: list[Tensor] = []
    structure = flatten(result, leaves)
    outputs = [tracer.name_of(t._data) for t in leaves]
    made = {out for node in nodes for out in node.outputs}
    local = made | set(placeholders)
    captured: list[str] = []
    for name in [n for node in nodes for n in node.inputs] + outputs:
        if name and name not in local and name not in captured:
            captured.append(name)
    produced = {name: tracer.graph.values.pop(name) for name in sorted(made)}
    return Branch(nodes, produced, captured, outputs, structure, leaves)


def build_subgraph(tracer: Tracer, branch: Branch, inputs: Sequence[str], name: str) -> dict:
    graph = Graph(name)
    for input_name in inputs:
        value = tracer.graph.values[input_name]
        graph.add_value(input_name, value.shape, value.dtype)
        graph.inputs.append(input_name)
    graph.values.update(branch.produced)
    graph.nodes = branch.nodes
    graph.outputs = list(branch.outputs)
    return subgraph.to_json(graph)


def trace_cond(tracer: Tracer, pred: Tensor, true_fn: Callable | None, false_fn: Callable | None):
    """A `cond` node for a predicate computed from the inputs; returns the taken branch's
    result (fresh tensors that the node's outputs name)."""
    take = predicate_value(pred, "cond")
    pred_name = tracer.name_of(pred._data)
    branches = [trace_branch(tracer, fn or (lambda: None)) for fn in (true_fn, false_fn)]
    true_b, false_b = branches
    if true_b.structure != false_b.structure:
        raise TracingError(
            "cond: true_fn and false_fn return different structures "
            f"({describe(true_b.structure)} vs {describe(false_b.structure)}) "
            f"{location(tracer.scope)}; both branches must return the same nesting of "
            "tensors (and equal Python values), so the graph knows what the node gives"
        )
    for a, b in zip(true_b.leaves, false_b.leaves, strict=True):
        if a._data.dtype != b._data.dtype or a._data.ndim != b._data.ndim:
            raise TracingError(
                f"cond: a value the branches return is {a._data.dtype} {list(a.shape)} in "
                f"true_fn but {b._data.dtype} {list(b.shape)} in false_fn "
                f"{location(tracer.scope)}; cast or reshape one branch to match the other"
            )
    captured = list(dict.fromkeys(true_b.captured + false_b.captured))
    attrs = {
        "true_graph": build_subgraph(tracer, true_b, captured, "true_graph"),
        "false_graph": build_subgraph(tracer, false_b, captured, "false_graph"),
    }
    for branch in branches:
        tracer.seal(branch.produced, _SEALED)
    chosen = true_b if take else false_b
    results = [Tensor._wrap(fresh(t._data)) for t in chosen.leaves]
    outs = tracer.emit("cond", [pred_name, *captured], attrs, [t._data for t in results])
    for name, a, b in zip(outs, true_b.leaves, false_b.leaves, strict=True):
        tracer.graph.values[name].shape = [
            x if x == y else None for x, y in zip(a.shape, b.shape, strict=True)
        ]
    return unflatten(chosen.structure, results)


def trace_while(tracer: Tracer, cond: Callable, body: Callable, loop_vars: list[Tensor]):
    """A `while_loop` node from the current loop vars; returns the final loop vars."""
    count = len(loop_vars)
    places = [Tensor._wrap(fresh(v._data)) for v in loop_vars]
    for place, var in zip(places, loop_vars, strict=True):
        place.stop_gradient = var.stop_gradient
    names = [tracer.bind_placeholder(p._data, dynamic=True) for p in places]
    cond_b = trace_branch(tracer, lambda: cond(*places), names)
    if len(cond_b.leaves) != 1 or cond_b.structure != {"tensor": 0}:
        raise TracingError(
            f"while_loop: cond must return one bool tensor, got {describe(cond_b.structure)} "
            f"{location(tracer.scope)}"
        )
    body_b = trace_branch(tracer, lambda: as_list(body(*places)), names)
    if len(body_b.leaves) != count or body_b.structure != {
        "list": [{"tensor": i} for i in range(count)]
    }:
        raise TracingError(
            f"while_loop: body must return its {count} loop vars as tensors, got "
            f"{describe(body_b.structure)} {location(tracer.scope)}"
        )
    for index, (var, new) in enumerate(zip(loop_vars, body_b.leaves, strict=True)):
        if var._data.dtype != new._data.dtype or var._data.ndim != new._data.ndim:
            raise TracingError(
                f"while_loop: loop var {index} enters as {var._data.dtype} {list(var.shape)} "
                f"but body returns {new._data.dtype} {list(new.shape)} {location(tracer.scope)};"
                " a loop var must keep its dtype and rank"
            )
        value = tracer.graph.values[names[index]]
        value.shape = [x if x == y else None for x, y in zip(var.shape, new.shape, strict=True)]
    captured = list(dict.fromkeys(c for c in cond_b.captured + body_b.captured if c not in names))
    inputs = [*names, *captured]
    attrs = {
        "num_loop_vars": count,
        "cond_graph": build_subgraph(tracer, cond_b, inputs, "cond_graph"),
        "body_graph": build_subgraph(tracer, body_b, inputs, "body_graph"),
    }
    for branch in (cond_b, body_b):
        tracer.seal(branch.produced, _SEALED)
    for name in names:
        tracer.graph.values.pop(name)
    tracer.seal(names, _SEALED)
    arrays = [v._data for v in loop_vars] + [tracer.array_of(c) for c in captured]
    finals = run_while(attrs, arrays, get_array_module(arrays[0]))
    results = [Tensor._wrap(fresh(a)) for a in finals]
    outer_names = [tracer.name_of(v._data) for v in loop_vars]
    tracer.emit("while_loop", [*outer_names, *captured], attrs, [t._data for t in results])
    return results


def run_while(attrs: dict, arrays: list, xp: Any) -> list:
    """The final loop vars of a while_loop with these attrs, on arrays (the executor)."""
    from framework.inference.kernels import KernelContext, builder_for
    from framework.jit.graph import Node

    node = Node("while_loop", [""] * len(arrays), [""] * attrs["num_loop_vars"], attrs, "trace")
    result = builder_for("while_loop")(node, KernelContext(xp))(*arrays)
    return list(result) if isinstance(result, tuple) else [result]


def predicate_value(pred: Tensor, op: str) -> bool:
    """The bool a one-element predicate holds, read without the tracer's guard."""
    array = np.asarray(to_numpy(pred._data))
    if array.size != 1:
        raise TracingError(
            f"{op}: the predicate must hold one element (shape [] or [1]), got shape "
            f"{list(array.shape)}; reduce it first (`x.all()`, `x.any()`)"
        )
    return bool(array.reshape(-1)[0])


def fresh(array: Any) -> Any:
    return get_array_module(array).array(array, copy=True)


def as_list(value: Any) -> list:
    return list(value) if isinstance(value, tuple | list) else [value]


# --- nested results -----------------------------------------------------------------------------
def flatten(value: Any, leaves: list[Tensor]) -> Any:
    """A JSON-comparable description of `value`: tensors become {"tensor": i} (appended to
    `leaves`); containers recurse; other values stand for themselves."""
    if isinstance(value, Tensor):
        leaves.append(value)
        return {"tensor": len(leaves) - 1}
    if isinstance(value, tuple | list):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {kind: [flatten(item, leaves) for item in value]}
    if isinstance(value, dict):
        return {"dict": {key: flatten(item, leaves) for key, item in value.items()}}
    return {"python": value}


def unflatten(structure: Any, leaves: Sequence[Tensor]) -> Any:
    if "tensor" in structure:
        return leaves[structure["tensor"]]
    if "tuple" in structure:
        return tuple(unflatten(s, leaves) for s in structure["tuple"])
    if "list" in structure:
        return [unflatten(s, leaves) for s in structure["list"]]
    if "dict" in structure:
        return {k: unflatten(s, leaves) for k, s in structure["dict"].items()}
    return structure["python"]


def describe(structure: Any) -> str:
    if "tensor" in structure:
        return "Tensor"
    for kind in ("tuple", "list"):
        if kind in structure:
            return f"{kind}[{', '.join(describe(s) for s in structure[kind])}]"
    if "dict" in structure:
        return (
            "dict{" + ", ".join(f"{k}: {describe(s)}" for k, s in structure["dict"].items()) + "}"
        )
    return repr(structure["python"])
