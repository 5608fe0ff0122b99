"""INT8 post-training quantization (`paddle.quantization` / `paddle.static.quantization`).

    from framework.quantization import PTQ, QuantConfig

    ptq = PTQ(QuantConfig())                    # percentile activations, per-channel weights
    observed = ptq.quantize(model)
    ptq.calibrate(observed, calibration_loader, max_batches=8)
    int8 = ptq.convert(observed)
    int8.save("out/model_int8")                 # predictor model: int8 weights, INT8 kernels
    framework.quantization.export_onnx(int8, "out/model_int8.onnx")   # QDQ ONNX

See `ptq` for the flow, `observers` for the calibration methods, `config` for choosing
layers, `ir_ops` for the graph ops and `framework.inference.passes.int8_fusion` for how the
predictor runs them.
"""

from framework.quantization import ir_ops  # noqa: F401 - registers the INT8 graph ops
from framework.quantization.config import QuantConfig, SingleLayerConfig
from framework.quantization.histogram import AbsHistogram, kl_threshold
from framework.quantization.observed_model import ObservedModel
from framework.quantization.observers import (
    AbsmaxObserver,
    BaseObserver,
    KLObserver,
    PercentileObserver,
    PerChannelAbsmaxObserver,
)
from framework.quantization.onnx_export import export_onnx
from framework.quantization.plan import QuantizationReport
from framework.quantization.ptq import PTQ
from framework.quantization.qdq import build_qdq_graph
from framework.quantization.quantized_model import QuantizedModel, save_quantized_model

__all__ = [
    "PTQ",
    "AbsHistogram",
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
    "build_qdq_graph",
    "export_onnx",
    "kl_threshold",
    "save_quantized_model",
]
