"""Xavier (Glorot) initializers, with Paddle's fan computation."""

from __future__ import annotations

import math

import numpy as np

from framework.nn.initializer.initializer import Initializer, compute_fans
from framework.nn.initializer.normal import normal_array
from framework.nn.initializer.uniform import uniform_array


class XavierInitializer(Initializer):
    def __init__(
        self,
        uniform: bool = True,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
    ) -> None:
        self._uniform = uniform
        self._fan_in = fan_in
        self._fan_out = fan_out
        self._gain = gain

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        f_in, f_out = compute_fans(shape)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        if self._uniform:
            limit = self._gain * math.sqrt(6.0 / float(fan_in + fan_out))
            return uniform_array(shape, -limit, limit, dtype)
        std = self._gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return normal_array(shape, 0.0, std, dtype)


class XavierNormal(XavierInitializer):
    """N(0, std**2) with `std = gain * sqrt(2 / (fan_in + fan_out))`."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ) -> None:
        super().__init__(uniform=False, fan_in=fan_in, fan_out=fan_out, gain=gain)


class XavierUniform(XavierInitializer):
    """U[-limit, limit] with `limit = gain * sqrt(6 / (fan_in + fan_out))`. The default for
    weights created without an initializer (Linear, Embedding, ...)."""

    def __init__(
        self,
        fan_in: float | None = None,
        fan_out: float | None = None,
        gain: float = 1.0,
        name: str | None = None,
    ) -> None:
        super().__init__(uniform=True, fan_in=fan_in, fan_out=fan_out, gain=gain)
