"""Replaying `cond` and `while_loop` nodes: the taken branch, or every iteration, replayed
with differentiable ops (`framework.jit.replay`), so gradients follow the path that ran."""

from __future__ import annotations

from framework.inference.kernels.control_flow import truth
from framework.jit.op_schema import attr
from framework.jit.replay import replay, replays
from framework.jit.subgraph import to_graph


@replays("cond")
def _cond(node, args):
    pred, *xs = args
    key = "true_graph" if truth(pred._data) else "false_graph"
    return replay(to_graph(node.attrs[key]), xs, [])


@replays("while_loop")
def _while_loop(node, args):
    count = int(attr(node, "num_loop_vars"))
    test, step = to_graph(node.attrs["cond_graph"]), to_graph(node.attrs["body_graph"])
    loop_vars, reads = list(args[:count]), list(args[count:])
    while truth(replay(test, loop_vars + reads, [])[0]._data):
        loop_vars = replay(step, loop_vars + reads, [])
    return loop_vars
