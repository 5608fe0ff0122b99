"""Comparisons and logic (bool outputs, no gradient). `TENSOR_METHODS` binds method forms and
the comparison and bitwise operators onto Tensor."""

from framework.ops.logic.comparison import (
    OPERATORS,
    allclose,
    equal,
    equal_all,
    greater_equal,
    greater_than,
    isclose,
    less_equal,
    less_than,
    not_equal,
)
from framework.ops.logic.logical import (
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
)
from framework.ops.logic.shifts import bitwise_invert, bitwise_left_shift, bitwise_right_shift
from framework.ops.tensor_binding import reflected

__all__ = [
    "allclose",
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "equal",
    "equal_all",
    "greater_equal",
    "greater_than",
    "isclose",
    "less_equal",
    "less_than",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "not_equal",
]

# Paddle's short and torch-style names for the comparisons, bound as methods too (`x.gt(y)`).
COMPARISON_ALIASES = {
    "eq": equal,
    "ne": not_equal,
    "lt": less_than,
    "less": less_than,
    "le": less_equal,
    "gt": greater_than,
    "greater": greater_than,
    "ge": greater_equal,
}

TENSOR_METHODS = (
    {name: globals()[name] for name in __all__}
    | COMPARISON_ALIASES
    | OPERATORS
    | {
        "__and__": bitwise_and,
        "__rand__": reflected(bitwise_and),
        "__or__": bitwise_or,
        "__ror__": reflected(bitwise_or),
        "__xor__": bitwise_xor,
        "__rxor__": reflected(bitwise_xor),
        "__invert__": bitwise_not,
        # `x << y` and `x >> y` are arithmetic shifts, as Paddle's.
        "__lshift__": bitwise_left_shift,
        "__rlshift__": reflected(bitwise_left_shift),
        "__rshift__": bitwise_right_shift,
        "__rrshift__": reflected(bitwise_right_shift),
    }
)
