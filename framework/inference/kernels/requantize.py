"""The epilogue of an INT8 convolution or linear: from the exact integer accumulator to the
op's output, in one or two passes over memory.

    y = activation(acc * multiplier + bias)                 float32 output
    q = saturate(round_half_even(y / y_scale) + y_zero)     int8 output (requantized)

`multiplier[o] = x_scale * w_scale[o]` and `bias` (real valued, with the input zero point's
correction folded in) are per output channel. For int8 outputs after no activation, ReLU or a
clip (which commute with a positive scale), `1 / y_scale` and the zero point are folded into
the multiplier and bias, and the activation becomes part of the saturation bounds: one
multiply-add, one clip and one rounding pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.inference.kernels import activation

_FOLDABLE = (None, "relu", "clip")


class Epilogue:
    def __init__(
        self,
        xp: Any,
        multiplier: np.ndarray,
        bias: np.ndarray,
        spec: dict | None,
        y_scale: float | None = None,
        y_zero_point: int = 0,
    ) -> None:
        self.xp = xp
        self.requantize = y_scale is not None
        kind = spec["type"] if spec else None
        self.folded = self.requantize and kind in _FOLDABLE
        multiplier = np.asarray(multiplier, dtype=np.float64)
        bias = np.asarray(bias, dtype=np.float64)
        self.low, self.high = -128.0, 127.0
        self.fused = None
        if self.folded:
            multiplier = multiplier / y_scale
            bias = bias / y_scale + y_zero_point
            if kind == "relu":
                self.low = float(y_zero_point)
            elif kind == "clip":
                if spec.get("min") is not None:
                    self.low = max(self.low, spec["min"] / y_scale + y_zero_point)
                if spec.get("max") is not None:
                    self.high = min(self.high, spec["max"] / y_scale + y_zero_point)
        else:
            self.fused = activation.in_place(spec, xp)
        self.inverse_scale = 1.0 / y_scale if self.requantize else 1.0
        self.zero_point = float(y_zero_point)
        self.multiplier = {np.float32: xp.asarray(multiplier, dtype=np.float32)}
        self.bias = {np.float32: xp.asarray(bias, dtype=np.float32)}
        self.multiplier[np.float64] = xp.asarray(multiplier)
        self.bias[np.float64] = xp.asarray(bias)

    def __call__(self, acc: Any, out: Any) -> None:
        """Finish `acc` ([rows, O], float32 or float64, overwritten) into `out` ([rows, O],
        float32 or int8; may be `acc` itself for float outputs)."""
        xp = self.xp
        kind = acc.dtype.type
        acc *= self.multiplier[kind]
        acc += self.bias[kind]
        if self.folded:
            xp.clip(acc, self.low, self.high, out=acc)
            xp.rint(acc, out=acc)
        else:
            if self.fused is not None:
                self.fused(acc)
            if self.requantize:
                acc *= kind(self.inverse_scale)
                xp.rint(acc, out=acc)
                if self.zero_point:
                    acc += kind(self.zero_point)
                xp.clip(acc, -128, 127, out=acc)
        if out is not acc:
            out[...] = acc
