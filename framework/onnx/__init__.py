"""ONNX export and import (Paddle's `paddle.onnx`), with no dependency beyond NumPy.

    framework.onnx.export(model, "out/resnet", input_spec=[InputSpec([None, 3, 224, 224])])
    layer = framework.onnx.load("out/resnet.onnx")     # a trainable framework Layer

ONNX files are read and written by a small built-in protobuf codec (`framework.onnx.wire`,
`framework.onnx.proto`); the `onnx` and `onnxruntime` packages are only test oracles.
"""

from framework.onnx.errors import (
    OnnxExportError,
    OnnxFormatError,
    OnnxImportError,
    UnsupportedOnnxOpError,
)
from framework.onnx.export import ExportContext, export, export_graph, exportable_ops, exports
from framework.onnx.import_ import OnnxLayer, load, supported_ops
from framework.onnx.proto import (
    GraphProto,
    ModelProto,
    NodeProto,
    ValueInfoProto,
    parse_model,
    read_model,
    serialize_model,
    write_model,
)

__all__ = [
    "ExportContext",
    "GraphProto",
    "ModelProto",
    "NodeProto",
    "OnnxExportError",
    "OnnxFormatError",
    "OnnxImportError",
    "OnnxLayer",
    "UnsupportedOnnxOpError",
    "ValueInfoProto",
    "export",
    "export_graph",
    "exportable_ops",
    "exports",
    "load",
    "parse_model",
    "read_model",
    "serialize_model",
    "supported_ops",
    "write_model",
]
