"""Paddle 3's PyTorch-style spellings whose arguments differ from the ops they name: sub
(with `alpha`), true_divide (`input`, `other`) and positive. Plain renames (`div`, `mul`,
`clamp`, ...) are aliases in `framework/__init__.py`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.math.arithmetic import divide, subtract


def sub(x: Tensor, y: Tensor, name: str | None = None, *, alpha: float = 1) -> Tensor:
    """`x - alpha * y`, broadcasting, in `subtract`'s dtype (an int alpha keeps ints ints).

    framework.sub(framework.to_tensor([5.0]), framework.to_tensor([1.0]), alpha=2)   # [3.]
    """
    return subtract(x, y if alpha == 1 else y * alpha)


def true_divide(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002 - Paddle's argument name
    """`input / other` in floating point (integers divide to the default float dtype),
    broadcasting.

        framework.true_divide(framework.to_tensor([5, 3]), framework.to_tensor(2))   # [2.5, 1.5]
    """
    return divide(input, other)


def positive(x: Tensor, name: str | None = None) -> Tensor:
    """`+x`: `x` itself, same shape and dtype (for a bool tensor a TypeError, as in Paddle).

    framework.positive(framework.to_tensor([-1, 2]))   # [-1, 2]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"positive: x must be a Tensor, got {type(x).__name__}")
    if x._data.dtype.kind == "b":
        raise TypeError("positive: not defined for bool tensors")
    return x
