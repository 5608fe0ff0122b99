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


class UndefinedVar:
    """A variable a transcribed function has not assigned yet (`framework.jit.dy2static`).
    A branch that leaves it undefined makes the cond's output undefined too."""

    def __repr__(self) -> str:
        return "UNDEFINED"


UNDEFINED = UndefinedVar()


@dataclass
class Branch:
    """One traced sub-graph: its nodes, the values made inside, and what it returned."""

    nodes: list
    produced: dict[str, Any]  # value name -> Value, made inside
    structure: Any  # the returned structure, tensors as {"tensor": i}
    leaves: list[Tensor] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)  # outer values read, in first-use order

    def close(self, outputs: Sequence[str], placeholders: Sequence[str] = ()) -> None:
        """Fix the output names; what the branch reads from outside follows from them."""
        self.outputs = list(outputs)
        local = {out for node in self.nodes for out in node.outputs} | set(placeholders)
        captured: list[str] = []
        for name in [n for node in self.nodes for n in node.inputs] + self.outputs:
            if name and name not in local and name not in captured:
                captured.append(name)
        self.captured = captured


def trace_branch(tracer: Tracer, fn: Callable[[], Any]) -> Branch:
    with tracer.sub_trace() as nodes:
        result = fn()
    leaves: list[Tensor] = []
    structure = flatten(result, leaves)
    made = sorted({out for node in nodes for out in node.outputs})
    produced = {name: tracer.graph.values.pop(name) for name in made}
    return Branch(nodes, produced, structure, leaves)


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
    true_b, false_b = (trace_branch(tracer, fn or (lambda: None)) for fn in (true_fn, false_fn))
    pairs: list[tuple[Tensor, Tensor]] = []
    structure = _pair(true_b.structure, false_b.structure, true_b, false_b, pairs, tracer)
    true_b.close([tracer.name_of(a._data) for a, _ in pairs])
    false_b.close([tracer.name_of(b._data) for _, b in pairs])
    captured = list(dict.fromkeys(true_b.captured + false_b.captured))
    attrs = {
        "true_graph": build_subgraph(tracer, true_b, captured, "true_graph"),
        "false_graph": build_subgraph(tracer, false_b, captured, "false_graph"),
    }
    for branch in (true_b, false_b):
        tracer.seal(branch.produced)
    results = [Tensor._wrap(fresh((a if take else b)._data)) for a, b in pairs]
    outs = tracer.emit("cond", [pred_name, *captured], attrs, [t._data for t in results])
    for name, (a, b) in zip(outs, pairs, strict=True):
        tracer.graph.values[name].shape = [
            x if x == y else None for x, y in zip(a.shape, b.shape, strict=True)
        ]
    return unflatten(structure, results)


