"""Observers: they watch the values of a tensor during calibration and choose its quantization
parameters, as `paddle.quantization.observers`.

An observer object is both the setting and the collector: `QuantConfig(activation=
PercentileObserver(99.99))` keeps it as a prototype, and every tensor to quantize gets
`prototype.fresh()`. Used directly:

    observer = KLObserver()
    for batch in batches:
        observer.observe(batch)                # or observer(batch), which returns the batch
    scale, zero_point = observer.quant_params()

Activations are quantized per tensor to int8 with the observer's threshold T (values beyond
are clipped): symmetric (`scale = T / 127`, zero point 0) when the observer saw negative
values, else unsigned (`scale = T / 255`, zero point -128), which gives non-negative values
(ReLU outputs) the full 8 bits, as onnxruntime's uint8 activations. Weights are symmetric:
`quantize_weight(w, axis)` returns int8 values and their scales (one per channel along `axis`
for `PerChannelAbsmaxObserver`, one in all for the per-tensor observers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.quantization.histogram import AbsHistogram, kl_threshold


def _array(value: Any) -> np.ndarray:
    data = getattr(value, "_data", value)  # a Tensor's array, without a copy
    return np.asarray(to_numpy(data))


class BaseObserver:
    """Per-tensor statistics: the smallest and largest value seen; subclasses choose T."""

    def __init__(self, quant_bits: int = 8) -> None:
        if quant_bits != 8:
            raise ValueError(f"only 8-bit quantization is supported (int8), got {quant_bits}")
        self.quant_bits = quant_bits
        self.min_value = np.inf
        self.max_value = -np.inf
        self.count = 0

    def settings(self) -> dict[str, Any]:
        return {"quant_bits": self.quant_bits}

    def fresh(self) -> BaseObserver:
        """A new, empty observer with the same settings."""
        return type(self)(**self.settings())

    # --- collecting -----------------------------------------------------------------------------
    def observe(self, value: Any) -> None:
        """Take the statistics of `value` (a Tensor or an array) into account."""
        array = _array(value)
        if array.size == 0:
            return
        self.count += array.size
        low, high = float(array.min()), float(array.max())
        self.min_value = min(self.min_value, low)
        self.max_value = max(self.max_value, high)
        self._collect(array, max(abs(low), abs(high)))

    def __call__(self, value: Any) -> Any:
        self.observe(value)
        return value

    def _collect(self, array: np.ndarray, largest: float) -> None:
        """Subclass hook: `array` has magnitudes up to `largest`."""

    # --- results --------------------------------------------------------------------------------
    @property
    def signed(self) -> bool:
        return self.min_value < 0

    @property
    def abs_max(self) -> float:
        if not self.count:
            return 0.0
        return max(abs(self.min_value), abs(self.max_value))

    def levels(self) -> int:
        """The positive quantization levels T is mapped onto: 127 signed, 255 unsigned."""
        return 127 if self.signed else 255

    def threshold(self) -> float:
        """T: values are clipped to [-T, T] ([0, T] when unsigned)."""
        raise NotImplementedError

    def quant_params(self) -> tuple[np.ndarray, np.ndarray]:
        """(scale float32, zero point int8), 0-d arrays, for a per-tensor int8 activation."""
        if not self.count:
            raise RuntimeError(
                "the observer has seen no data: run calibration batches through the model "
                "returned by PTQ.quantize before converting it"
            )
        limit = min(self.threshold(), self.abs_max)
        scale = limit / self.levels() if limit > 0 else 1.0
        zero = 0 if self.signed else -128
        return np.asarray(scale, dtype=np.float32), np.asarray(zero, dtype=np.int8)

    def scales(self) -> np.ndarray:
        return self.quant_params()[0]

    def zero_points(self) -> np.ndarray:
        return self.quant_params()[1]

    def quantize_weight(self, weight: Any, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Symmetric per-tensor int8 weights: (q int8, scale float32 [1])."""
        array = _array(weight)
        observer = self.fresh()
        observer.observe(array)
        limit = min(observer.threshold(), observer.abs_max) if observer.count else 0.0
        scale = np.asarray([limit / 127.0 if limit > 0 else 1.0], dtype=np.float32)
        return symmetric_quantize(array, scale.reshape(()), 127), scale

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}({args})"


def symmetric_quantize(array: np.ndarray, scale: np.ndarray, qmax: int) -> np.ndarray:
    """`clip(round_half_even(array / scale), -qmax, qmax)` as int8 (scale broadcasts)."""
    q = np.rint(array.astype(np.float64) / scale.astype(np.float64))
    return np.clip(q, -qmax, qmax).astype(np.int8)


class AbsmaxObserver(BaseObserver):
    """T = the largest |x| seen: nothing is clipped."""

    def threshold(self) -> float:
        return self.abs_max


class _HistogramObserver(BaseObserver):
    def __init__(self, quant_bits: int = 8, bins: int = 2048) -> None:
        super().__init__(quant_bits)
        self.bins = int(bins)
        self.histogram = AbsHistogram(self.bins)

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "bins": self.bins}

    def _collect(self, array: np.ndarray, largest: float) -> None:
        self.histogram.add(np.abs(array), largest)


class PercentileObserver(_HistogramObserver):
    """T = the `percentile`-th percentile of |x| over all calibration data (from a histogram of
    `bins` bins, so within one bin width of the exact value): the rare largest values are
    clipped so the rest get finer steps."""

    def __init__(self, percentile: float = 99.99, quant_bits: int = 8, bins: int = 2048) -> None:
        if not 0.0 < percentile <= 100.0:
            raise ValueError(f"percentile must be in (0, 100], got {percentile}")
        super().__init__(quant_bits, bins)
        self.percentile = float(percentile)

    def settings(self) -> dict[str, Any]:
        return {"percentile": self.percentile, **super().settings()}

    def threshold(self) -> float:
        return min(self.histogram.percentile(self.percentile), self.abs_max)


class KLObserver(_HistogramObserver):
    """T minimises the KL divergence between the histogram of |x| and its quantized form
    (TensorRT's entropy calibration, PaddleSlim's 'KL' algorithm; see `kl_threshold`)."""

    def threshold(self) -> float:
        hist = self.histogram.used()
        if hist.size == 0:
            return 0.0
        return kl_threshold(hist, self.histogram.width, self.levels())


class PerChannelAbsmaxObserver(BaseObserver):
    """Weights: one symmetric scale per output channel, `max |w[channel]| / 127`."""

    def quantize_weight(self, weight: Any, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(q int8 shaped like `weight`, scale float32 [channels]) with channels along `axis`."""
        array = _array(weight)
        axis = axis % array.ndim
        others = tuple(i for i in range(array.ndim) if i != axis)
        peak = np.abs(array).max(axis=others) if others else np.abs(array)
        scale = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
        shape = [-1 if i == axis else 1 for i in range(array.ndim)]
        return symmetric_quantize(array, scale.reshape(shape), 127), scale

    def threshold(self) -> float:
        return self.abs_max


__all__ = [
    "AbsmaxObserver",
    "BaseObserver",
    "KLObserver",
    "PerChannelAbsmaxObserver",
    "PercentileObserver",
    "symmetric_quantize",
]
