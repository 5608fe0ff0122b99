"""Permuting dims: transpose, t, moveaxis, and the `Tensor.T` / `Tensor.mT` properties."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.autograd import Function
from framework.core.tensor import Tensor


class Transpose(Function):
    def __init__(self, perm: tuple[int, ...]) -> None:
        self.perm = perm

    def forward(self, x):
        return x.transpose(self.perm)

    def backward(self, gy: Tensor) -> Tensor:
        ndim = len(self.perm)
        inverse = [0] * ndim
        for i, p in enumerate(self.perm):
            inverse[p % ndim] = i
        return Transpose(tuple(inverse)).apply(gy)


def _permuted(x: Tensor, perm: tuple[int, ...]) -> Tensor:
    if perm == tuple(range(len(perm))):
        return x
    return Transpose(perm).apply(x)


def transpose(x: Tensor, perm: Sequence[int], name: str | None = None) -> Tensor:
    """Permute the dims of `x`: result dim i is input dim `perm[i]` (a view).

    framework.transpose(framework.ones([2, 3, 4]), [2, 0, 1]).shape   # [4, 2, 3]
    """
    perm = tuple(perm)
    if len(perm) != x._data.ndim:
        raise ValueError(
            f"transpose: perm {list(perm)} does not have one entry per dim of {x.shape}"
        )
    try:  # NumPy checks the permutation (and accepts negative axes)
        return Transpose(perm).apply(x)
    except (ValueError, TypeError):
        raise ValueError(
            f"transpose: perm {list(perm)} is not a permutation of the {len(perm)} dims"
        ) from None


def t(input: Tensor, name: str | None = None) -> Tensor:  # noqa: A002 - Paddle's argument name
    """Transpose a tensor of at most 2 dims (0-D and 1-D come back unchanged)."""
    if input._data.ndim > 2:
        raise ValueError(f"t: expects a tensor with at most 2 dims, got shape {input.shape}")
    return _permuted(input, tuple(reversed(range(input._data.ndim))))


def moveaxis(
    x: Tensor,
    source: int | Sequence[int],
    destination: int | Sequence[int],
    name: str | None = None,
) -> Tensor:
    """Move dims `source` to positions `destination`, keeping the others in order.

    framework.moveaxis(framework.ones([2, 3, 4]), 0, -1).shape   # [3, 4, 2]
    """
    ndim = x._data.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: {len(src)} source axes but {len(dst)} destination axes")
    src = [s % ndim for s in src]
    dst = [d % ndim for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("moveaxis: axes must be unique")
    rest = [i for i in range(ndim) if i not in src]
    perm = [0] * ndim
    for s, d in sorted(zip(dst, src, strict=True)):
        perm[s] = d
    free = iter(rest)
    placed = set(dst)
    perm = [perm[i] if i in placed else next(free) for i in range(ndim)]
    return _permuted(x, tuple(perm))


def reversed_dims(x: Tensor) -> Tensor:
    """`x.T`: all dims reversed."""
    return _permuted(x, tuple(reversed(range(x._data.ndim))))


def swapped_last_dims(x: Tensor) -> Tensor:
    """`x.mT`: the last two dims swapped (batched matrix transpose)."""
    ndim = x._data.ndim
    if ndim < 2:
        raise ValueError(f"mT needs a tensor with at least 2 dims, got shape {x.shape}")
    perm = list(range(ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return _permuted(x, tuple(perm))
