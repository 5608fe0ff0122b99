"""Kernels of the control-flow ops: each sub-graph runs on its own nested executor.

The nested executors keep no arena (their buffers leave them as the node's outputs) and copy
outputs that are their inputs, so a `cond` or `while_loop` returns fresh arrays as every
kernel must.
"""

from __future__ import annotations

from typing import Any

from framework.inference.kernels.registry import KernelContext, kernel
from framework.jit import subgraph
from framework.jit.graph import Node
from framework.jit.op_schema import attr


def _executor(node: Node, key: str, ctx: KernelContext) -> Any:
    from framework.inference.executor import Executor

    graph = subgraph.to_graph(node.attrs[key], f"{node.name}.{key}")
    return Executor(graph, ctx.xp, memory_optim=False, precompute=False)


def truth(array: Any) -> bool:
    """A one-element predicate's value (from the device, for CuPy)."""
    if array.size != 1:
        raise ValueError(f"a control-flow predicate must hold one element, got {array.shape}")
    return bool(array.reshape(-1)[0])


@kernel("cond")
def _cond(node: Node, ctx: KernelContext):
    then_run = _executor(node, "true_graph", ctx).run
    else_run = _executor(node, "false_graph", ctx).run

    def run(pred, *xs):
        return tuple((then_run if truth(pred) else else_run)(list(xs)))

    return run


@kernel("while_loop")
def _while_loop(node: Node, ctx: KernelContext):
    count = int(attr(node, "num_loop_vars"))
    test = _executor(node, "cond_graph", ctx).run
    step = _executor(node, "body_graph", ctx).run

    def run(*xs):
        loop_vars, reads = list(xs[:count]), list(xs[count:])
        while truth(test(loop_vars + reads)[0]):
            loop_vars = step(loop_vars + reads)
        # Loop vars that never changed are the node's inputs: hand out copies.
        return tuple(v.copy() if any(v is x for x in xs) else v for v in loop_vars)

    return run
