"""`framework.slim`: the name PaddleSlim users look for; the same API as
`framework.quantization` (INT8 post-training quantization)."""

from framework.quantization import (
    PTQ,
    AbsmaxObserver,
    BaseObserver,
    KLObserver,
    ObservedModel,
    PercentileObserver,
    PerChannelAbsmaxObserver,
    QuantConfig,
    QuantizationReport,
    QuantizedModel,
    SingleLayerConfig,
    export_onnx,
    save_quantized_model,
)

__all__ = [
    "PTQ",
    "AbsmaxObserver",
    "BaseObserver",
    "KLObserver",
    "ObservedModel",
    "PerChannelAbsmaxObserver",
    "PercentileObserver",
    "QuantConfig",
    "QuantizationReport",
    "QuantizedModel",
    "SingleLayerConfig",
    "export_onnx",
    "save_quantized_model",
]
