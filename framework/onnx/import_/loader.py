"""`framework.onnx.load`: read an ONNX file (or bytes) into an `OnnxLayer`."""

from __future__ import annotations

import os

from framework.onnx.import_.layer import OnnxLayer
from framework.onnx.proto import ModelProto, parse_model, read_model


def load(path: str | os.PathLike | bytes | ModelProto, **configs: object) -> OnnxLayer:
    """The ONNX model at `path` (a file, its bytes, or a parsed ModelProto) as a framework Layer.

    The layer runs the graph with framework ops, so it is differentiable: float weights
    (initializers and `Constant` nodes feeding Conv, Gemm, MatMul, normalization, Add biases
    and the like) are trainable Parameters under their ONNX names, running statistics are
    buffers, and `state_dict()` / `set_state_dict()` work. Inputs are Tensors or arrays, in
    the order of the graph's inputs; one output comes back as a Tensor, several as a tuple.
    The model is in eval mode; `train()` enables its Dropout nodes (BatchNormalization keeps
    the graph's running statistics either way).

    Raises `OnnxFormatError` for a corrupt or truncated file and `UnsupportedOnnxOpError`
    listing every op type (with counts) the importer cannot run, before anything runs.

        layer = framework.onnx.load("resnet18.onnx")
        logits = layer(framework.randn([1, 3, 224, 224]))   # [1, 1000] float32
    """
    if configs:
        raise TypeError(f"framework.onnx.load got unexpected options {sorted(configs)}")
    if isinstance(path, ModelProto):
        model, name = path, path.graph.name
    elif isinstance(path, bytes | bytearray | memoryview):
        model, name = parse_model(bytes(path)), "the ONNX model"
    else:
        model, name = read_model(path), os.path.basename(os.fspath(path))
    layer = OnnxLayer(model, name)
    layer.eval()
    return layer
