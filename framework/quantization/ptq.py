"""Post-training quantization, as `paddle.quantization.PTQ`.

    from framework.quantization import PTQ, QuantConfig, KLObserver, PerChannelAbsmaxObserver

    ptq = PTQ(QuantConfig(activation=KLObserver(), weight=PerChannelAbsmaxObserver()))
    observed = ptq.quantize(model)               # observers in; the model itself is untouched
    ptq.calibrate(observed, loader, max_batches=8)   # or: for x, _ in loader: observed(x)
    int8 = ptq.convert(observed)                 # QuantizedModel (INT8 kernels)
    int8.save("out/model_int8")                  # int8 weights: ~4x smaller
    framework.quantization.export_onnx(int8, "out/model_int8.onnx")   # QDQ ONNX

Convolutions (NCHW) and linear layers are quantized: weights per output channel (symmetric
int8, after batch norm folding), activations per tensor with ranges from the calibration
batches (`AbsmaxObserver`, `PercentileObserver` (99.99th percentile, the default) or
`KLObserver`). Other layers stay float; `int8.report` lists them with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from framework.core.autograd import no_grad
from framework.nn.layer.layers import Layer
from framework.quantization.config import QuantConfig
from framework.quantization.observed_model import ObservedModel
from framework.quantization.qdq import build_qdq_graph
from framework.quantization.quantized_model import QuantizedModel


class PTQ:
    def __init__(self, config: QuantConfig | None = None) -> None:
        self._config = config if config is not None else QuantConfig()

    @property
    def config(self) -> QuantConfig:
        return self._config

    def quantize(
        self, model: Layer, inplace: bool = False, input_spec: Sequence[Any] | None = None
    ) -> ObservedModel:
        """The model with observers (see `ObservedModel`). `model` is never modified
        (`inplace` is accepted for Paddle compatibility); it is traced in eval mode. Give
        `input_spec` (InputSpecs or example Tensors) to trace now, else the first batch's
        shapes are used, with a dynamic batch size."""
        if not isinstance(model, Layer):
            raise TypeError(f"PTQ.quantize expects a framework Layer, got {type(model).__name__}")
        return ObservedModel(model, self._config, input_spec)

    def calibrate(
        self, model: ObservedModel, data: Iterable[Any], max_batches: int | None = None
    ) -> int:
        """Run calibration batches through `model`: each item of `data` (a DataLoader, a list
        of arrays...) is the input itself or a list/tuple whose leading entries are the inputs
        (labels after them are ignored). Returns the number of batches run."""
        _check_observed(model, "calibrate")
        count = 0
        with no_grad():
            for item in data:
                if max_batches is not None and count >= max_batches:
                    break
                if isinstance(item, list | tuple):
                    model(*item[: model.input_count()])
                elif isinstance(item, dict):
                    raise TypeError("calibration batches must be inputs or lists/tuples of them")
                else:
                    model(item)
                count += 1
        return count

    def convert(self, model: ObservedModel, inplace: bool = False) -> QuantizedModel:
        """The INT8 model from a calibrated `model` (see `QuantizedModel`)."""
        _check_observed(model, "convert")
        if model.batches == 0:
            raise RuntimeError(
                "no calibration data was seen: run some batches through the model returned "
                "by PTQ.quantize (or PTQ.calibrate) before converting it"
            )
        return QuantizedModel(build_qdq_graph(model.plan))


def _check_observed(model: Any, action: str) -> None:
    if not isinstance(model, ObservedModel):
        raise TypeError(
            f"PTQ.{action} expects the model returned by PTQ.quantize, got {type(model).__name__}"
        )
