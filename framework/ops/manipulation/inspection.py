"""Questions about a tensor rather than ops on it: rank, shape, is_tensor, is_empty,
is_floating_point, is_integer, is_complex, isreal, broadcast_shapes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def _tensor(x: object, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: expects a Tensor, got {type(x).__name__}")
    return x


# rank, shape and is_empty describe metadata, so their answers are host (CPU) tensors
# whatever the device of the input: reading them never waits for a GPU.


def rank(input: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """The number of dims of `input`, as a 0-D int32 tensor.

    framework.rank(framework.ones([2, 3]))   # 2
    """
    return Tensor._wrap(np.asarray(_tensor(input, "rank")._data.ndim, dtype=np.int32))


def shape(input: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """The shape of `input` as a 1-D int64 tensor `[ndim]` (`Tensor.shape` is the Python
    list).

        framework.shape(framework.ones([2, 3]))   # [2, 3]
    """
    return Tensor._wrap(np.asarray(_tensor(input, "shape")._data.shape, dtype=np.int64))


def is_tensor(x: object) -> bool:
    """Whether `x` is a framework Tensor (a NumPy array is not)."""
    return isinstance(x, Tensor)


def is_empty(x: Tensor, name: str | None = None) -> Tensor:
    """Whether `x` has no elements, as a 0-D bool tensor.

    framework.is_empty(framework.ones([0, 3]))   # True
    """
    return Tensor._wrap(np.asarray(_tensor(x, "is_empty")._data.size == 0))


def is_floating_point(x: Tensor) -> bool:
    """Whether the dtype of `x` is a float type (a Python bool).

    framework.is_floating_point(framework.ones([2]))   # True
    """
    return _tensor(x, "is_floating_point")._data.dtype.kind == "f"


def is_integer(x: Tensor) -> bool:
    """Whether the dtype of `x` is an integer type, bool excluded (a Python bool).

    framework.is_integer(framework.to_tensor([1, 2]))   # True
    """
    return _tensor(x, "is_integer")._data.dtype.kind in "iu"


def is_complex(x: Tensor) -> bool:
    """Whether the dtype of `x` is complex (a Python bool).

    framework.is_complex(framework.ones([2]))   # False
    """
    return _tensor(x, "is_complex")._data.dtype.kind == "c"


def isreal(x: Tensor, name: str | None = None) -> Tensor:
    """Elementwise: is the value real (every element of a non-complex tensor is)? A bool
    tensor of the shape of `x`.

        framework.isreal(framework.to_tensor([1 + 0j, 1 + 2j]))   # [True, False]
    """
    xp = get_array_module(_tensor(x, "isreal")._data)
    if x._data.dtype.kind == "c":
        return Tensor._wrap(x._data.imag == 0)
    return Tensor._wrap(xp.ones(x._data.shape, dtype=bool))


def broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape all of `shapes` broadcast to (NumPy's rules), as a list; shapes that do not
    broadcast are a ValueError.

    framework.broadcast_shapes([2, 1], [3])   # [2, 3]
    """
    try:
        return list(np.broadcast_shapes(*(tuple(s) for s in shapes)))
    except ValueError:
        raise ValueError(f"broadcast_shapes: shapes {list(shapes)} do not broadcast") from None
