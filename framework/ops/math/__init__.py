"""Elementwise math, comparisons and logic. `TENSOR_METHODS` binds method forms onto Tensor."""

from framework.ops.math.arithmetic import add, multiply
from framework.ops.tensor_binding import reflected

__all__ = ["add", "multiply"]

TENSOR_METHODS = {
    "add": add,
    "multiply": multiply,
    "__add__": add,
    "__radd__": reflected(add),
    "__mul__": multiply,
    "__rmul__": reflected(multiply),
}
