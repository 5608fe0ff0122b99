"""`Normal` and `TruncatedNormal` initializers."""

from __future__ import annotations

import numpy as np

from framework.core.random import get_rng
from framework.nn.initializer.initializer import Initializer, draw_dtype, float_array


def normal_array(shape: tuple[int, ...], mean: float, std: float, dtype: np.dtype) -> np.ndarray:
    values = get_rng().standard_normal(shape, dtype=draw_dtype(dtype))
    values *= std
    values += mean
    return float_array(values, dtype)


class Normal(Initializer):
    """Draw from N(mean, std**2), as `paddle.nn.initializer.Normal(mean=0.0, std=1.0)`."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, name: str | None = None) -> None:
        self._mean = mean
        self._std = std

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        return normal_array(shape, self._mean, self._std, dtype)


class TruncatedNormal(Initializer):
    """N(mean, std**2) restricted to `[a, b]` (absolute bounds, as in Paddle 3).

    Values outside the bounds are redrawn until none is left, so the distribution is the exact
    truncated normal.
    """

    def __init__(
        self,
        mean: float = 0.0,
        std: float = 1.0,
        a: float = -2.0,
        b: float = 2.0,
        name: str | None = None,
    ) -> None:
        if not a < b:
            raise ValueError(f"TruncatedNormal needs a < b, got a={a}, b={b}")
        self._mean = mean
        self._std = std
        self._a = a
        self._b = b

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        rng = get_rng()
        values = rng.standard_normal(shape, dtype=np.float64) * self._std + self._mean
        flat = values.reshape(-1)
        outside = np.flatnonzero((flat < self._a) | (flat > self._b))
        for _ in range(1000):
            if outside.size == 0:
                break
            redraw = rng.standard_normal(outside.size) * self._std + self._mean
            flat[outside] = redraw
            outside = outside[(redraw < self._a) | (redraw > self._b)]
        else:  # the bounds hold almost no mass: fall back to clipping what is left
            np.clip(flat, self._a, self._b, out=flat)
        return values.astype(dtype)
