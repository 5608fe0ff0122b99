"""ONNX import: `load(path)` -> a trainable framework Layer running the graph on framework ops."""

from framework.onnx.import_ import ops_math, ops_nn, ops_reduce, ops_resize, ops_shape  # noqa: F401
from framework.onnx.import_.layer import OnnxLayer
from framework.onnx.import_.loader import load
from framework.onnx.import_.registry import supported_ops

__all__ = ["OnnxLayer", "load", "supported_ops"]
