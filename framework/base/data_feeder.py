"""`framework.base.data_feeder`, as `paddle.base.data_feeder`: `convert_dtype` and the argument
checks custom layers call.

`check_type`, `check_dtype`, `check_variable_and_dtype` and `check_shape` return at once, as
Paddle's do in dynamic-graph mode (the only mode here): a wrong input fails on the line that
uses it, and checking on every call would cost every step.
"""

from __future__ import annotations

from framework.core import dtype as dtypes


def convert_dtype(dtype: object) -> str:
    """The dtype's name ('float32', 'int64', 'bool', ...), from a framework dtype, a NumPy dtype
    or scalar type, or a name."""
    return dtypes.convert_dtype(dtype).name


def check_type(
    input: object, input_name: str, expected_type: object, op_name: str, extra_message: str = ""
) -> None:
    """No check in dynamic-graph mode, as Paddle."""


def check_dtype(
    input_dtype: object,
    input_name: str,
    expected_dtype: object,
    op_name: str,
    extra_message: str = "",
) -> None:
    """No check in dynamic-graph mode, as Paddle."""


def check_variable_and_dtype(
    input: object, input_name: str, expected_dtype: object, op_name: str, extra_message: str = ""
) -> None:
    """No check in dynamic-graph mode, as Paddle."""


def check_shape(
    shape: object,
    op_name: str,
    expected_shape_type: object = (list, tuple),
    expected_element_type: object = (int,),
    expected_tensor_dtype: object = ("int32", "int64"),
) -> None:
    """No check in dynamic-graph mode, as Paddle."""


__all__ = [
    "check_dtype",
    "check_shape",
    "check_type",
    "check_variable_and_dtype",
    "convert_dtype",
]
