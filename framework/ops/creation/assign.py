"""assign: copy a tensor, array or Python value into a new tensor (or into `output`)."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.tensor import Tensor, to_tensor
from framework.ops.manipulation.inplace import rebind


class Assign(Function):
    def forward(self, x):
        return x.copy()

    def backward(self, gy: Tensor) -> Tensor:
        return gy


def assign(x: object, output: Tensor | None = None) -> Tensor:
    """A copy of `x`: a Tensor (the copy stays in the graph), a NumPy array, a list or a number
    (a number gives shape [1]). With `output` the copy goes into `output`, which is returned: a
    leaf such as a parameter keeps being a leaf, an intermediate is rebound to the copy in the
    graph. As in Paddle, `output` takes the copy's shape and dtype when they differ (an int64
    array assigned into a float32 tensor makes it int64; cast `x` first to keep the dtype).

        y = framework.assign(x)            # like x.clone()
        framework.assign([1.0, 2.0], out)  # out now holds [1., 2.]
    """
    if isinstance(x, Tensor):
        result = Assign().apply(x)
    else:
        result = to_tensor([x] if isinstance(x, bool | int | float) else x)
    if output is None:
        return result
    if output._node is None:
        # A leaf (a parameter, a buffer): its value is replaced and it stays what it was, so
        # `assign(value, param)` initialises a trainable parameter, as in Paddle.
        output._data = result._data
        return output
    return rebind(output, result)
