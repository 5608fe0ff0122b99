"""Writing a fine-tuned network back into the ONNX file it was imported from.

A network that `framework.onnx.load` built keeps the ONNX name of each weight
(`OnnxLayer.onnx_names`); after training, its state dict goes back into a copy of the same
graph, so the file runs anywhere the original did (onnxruntime, the framework's importer) and
answers as the trained Layer does. This is how a fine-tuned OCR recognizer is exported: the
graph is the shipped one, node for node, with new weights.

    layer = framework.onnx.load("rec.onnx")
    ...                                         # fine-tune layer
    write_onnx_weights("rec.onnx", layer.state_dict(), "out/rec.onnx")
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np


def write_onnx_weights(
    source: str | os.PathLike, state: Mapping[str, Any], path: str | os.PathLike
) -> str:
    """Write `source`'s graph to `path` with the weights of `state` (a state dict of the
    Layer `framework.onnx.load(source)` builds: its keys, arrays or Tensors of the same
    shapes). Weights `state` leaves out keep the file's values; a key the Layer does not
    have, or a shape that differs, is a ValueError. Each weight keeps the file's dtype."""
    import framework

    layer = framework.onnx.load(str(source))
    model = framework.onnx.read_model(source)
    graph = model.graph
    unknown = sorted(set(state) - set(layer.onnx_names))
    if unknown:
        raise ValueError(f"{os.fspath(source)!r} has no weights named {unknown[:5]}")
    constant_nodes = {
        node.outputs[0]: node for node in graph.nodes if node.op_type == "Constant" and node.outputs
    }
    for key, value in state.items():
        onnx_name = layer.onnx_names[key]
        array = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
        # Paddle's exports (PP-OCR's) hold their weights in Constant nodes, PyTorch's in
        # initializers: each is rewritten where it is, so the graph stays node for node.
        node = constant_nodes.get(onnx_name)
        if onnx_name in graph.initializers:
            old = np.asarray(graph.initializers[onnx_name])
        elif node is not None and isinstance(node.attrs.get("value"), np.ndarray):
            old = node.attrs["value"]
        else:
            raise ValueError(f"{onnx_name!r} is neither an initializer nor a Constant tensor")
        if tuple(old.shape) != tuple(array.shape):
            raise ValueError(
                f"weight {key!r} is shaped {tuple(array.shape)}; the graph's is {old.shape}"
            )
        new = np.ascontiguousarray(array, dtype=old.dtype)
        if onnx_name in graph.initializers:
            graph.initializers[onnx_name] = new
        else:
            node.attrs["value"] = new
    framework.onnx.write_model(model, path)
    return os.fspath(path)
