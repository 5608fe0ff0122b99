"""In-place ops (`reshape_`, `x[i] = v`, ...): rebinding a tensor to the op's result.

An in-place op computes its result with an ordinary `Function` and then points the tensor the
user holds at that result (`_data`, `_node`, `_out_index`), so later uses see the new version
while the graph keeps an edge to the old one.
"""

from __future__ import annotations

from framework.core.autograd import is_grad_enabled
from framework.core.tensor import Tensor


def check_inplace(x: Tensor, op: str) -> None:
    """Refuse to modify a leaf that requires a gradient, as Paddle and PyTorch do."""
    if x._node is None and not x.stop_gradient and is_grad_enabled():
        raise RuntimeError(
            f"{op}: leaf Tensor (shape {x.shape}) that doesn't stop gradient can't use inplace "
            "strategy; its gradient would be lost. Modify a copy (`y = x.clone()`) or do it "
            "under `framework.no_grad()`."
        )


def rebind(x: Tensor, result: Tensor, count_version: bool = True) -> Tensor:
    """Make `x` the tensor `result` is (data and graph position) and return `x`.

    This is one in-place change, so `x.inplace_version` goes up by one unless `count_version`
    is off (`fill_constant(out=x)` leaves it, as Paddle's does).
    """
    if count_version:
        bump_version(x)
    x._data = result._data
    x._node = result._node
    x._out_index = result._out_index
    x.stop_gradient = result.stop_gradient
    return x


def bump_version(x: Tensor) -> None:
    """Count one in-place change of `x` (read back as `x.inplace_version`)."""
    x._inplace_version = getattr(x, "_inplace_version", 0) + 1
