"""`framework.tensor.array`, as `paddle.tensor.array`: Paddle's tensor arrays, which in dynamic
mode (the only mode here) are plain Python lists of tensors.

    arr = paddle.tensor.create_array("float32")
    paddle.tensor.array_write(x, paddle.zeros([1], "int64"), array=arr)   # arr == [x]
    paddle.tensor.array_read(arr, paddle.zeros([1], "int64"))             # x
    paddle.tensor.array_length(arr)                                        # 1

Paddle checks its arguments here with `assert`; these raise TypeError, ValueError or IndexError
with Paddle's wording instead, so the checks hold under `python -O` too.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


def create_array(dtype: object, initialized_list: Sequence[Tensor] | None = None) -> list[Tensor]:
    """A new tensor array: a list holding `initialized_list`'s tensors (or none). `dtype` is
    checked to be a dtype and, as in Paddle's dynamic mode, not applied to the tensors."""
    dtypes.convert_dtype(dtype)
    if initialized_list is None:
        return []
    if not isinstance(initialized_list, list | tuple):
        raise TypeError(
            "Require type(initialized_list) should be list/tuple, but received "
            f"{type(initialized_list)}"
        )
    for value in initialized_list:
        if not isinstance(value, Tensor):
            raise TypeError(
                f"All values in `initialized_list` should be Tensors, but received {type(value)}."
            )
    return list(initialized_list)


def _position(i: object, op: str) -> int:
    if not isinstance(i, Tensor):
        raise TypeError(f"The index 'i' in {op} must be a Tensor in dygraph mode")
    if i.shape != [1]:
        raise ValueError(f"The shape of index 'i' should be [1] in dygraph mode, got {i.shape}")
    return int(i.item(0))


def _check_array(array: object, op: str) -> list[Tensor]:
    if not isinstance(array, list):
        raise TypeError(f"The 'array' in {op} must be a list in dygraph mode")
    return array


def array_write(x: Tensor, i: Tensor, array: list[Tensor] | None = None) -> list[Tensor]:
    """Put `x` at position `i` (a [1] int Tensor, at most the array's length: writing at the
    length appends) of `array` (a new array when None) and return the array."""
    if not isinstance(x, Tensor):
        raise TypeError("The input data 'x' in array_write must be a Tensor in dygraph mode")
    position = _position(i, "array_write")
    array = [] if array is None else _check_array(array, "array_write")
    if not 0 <= position <= len(array):
        raise IndexError(
            f"The index 'i' ({position}) should not be greater than the length of 'array' "
            f"({len(array)}) in dygraph mode"
        )
    if position < len(array):
        array[position] = x
    else:
        array.append(x)
    return array


def array_read(array: list[Tensor], i: Tensor) -> Tensor:
    """The tensor at position `i` (a [1] int Tensor) of `array`."""
    position = _position(i, "array_read")
    array = _check_array(array, "array_read")
    if not -len(array) <= position < len(array):
        raise IndexError(f"array_read: index {position} is out of range for {len(array)} items")
    return array[position]


def array_length(array: list[Tensor]) -> int:
    """How many tensors `array` holds (a Python int, as in Paddle's dynamic mode)."""
    return len(_check_array(array, "array_length"))


__all__ = ["array_length", "array_read", "array_write", "create_array"]
