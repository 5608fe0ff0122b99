"""Ranges and the identity: arange, linspace, eye (on the current device)."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor
from framework.ops.creation.constant import float_dtype


def _number(value: object) -> int | float:
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


def arange(
    start: float = 0,
    end: float | None = None,
    step: float = 1,
    dtype: object = None,
    name: str | None = None,
) -> Tensor:
    """Values from `start` up to (not including) `end` by `step`; `arange(n)` is 0..n-1.

    Without `dtype` the result is int64 when every bound is an int, else the default float.

        framework.arange(5)            # [0, 1, 2, 3, 4] int64
        framework.arange(0, 1, 0.25)   # [0., 0.25, 0.5, 0.75] float32
    """
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    if dtype is None:
        integral = all(isinstance(v, int) for v in (start, end, step))
        dtype = dtypes.int64 if integral else dtypes.default_float_dtype()
    else:
        dtype = dtypes.convert_dtype(dtype)
    return Tensor._wrap(backend.current_xp().arange(start, end, step, dtype=dtype))


def linspace(
    start: float,
    stop: float,
    num: int,
    dtype: object = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: object = None,
    requires_grad: bool = False,
) -> Tensor:
    """`num` evenly spaced values from `start` to `stop`, both included (default float dtype;
    an integer dtype truncates, as in Paddle). `device` places the result ("cpu", "gpu:0", a
    Place; default the current device), `requires_grad` makes it a leaf that records its
    gradient, and `out` takes the values.

        framework.linspace(0, 1, 5)   # [0., 0.25, 0.5, 0.75, 1.]
    """
    from framework.ops.creation.assign import assign

    start, stop, num = _number(start), _number(stop), int(_number(num))
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    xp = (
        backend.current_xp()
        if device is None
        else backend.xp_for_place(backend._parse_device(device))
    )
    values = xp.linspace(start, stop, num, dtype=np.float64)
    result = Tensor._wrap(values.astype(float_dtype(dtype), copy=False))
    result.stop_gradient = not requires_grad
    return result if out is None else assign(result, out)


def eye(
    num_rows: int, num_columns: int | None = None, dtype: object = None, name: str | None = None
) -> Tensor:
    """A 2-D tensor with ones on the diagonal (`num_rows` x `num_columns`, default square).

    framework.eye(2, 3)   # [[1., 0., 0.], [0., 1., 0.]]
    """
    rows = int(_number(num_rows))
    columns = rows if num_columns is None else int(_number(num_columns))
    return Tensor._wrap(backend.current_xp().eye(rows, columns, dtype=float_dtype(dtype)))


def range(  # noqa: A001 - Paddle's name
    start: float = 0,
    end: float | None = None,
    step: float = 1,
    dtype: object = None,
    *,
    out: Tensor | None = None,
    device: object = None,
    requires_grad: bool = False,
    name: str | None = None,
) -> Tensor:
    """Values from `start` to `end` *inclusive* by `step` (`range(3)` is [0, 1, 2, 3]), in the
    default float dtype unless `dtype` is given; Paddle's (deprecated) sibling of `arange`.

        framework.range(0, 1, 0.25)   # [0., 0.25, 0.5, 0.75, 1.]
    """
    from framework.ops.creation.assign import assign

    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("range: step must not be 0")
    count = max(int(np.floor((end - start) / step)) + 1, 0)
    xp = (
        backend.current_xp()
        if device is None
        else backend.xp_for_place(backend._parse_device(device))
    )
    values = start + xp.arange(count, dtype=np.float64) * step
    result = Tensor._wrap(values.astype(float_dtype(dtype), copy=False))
    result.stop_gradient = not requires_grad
    return result if out is None else assign(result, out)