def _pair(sa: Any, sb: Any, ta: Branch, tb: Branch, pairs: list, tracer: Tracer) -> Any:
    """The cond's result structure from both branches' ones; each tensor output becomes a pair
    (true side, false side). Python numbers that differ, or face a tensor, become constants."""
    if "tensor" in sa and "tensor" in sb:
        a, b = ta.leaves[sa["tensor"]], tb.leaves[sb["tensor"]]
        if a._data.dtype != b._data.dtype or a._data.ndim != b._data.ndim:
            raise TracingError(
                f"cond: a value the branches return is {a._data.dtype} {list(a.shape)} in "
                f"true_fn but {b._data.dtype} {list(b.shape)} in false_fn "
                f"{location(tracer.scope)}; cast or reshape one branch to match the other"
            )
        pairs.append((a, b))
        return {"tensor": len(pairs) - 1}
    if sa.get("python", None) is UNDEFINED or sb.get("python", None) is UNDEFINED:
        return {"python": UNDEFINED}
    if "python" in sa and "python" in sb and type(sa["python"]) is type(sb["python"]):
        if sa["python"] == sb["python"]:
            return sa
    numbers = [_number(sa), _number(sb)]
    if all(n is not None for n in numbers):
        dtype = np.result_type(*[n.dtype for n in numbers])
        pairs.append(tuple(Tensor._wrap(n.astype(dtype)) for n in numbers))
        return {"tensor": len(pairs) - 1}
    if "tensor" in sa and numbers[1] is not None or "tensor" in sb and numbers[0] is not None:
        a = ta.leaves[sa["tensor"]] if "tensor" in sa else None
        b = tb.leaves[sb["tensor"]] if "tensor" in sb else None
        tensor = a if a is not None else b
        if tensor._data.ndim == 0:  # the Python number becomes a constant of the same dtype
            number = Tensor._wrap(numbers[0 if a is None else 1].astype(tensor._data.dtype))
            pairs.append((number if a is None else a, number if b is None else b))
            return {"tensor": len(pairs) - 1}
    for kind in ("tuple", "list"):
        if kind in sa and kind in sb and len(sa[kind]) == len(sb[kind]):
            items = [
                _pair(x, y, ta, tb, pairs, tracer) for x, y in zip(sa[kind], sb[kind], strict=True)
            ]
            return {kind: items}
    if "dict" in sa and "dict" in sb and sa["dict"].keys() == sb["dict"].keys():
        items = {k: _pair(sa["dict"][k], sb["dict"][k], ta, tb, pairs, tracer) for k in sa["dict"]}
        return {"dict": items}
    raise TracingError(
        f"cond: true_fn returns {describe(sa)} where false_fn returns {describe(sb)} "
        f"{location(tracer.scope)}; both branches must return the same nesting of tensors "
        "(and equal Python values), so the graph knows what the node gives"
    )


def _number(structure: Any) -> Any:
    """A Python number as a NumPy array (bool, int64, float32); None for anything else."""
    value = structure.get("python")
    if isinstance(value, bool):
        return np.asarray(value)
    if isinstance(value, int):
        return np.asarray(value, "int64")
    if isinstance(value, float):
        return np.asarray(value, "float32")
    return None


def trace_while(tracer: Tracer, cond: Callable, body: Callable, loop_vars: list[Tensor]):
    """A `while_loop` node from the current loop vars; returns the final loop vars."""
    count = len(loop_vars)
    places = [Tensor._wrap(fresh(v._data)) for v in loop_vars]
    for place, var in zip(places, loop_vars, strict=True):
        place.stop_gradient = var.stop_gradient
    names = [tracer.bind_placeholder(p._data, dynamic=True) for p in places]
    cond_b = trace_branch(tracer, lambda: cond(*places))
    if len(cond_b.leaves) != 1 or cond_b.structure != {"tensor": 0}:
        raise TracingError(
            f"while_loop: cond must return one bool tensor, got {describe(cond_b.structure)} "
            f"{location(tracer.scope)}"
        )
    body_b = trace_branch(tracer, lambda: [_as_tensor(v) for v in as_list(body(*places))])
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
    cond_b.close([tracer.name_of(t._data) for t in cond_b.leaves], names)
    body_b.close([tracer.name_of(t._data) for t in body_b.leaves], names)
    captured = list(dict.fromkeys(cond_b.captured + body_b.captured))
    inputs = [*names, *captured]
    attrs = {
        "num_loop_vars": count,
        "cond_graph": build_subgraph(tracer, cond_b, inputs, "cond_graph"),
        "body_graph": build_subgraph(tracer, body_b, inputs, "body_graph"),
    }
    for branch in (cond_b, body_b):
        tracer.seal(branch.produced)
    for name in names:
        tracer.graph.values.pop(name)
    tracer.seal(names)
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


def _as_tensor(value: Any) -> Any:
    """A Python number a loop body returns for a loop var, as a tensor."""
    if isinstance(value, bool | int | float) and not isinstance(value, Tensor):
        return Tensor._wrap(_number({"python": value}))
    return value


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
