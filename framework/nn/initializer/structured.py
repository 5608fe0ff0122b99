"""Structured initializers: `Orthogonal` and `Dirac` (identity-preserving convolutions)."""

from __future__ import annotations

import math

import numpy as np

from framework.core.random import get_rng
from framework.nn.initializer.initializer import Initializer


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times `gain`, reshaped to the parameter (rows = shape[0],
    columns = the product of the rest), as `paddle.nn.initializer.Orthogonal`."""

    def __init__(self, gain: float = 1.0, name: str | None = None) -> None:
        self._gain = gain

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        if len(shape) < 2:
            raise ValueError(
                f"Only Tensor with 2 or more dimensions can be initialized by Orthogonal, "
                f"got shape {list(shape)}"
            )
        rows, cols = shape[0], math.prod(shape[1:])
        normal = get_rng().standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(normal)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q.reshape(shape) * self._gain).astype(dtype)


class Dirac(Initializer):
    """Ones at the kernel centre of `weight[d, d]` (per group), zeros elsewhere, so a
    convolution starts as the identity on as many channels as it can keep. For 3-D to 5-D
    kernels `[out, in, *k]`; `groups` splits the output channels."""

    def __init__(self, groups: int = 1, name: str | None = None) -> None:
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"'groups' must be a positive integer, got {groups!r}")
        self._groups = groups

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Dirac initializes 3-D to 5-D kernels only, got shape {list(shape)}")
        if shape[0] % self._groups:
            raise ValueError(
                f"Tensor 0-dimension ({shape[0]}) must be divisible by groups ({self._groups})"
            )
        weight = np.zeros(shape, dtype=dtype)
        per_group = shape[0] // self._groups
        centre = tuple(k // 2 for k in shape[2:])
        for group in range(self._groups):
            for d in range(min(per_group, shape[1])):
                weight[(group * per_group + d, d, *centre)] = 1
        return weight
