"""The `Uniform` initializer."""

from __future__ import annotations

import numpy as np

from framework.core.random import get_rng
from framework.nn.initializer.initializer import Initializer, draw_dtype, float_array


def uniform_array(shape: tuple[int, ...], low: float, high: float, dtype: np.dtype) -> np.ndarray:
    values = get_rng().random(shape, dtype=draw_dtype(dtype))
    values *= high - low
    values += low
    return float_array(values, dtype)


class Uniform(Initializer):
    """Draw from U[low, high), as `paddle.nn.initializer.Uniform(low=-1.0, high=1.0)`."""

    def __init__(self, low: float = -1.0, high: float = 1.0, name: str | None = None) -> None:
        if high < low:
            raise ValueError(f"high should greater or equal than low, got low={low}, high={high}")
        self._low = low
        self._high = high

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        return uniform_array(shape, self._low, self._high, dtype)
