"""ONNX export: the graph IR (`framework.jit`) written as an ONNX model."""

from framework.onnx.export import (  # noqa: F401 - registers handlers
    ops_control_flow,
    ops_math,
    ops_nn,
    ops_shape,
)
from framework.onnx.export.context import ExportContext
from framework.onnx.export.exporter import export, export_graph, exportable_ops, exports, graph_of

__all__ = ["ExportContext", "export", "export_graph", "exportable_ops", "exports", "graph_of"]
