"""ONNX import: `load(path)` -> a trainable framework Layer running the graph on framework ops."""

from framework.onnx.import_ import (  # noqa: F401 - registers the handlers
    ops_attention,
    ops_detection,
    ops_math,
    ops_nn,
    ops_quant,
    ops_recurrent,
    ops_reduce,
    ops_resize,
    ops_shape,
)
from framework.onnx.import_.layer import OnnxLayer
from framework.onnx.import_.loader import load
from framework.onnx.import_.registry import supported_ops

__all__ = ["OnnxLayer", "load", "supported_ops"]
