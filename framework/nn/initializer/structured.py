"""Structured initializers: `Orthogonal`, `Dirac` (identity-preserving convolutions) and
`Bilinear` (upsampling transposed convolutions)."""

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


class Bilinear(Initializer):
    """Interpolation kernels for a `Conv2DTranspose` that upsamples, as
    `paddle.nn.initializer.Bilinear`: every `[K, K]` slice of the `[out, in, K, K]` weight
    gets the same kernel (float dtypes only, at most 1024 * 1024 elements).

    With `f = ceil(K / 2)` and `c = (2f - 1 - f % 2) / 2f`, element `i` of the flattened
    weight is `(1 - |x / f - c|) * (1 - |y / f - c|)` with `x = i % K` and `y = (i / K) % K`.
    That is Paddle 3.3's formula, true division in `y` included, so the weights equal
    Paddle's; it makes the rows differ from the textbook separable kernel (the last row of a
    K = 4 kernel even goes slightly negative). Keep learning rate and weight decay at 0 so the
    interpolation stays fixed.

        factor = 2
        attr = framework.ParamAttr(learning_rate=0.0, regularizer=L2Decay(0.0),
                                   initializer=nn.initializer.Bilinear())
        up = nn.Conv2DTranspose(3, 2, kernel_size=2 * factor - factor % 2,
                                padding=math.ceil((factor - 1) / 2), stride=factor,
                                weight_attr=attr, bias_attr=False)
        up(framework.rand([8, 3, 32, 32])).shape   # [8, 2, 64, 64]
    """

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        if len(shape) != 4:
            raise ValueError(f"the length of shape must be 4, got shape {list(shape)}")
        if shape[2] != shape[3]:
            raise ValueError(f"shape[2] must be equal to shape[3], got shape {list(shape)}")
        if np.dtype(dtype).kind != "f":
            raise TypeError(f"Unsupported dtype {dtype}: Bilinear fills float weights")
        numel = math.prod(shape)
        if numel > 1024 * 1024:
            raise ValueError(f"The size of input is too big: {numel} > 1024 * 1024 elements")
        size = shape[3]
        factor = np.ceil(size / 2.0)
        centre = (2 * factor - 1 - factor % 2) / (2.0 * factor)
        index = np.arange(numel, dtype=np.float64)
        x = index % size
        y = (index / size) % size
        weight = (1 - np.abs(x / factor - centre)) * (1 - np.abs(y / factor - centre))
        # Paddle computes in float32 and casts other float dtypes from there.
        return weight.astype(np.float32).reshape(shape).astype(dtype)
