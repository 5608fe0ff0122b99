"""Signs, exponents and neighbours of floats: copysign, signbit, frexp, ldexp, nextafter,
isposinf, isneginf; and the integer gcd and lcm.

copysign and ldexp are differentiable in their first argument (compositions); the rest give
bools, integers or exponents and carry no gradient, as in Paddle.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import reject_complex
from framework.ops.math.promotion import as_float, promote


def signbit(x: Tensor, name: str | None = None) -> Tensor:
    """Whether the sign bit is set (true for negatives and -0.0), elementwise: a bool tensor
    of the shape of `x` (any number dtype).

        framework.signbit(framework.to_tensor([1.0, -0.0, -2.0]))   # [False, True, True]
    """
    reject_complex(x, "signbit")
    return Tensor._wrap(get_array_module(x._data).signbit(x._data))


def copysign(x: Tensor, y: Tensor | float, name: str | None = None) -> Tensor:
    """`|x|` with the sign of `y` (its sign bit, so -0.0 counts as negative), broadcasting,
    in the promoted dtype of both (two int tensors stay int, as in Paddle; a float scalar
    `y` with an int `x` gives the default float). Differentiable in `x`.

        framework.copysign(framework.to_tensor([1.0, -2.0]), -0.0)   # [-1., -2.]
    """
    x, y = promote(*as_operands(x, y))
    xp = get_array_module(x._data)
    sign = xp.where(xp.signbit(y._data), -1, 1).astype(x._data.dtype)
    return x.abs() * Tensor._wrap(sign)


def frexp(x: Tensor, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Mantissas in [0.5, 1) (with the sign of `x`) and exponents, with
    `x = mantissa * 2 ** exponent`; both of the shape and float dtype of `x` (an integer `x`
    is a TypeError, as in Paddle). No gradient.

        framework.frexp(framework.to_tensor([8.0]))   # ([0.5], [4.])
    """
    if x._data.dtype.kind != "f":
        raise TypeError(f"frexp: x must be a floating point tensor, got {x.dtype}")
    mantissa, exponent = get_array_module(x._data).frexp(x._data)
    return Tensor._wrap(mantissa), Tensor._wrap(exponent.astype(x._data.dtype))


def ldexp(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """`x * 2 ** y` for an integer `y`, broadcasting; float results (integer `x` gives the
    default float dtype). Differentiable in `x`.

        framework.ldexp(framework.to_tensor([1.0, 3.0]), framework.to_tensor([2, -1]))
        # [4., 1.5]
    """
    x, y = as_operands(as_float(x), y)
    if y._data.dtype.kind not in "iu":
        raise TypeError(f"ldexp: y must be an integer tensor, got {y.dtype}")
    xp = get_array_module(x._data)
    return x * Tensor._wrap(xp.exp2(y._data.astype(x._data.dtype)))


def nextafter(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The next float after `x` in the direction of `y`, elementwise and broadcasting, in the
    promoted float dtype (float32 steps are float32 steps). No gradient.

        framework.nextafter(framework.to_tensor([1.0]), framework.to_tensor([2.0]))
        # [1.0000001]
    """
    x, y = promote(*as_operands(x, y))
    if x._data.dtype.kind != "f":
        raise TypeError(f"nextafter: expects floating point tensors, got {x.dtype}")
    return Tensor._wrap(get_array_module(x._data).nextafter(x._data, y._data))


def isposinf(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element is +inf: bool, the shape of `x` (always False for integers).

    framework.isposinf(framework.to_tensor([1.0, float("inf")]))   # [False, True]
    """
    return Tensor._wrap(get_array_module(x._data).isposinf(x._data))


def isneginf(x: Tensor, name: str | None = None) -> Tensor:
    """Whether each element is -inf: bool, the shape of `x` (always False for integers).

    framework.isneginf(framework.to_tensor([1.0, -float("inf")]))   # [False, True]
    """
    return Tensor._wrap(get_array_module(x._data).isneginf(x._data))


def _integer_pair(x: Tensor, y: Tensor, op: str) -> tuple[Tensor, Tensor]:
    x, y = as_operands(x, y)
    if x._data.dtype.kind not in "iu" or y._data.dtype.kind not in "iu":
        raise TypeError(f"{op}: expects integer tensors, got {x.dtype} and {y.dtype}")
    # The wider int, so that an int64 y is never truncated into an int32 x.
    return promote(x, y)


def gcd(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The greatest common divisor of integers, elementwise and broadcasting (non-negative;
    gcd(0, 0) = 0), in the wider of the two int dtypes; a float input is a TypeError.

        framework.gcd(framework.to_tensor([12, 9]), framework.to_tensor(6))   # [6, 3]
    """
    x, y = _integer_pair(x, y, "gcd")
    return Tensor._wrap(get_array_module(x._data).gcd(x._data, y._data))


def lcm(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The least common multiple of integers, elementwise and broadcasting (non-negative; 0
    if either is), in the wider of the two int dtypes; a float input is a TypeError.

        framework.lcm(framework.to_tensor([4, 3]), framework.to_tensor([6, 0]))   # [12, 0]
    """
    x, y = _integer_pair(x, y, "lcm")
    return Tensor._wrap(get_array_module(x._data).lcm(x._data, y._data))
