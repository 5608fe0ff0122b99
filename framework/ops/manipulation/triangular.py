"""Triangles and diagonals of matrices: tril, triu, diag."""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


class Triangle(Function):
    def __init__(self, diagonal: int, upper: bool) -> None:
        self.diagonal = diagonal
        self.upper = upper

    def forward(self, x):
        xp = get_array_module(x)
        return (xp.triu if self.upper else xp.tril)(x, self.diagonal)

    def backward(self, gy: Tensor) -> Tensor:
        return Triangle(self.diagonal, self.upper).apply(gy)


def _diagonal_positions(xp, shape: tuple[int, int], offset: int):
    rows, cols = shape
    length = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    i = xp.arange(length)
    return i - min(offset, 0), i + max(offset, 0)


class DiagEmbed(Function):
    """A matrix of `shape` holding the vector on diagonal `offset`, `padding` elsewhere."""

    def __init__(self, shape: tuple[int, int], offset: int, padding: float) -> None:
        self.shape = shape
        self.offset = offset
        self.padding = padding

    def forward(self, v):
        xp = get_array_module(v)
        out = xp.full(self.shape, self.padding, dtype=v.dtype)
        out[_diagonal_positions(xp, self.shape, self.offset)] = v
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return DiagPart(self.offset).apply(gy)


class DiagPart(Function):
    """Diagonal `offset` of a matrix, as a vector."""

    def __init__(self, offset: int) -> None:
        self.offset = offset

    def forward(self, x):
        self.shape = x.shape
        return x[_diagonal_positions(get_array_module(x), x.shape, self.offset)]

    def backward(self, gy: Tensor) -> Tensor:
        return DiagEmbed(self.shape, self.offset, 0).apply(gy)


def tril(x: Tensor, diagonal: int = 0, name: str | None = None) -> Tensor:
    """The lower triangle of the last two dims (at and below diagonal `diagonal`), zeros above."""
    if x._data.ndim < 2:
        raise ValueError(f"tril: needs at least 2 dims, got shape {x.shape}")
    return Triangle(int(diagonal), False).apply(x)


def triu(x: Tensor, diagonal: int = 0, name: str | None = None) -> Tensor:
    """The upper triangle of the last two dims (at and above diagonal `diagonal`), zeros below."""
    if x._data.ndim < 2:
        raise ValueError(f"triu: needs at least 2 dims, got shape {x.shape}")
    return Triangle(int(diagonal), True).apply(x)


def diag(x: Tensor, offset: int = 0, padding_value: float = 0, name: str | None = None) -> Tensor:
    """From a 1-D `x`, a square matrix with `x` on diagonal `offset` and `padding_value`
    elsewhere; from a 2-D `x`, its diagonal `offset` as a 1-D tensor.

        framework.diag(framework.to_tensor([1.0, 2.0]))   # [[1, 0], [0, 2]]
    """
    offset = int(offset)
    if x._data.ndim == 1:
        n = x._data.shape[0] + abs(offset)
        return DiagEmbed((n, n), offset, padding_value).apply(x)
    if x._data.ndim == 2:
        return DiagPart(offset).apply(x)
    raise ValueError(f"diag: expects a 1-D or 2-D tensor, got shape {x.shape}")
