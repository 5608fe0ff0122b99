"""Buffer reuse planned from value lifetimes.

For every node the plan says (1) which input, if any, the node may overwrite with its result
(an elementwise op whose input dies there: `relu(conv(x))` writes into the conv's buffer), and
(2) which buffers are dead after it and go back to the executor's arena for later ops of the
same shape and dtype.

Values are grouped by the buffer they live in (their "root"): a view op's output (reshape,
transpose, slice...) lives in its input's buffer, and so does an in-place output. A buffer dies
after the last use of any value living in it. Graph inputs and initializers are never
written or recycled; buffers holding a graph output leave the executor and are never recycled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from framework.inference.kernels.registry import INPLACE_OPS, VIEW_OPS
from framework.jit.graph import Graph

_SINGLE_INPUT_INPLACE = {"batch_norm"}  # only x may be overwritten (the rest are parameters)


@dataclass
class MemoryPlan:
    inplace: list[int | None]  # per node: the input it writes its result into
    release_after: list[list[str]]  # per node: root values whose buffers return to the arena
    drop_after: list[list[str]]  # per node: values to forget (views, graph inputs)
    escaping: set[str] = field(default_factory=set)  # roots handed out as graph outputs
    roots: dict[str, str] = field(default_factory=dict)  # value -> the value owning its buffer

    @property
    def inplace_count(self) -> int:
        return sum(1 for k in self.inplace if k is not None)

    def escapes(self, node_index: int, outputs: list[str]) -> bool:
        return any(self.roots.get(o, o) in self.escaping for o in outputs)


def plan_memory(graph: Graph, inplace: bool = True) -> MemoryPlan:
    nodes = graph.nodes
    end_of_run = len(nodes)
    protected = set(graph.inputs) | set(graph.initializers)
    last_use: dict[str, int] = {}
    for index, node in enumerate(nodes):
        for name in node.outputs:
            last_use[name] = index  # a value nobody reads dies where it is made
        for name in node.inputs:
            if name:
                last_use[name] = index
    for name in graph.outputs:
        last_use[name] = end_of_run

    root = {name: name for name in protected}
    for node in nodes:
        for name in node.outputs:
            root[name] = root[node.inputs[0]] if node.op_type in VIEW_OPS else name
    members: dict[str, list[str]] = {}
    for name, owner in root.items():
        members.setdefault(owner, []).append(name)
    end = {owner: max(last_use.get(v, -1) for v in group) for owner, group in members.items()}

    decisions: list[int | None] = [None] * len(nodes)
    if inplace:
        for index, node in enumerate(nodes):
            target = _inplace_target(graph, node, index, root, end, protected, end_of_run)
            if target is None:
                continue
            decisions[index] = target
            owner, out = root[node.inputs[target]], node.outputs[0]
            for name in members.pop(out):
                root[name] = owner
                members[owner].append(name)
            end[owner] = end.pop(out)

    escaping = {root[name] for name in graph.outputs}
    release_after: list[list[str]] = [[] for _ in nodes]
    drop_after: list[list[str]] = [[] for _ in nodes]
    for owner, group in members.items():
        for name in group:
            if name in graph.initializers or name in escaping:
                continue
            if name == owner and owner not in protected:
                if end[owner] < end_of_run:
                    release_after[end[owner]].append(owner)
            elif last_use.get(name, end_of_run) < end_of_run:
                drop_after[last_use[name]].append(name)
    return MemoryPlan(decisions, release_after, drop_after, escaping, root)


def _inplace_target(graph, node, index, root, end, protected, end_of_run) -> int | None:
    if node.op_type not in INPLACE_OPS or len(node.outputs) != 1:
        return None
    out = node.outputs[0]
    if end.get(out, -1) >= end_of_run:
        return None  # the result is a graph output: it must not live in a recycled buffer
    candidates = (0,) if node.op_type in _SINGLE_INPUT_INPLACE else (0, 1)
    out_value = graph.values[out]
    for k in candidates:
        if k >= len(node.inputs) or not node.inputs[k]:
            continue
        name = node.inputs[k]
        if root[name] != name or name in protected or end[name] != index:
            continue  # a view, an input or weight, or still needed later
        value = graph.values[name]
        if value.dtype != out_value.dtype or len(value.shape) != len(out_value.shape):
            continue
        if any(
            a is not None and b is not None and a != b
            for a, b in zip(value.shape, out_value.shape, strict=True)
        ):
            continue  # broadcasting makes the output larger than this input
        return k
    return None
