"""Kaiming (He, also called MSRA) initializers, with Paddle's fan computation."""

from __future__ import annotations

import math

import numpy as np

from framework.nn.initializer.initializer import Initializer, calculate_gain, compute_fans
from framework.nn.initializer.normal import normal_array
from framework.nn.initializer.uniform import uniform_array


class MSRAInitializer(Initializer):
    def __init__(
        self,
        uniform: bool = True,
        fan_in: float | None = None,
        negative_slope: float = 0.0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ) -> None:
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(
                "The mode of KaimingNormal/KaimingUniform should be 'fan_in' or 'fan_out', "
                f"but received {mode}."
            )
        if mode == "fan_out" and fan_in is not None:
            raise ValueError(
                "The mode of KaimingNormal/KaimingUniform is 'fan_out', but fan_in is set. "
                "Please set fan_in to None."
            )
        self._uniform = uniform
        self._fan_in = fan_in
        self._negative_slope = negative_slope
        self._nonlinearity = nonlinearity
        self._mode = mode

    def _generate(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        f_in, f_out = compute_fans(shape)
        if self._mode == "fan_out":
            fan = f_out
        else:
            fan = f_in if self._fan_in is None else self._fan_in
        gain = calculate_gain(self._nonlinearity, self._negative_slope)
        if self._uniform:
            limit = gain * math.sqrt(3.0 / float(fan))
            return uniform_array(shape, -limit, limit, dtype)
        return normal_array(shape, 0.0, gain / math.sqrt(float(fan)), dtype)


class KaimingNormal(MSRAInitializer):
    """N(0, std**2) with `std = gain / sqrt(fan)`; gain from `nonlinearity` (default relu)."""

    def __init__(
        self,
        fan_in: float | None = None,
        negative_slope: float = 0.0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ) -> None:
        super().__init__(False, fan_in, negative_slope, nonlinearity, mode)


class KaimingUniform(MSRAInitializer):
    """U[-limit, limit] with `limit = gain * sqrt(3 / fan)`; gain from `nonlinearity`."""

    def __init__(
        self,
        fan_in: float | None = None,
        negative_slope: float = 0.0,
        nonlinearity: str = "relu",
        mode: str = "fan_in",
    ) -> None:
        super().__init__(True, fan_in, negative_slope, nonlinearity, mode)
