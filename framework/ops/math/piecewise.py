"""Piecewise elementwise functions: fmax, fmin (NaN-ignoring extrema), heaviside, sinc,
stanh. Compositions of `where` and differentiable math ops."""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.manipulation.where import where
from framework.ops.math.complex_parts import reject_complex
from framework.ops.math.promotion import as_float


def _float_input(x: Tensor, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: x must be a Tensor, got {type(x).__name__}")
    return as_float(x)


def _nan_extremum(x: Tensor, y: Tensor, take_max: bool) -> Tensor:
    x, y = as_operands(x, y)
    reject_complex(x, "fmax" if take_max else "fmin")
    xp = get_array_module(x._data)
    a, b = x._data, y._data
    wins = (a >= b) if take_max else (a <= b)
    # A NaN loses to any number; two NaNs give NaN.
    pick_x = xp.isnan(b) | (wins & ~xp.isnan(a))
    return where(Tensor._wrap(pick_x), x, y)


def fmax(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Elementwise maximum that ignores NaN (NaN only where both are), broadcasting, in the
    promoted dtype (ints stay ints). The gradient goes to the operand picked (`x` on ties).

    framework.fmax(framework.to_tensor([1.0, float("nan")]), framework.to_tensor([2.0, 3.0]))
    # [2., 3.]
    """
    return _nan_extremum(x, y, take_max=True)


def fmin(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Elementwise minimum that ignores NaN (NaN only where both are), broadcasting, in the
    promoted dtype (ints stay ints). The gradient goes to the operand picked (`x` on ties).

        framework.fmin(framework.to_tensor([1.0, float("nan")]), framework.to_tensor([2.0, 3.0]))
        # [1., 3.]
    """
    return _nan_extremum(x, y, take_max=False)


def heaviside(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The step function: 0 where `x < 0`, `y` where `x == 0`, 1 where `x > 0`
    (broadcasting), in the dtype of `y`. A NaN `x` gives 0, as in Paddle (NumPy: NaN).
    Differentiable in `y`.

        framework.heaviside(framework.to_tensor([-1.0, 0.0, 2.0]), framework.to_tensor(0.5))
        # [0., 0.5, 1.]
    """
    x, y = as_operands(x, y)
    reject_complex(x, "heaviside")
    step = Tensor._wrap((x._data > 0).astype(y._data.dtype))
    return where(Tensor._wrap(x._data == 0), y, step)


def sinc(x: Tensor, name: str | None = None) -> Tensor:
    """The normalised sinc `sin(pi x) / (pi x)`, 1 at 0. Integer inputs give the default
    float dtype.

        framework.sinc(framework.to_tensor([0.0, 0.5]))   # [1., 0.6366]
    """
    x = _float_input(x, "sinc")
    xp = get_array_module(x._data)
    # Near 0 the Taylor series 1 - (pi x)^2 / 6 + (pi x)^4 / 120 replaces sin(pi x) / (pi x):
    # no 0/0 in any order of gradient, and sinc''(0) = -pi^2 / 3 rather than the 0 a constant
    # branch would give. Below 1e-3 the next term is under float64's epsilon.
    small = Tensor._wrap(xp.abs(x._data) < 1e-3)
    one = Tensor._wrap(xp.ones((), dtype=x._data.dtype))
    scaled = where(small, one, x) * math.pi
    near = x * math.pi
    near = near * near
    taylor = 1.0 - near / 6.0 + near * near / 120.0
    return where(small, taylor, scaled.sin() / scaled)


def stanh(x: Tensor, scale_a: float = 0.67, scale_b: float = 1.7159, name: str | None = None):
    """The scaled tanh `scale_b * tanh(scale_a * x)`, elementwise: the shape and float dtype
    of `x` (integer inputs give the default float dtype).

        framework.stanh(framework.to_tensor([0.0, 1.0]))   # [0., 1.0032]
    """
    return (_float_input(x, "stanh") * scale_a).tanh() * scale_b
