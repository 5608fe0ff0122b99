"""Graph passes for inference, each its own module with a `run(graph) -> graph` that leaves its
input untouched:

- `identity_removal`: identity ops, dropout at inference, no-op casts/reshapes/transposes;
- `constant_folding`: nodes computable from initializers alone;
- `conv_bn_fold`, `linear_bn_fold`: batch norm folded into the preceding conv / linear;
- `activation_fusion`: relu/relu6/hardswish/... applied in place by conv, linear, add, bn;
- `dead_code_elimination`: nodes, values and initializers no output needs;
- `int8_fusion`: QDQ patterns of an INT8 model (`framework.quantization`) become INT8 kernels
  (runs before constant folding, which would dequantize the int8 weights back to float).

Buffer reuse (`memory_plan`) is planned by the executor from the final graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from framework.inference.passes import (
    activation_fusion,
    constant_folding,
    conv_bn_fold,
    dead_code_elimination,
    identity_removal,
    int8_fusion,
    linear_bn_fold,
)
from framework.jit.graph import Graph

PASSES: dict[str, Callable[[Graph], Graph]] = {
    "identity_removal": identity_removal.run,
    "int8_fusion": int8_fusion.run,
    "constant_folding": constant_folding.run,
    "conv_bn_fold": conv_bn_fold.run,
    "linear_bn_fold": linear_bn_fold.run,
    "activation_fusion": activation_fusion.run,
    "dead_code_elimination": dead_code_elimination.run,
}
DEFAULT_PIPELINE = (
    "identity_removal",
    "int8_fusion",
    "constant_folding",
    "conv_bn_fold",
    "linear_bn_fold",
    "activation_fusion",
    "dead_code_elimination",
)


def optimize(graph: Graph, passes: Sequence[str] = DEFAULT_PIPELINE) -> Graph:
    """`graph` after the named passes, in order; the result is validated."""
    unknown = [name for name in passes if name not in PASSES]
    if unknown:
        raise ValueError(f"unknown passes {unknown}; available: {sorted(PASSES)}")
    for name in passes:
        graph = PASSES[name](graph)
    graph.validate()
    return graph


__all__ = ["DEFAULT_PIPELINE", "PASSES", "optimize"]
