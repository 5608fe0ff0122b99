"""logspace, and the random `rand_like` / `randn_like` shaped after a tensor."""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core.tensor import Tensor
from framework.ops.creation.constant import float_dtype
from framework.ops.creation.random import rand, randn
from framework.ops.creation.ranges import _number


def logspace(
    start: float | Tensor,
    stop: float | Tensor,
    num: int | Tensor,
    base: float | Tensor = 10.0,
    dtype: object = None,
    name: str | None = None,
) -> Tensor:
    """`num` values `base ** t` for `t` evenly spaced from `start` to `stop` (both included),
    in `dtype` (default float dtype). For an integer dtype Paddle first truncates `start`,
    `stop` and `base` to integers, then the powers; so do we. Shape `[num]`; `num = 0` gives
    an empty tensor (NumPy's answer; Paddle 3.3.1 raises). No gradient.

        framework.logspace(0, 2, 3)   # [1., 10., 100.]
    """
    start, stop, num, base = _number(start), _number(stop), int(_number(num)), _number(base)
    if num < 0:
        raise ValueError(f"logspace: num must be non-negative, got {num}")
    target = float_dtype(dtype)
    if target.kind in "iu":
        start, stop, base = int(start), int(stop), int(base)
    values = backend.current_xp().logspace(start, stop, num, base=base, dtype=np.float64)
    return Tensor._wrap(values.astype(target, copy=False))


def _like(x: Tensor, dtype: object, draw, device, requires_grad: bool, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: expects a Tensor, got {type(x).__name__}")
    dtype = x._data.dtype if dtype is None else dtype
    out = draw(list(x._data.shape), dtype)
    if device is not None:
        out = out.to(device)
    elif backend.place_of(out._data) != backend.place_of(x._data):
        out = out.to(x.place)
    out.stop_gradient = not requires_grad
    return out


def rand_like(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    name: str | None = None,
    *,
    dtype: object = None,
    device: object = None,
    requires_grad: bool = False,
) -> Tensor:
    """Uniform samples in [0, 1) of the shape of `input`, in its dtype unless `dtype` (a
    float dtype: an integer one is a TypeError, as Paddle has no such kernel), on its device
    unless `device`.

        framework.rand_like(framework.ones([2, 3])).shape   # [2, 3], float32
    """
    return _like(input, dtype, rand, device, requires_grad, "rand_like")


def randn_like(
    x: Tensor,
    dtype: object = None,
    name: str | None = None,
    *,
    device: object = None,
    requires_grad: bool = False,
) -> Tensor:
    """Standard normal samples of the shape of `x`, in its dtype unless `dtype` (a float
    dtype: an integer one is a TypeError), on its device unless `device`.

        framework.randn_like(framework.ones([2], dtype="float64")).dtype   # float64
    """
    return _like(x, dtype, randn, device, requires_grad, "randn_like")
