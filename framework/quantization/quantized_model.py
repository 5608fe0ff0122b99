"""`QuantizedModel`: the INT8 model `PTQ.convert` returns.

It holds the model's graph in QDQ form (`graph`, what `save` writes and ONNX export reads)
and runs it like the predictor does: after the inference passes, whose `int8_fusion` turns it
into INT8 kernels (`program`). With `int8_kernels=False` it runs the QDQ graph as is, in
float32 arithmetic on quantized values (fake quantization), the reference the INT8 kernels
are checked against.

    int8 = ptq.convert(observed)
    logits = int8(images)                                 # a Tensor
    int8.save("out/lenet_int8")                           # out/lenet_int8.json + .safetensors
    predictor = create_predictor(Config("out/lenet_int8"))   # the same INT8 kernels
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from framework.core.tensor import Tensor
from framework.inference.executor import Executor
from framework.inference.passes import DEFAULT_PIPELINE, optimize
from framework.jit.graph import Graph
from framework.jit.serialization import load_graph, model_paths, save_graph
from framework.nn.layer.layers import Layer
from framework.quantization.observed_model import as_array
from framework.quantization.plan import QuantizationReport


class QuantizedModel(Layer):
    def __init__(self, graph: Graph, int8_kernels: bool = True) -> None:
        super().__init__()
        graph.validate()
        passes = (
            DEFAULT_PIPELINE
            if int8_kernels
            else [p for p in DEFAULT_PIPELINE if p != "int8_fusion"]
        )
        self._graph = graph
        self._program = optimize(graph, passes)
        self._executor = Executor(self._program)
        self.int8_kernels = int8_kernels
        object.__setattr__(self, "_lock", threading.Lock())

    @property
    def graph(self) -> Graph:
        """The model in QDQ form (int8 weights, quantize/dequantize nodes)."""
        return self._graph

    @property
    def program(self) -> Graph:
        """The graph that runs (after the inference passes)."""
        return self._program

    @property
    def report(self) -> QuantizationReport:
        doc = self._graph.metadata.get("quantization", {}).get("report", {})
        return QuantizationReport(dict(doc.get("quantized", {})), dict(doc.get("float_layers", {})))

    def forward(self, *inputs: Any) -> Any:
        if len(inputs) != len(self._graph.inputs):
            raise ValueError(
                f"the model takes {len(self._graph.inputs)} inputs {self._graph.inputs}, "
                f"got {len(inputs)}"
            )
        arrays = [
            as_array(x).astype(self._graph.values[name].dtype, copy=False)
            for x, name in zip(inputs, self._graph.inputs, strict=True)
        ]
        with self._lock:
            results = self._executor.run(arrays)
        outputs = [Tensor(np.array(r)) for r in results]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def save(self, path: str | os.PathLike) -> tuple[str, str]:
        """Write `path.json` (the QDQ graph) and `path.safetensors` (int8 weights, float
        scales, int32 biases); returns both file names. `Config(path)` loads it."""
        return save_graph(self._graph, path)

    @classmethod
    def load(cls, path: str | os.PathLike, int8_kernels: bool = True) -> QuantizedModel:
        """A saved INT8 model (a path prefix, its .json file or its directory)."""
        graph_file, weights_file = model_paths(path)
        return cls(load_graph(graph_file, weights_file), int8_kernels)

    def extra_repr(self) -> str:
        counts = self._program.op_counts()
        int8 = counts.get("quantized_conv2d", 0) + counts.get("quantized_linear", 0)
        return f"{self._graph.name}: {int8} INT8 ops, {len(self._program.nodes)} nodes"


def save_quantized_model(model: QuantizedModel, path: str | os.PathLike) -> tuple[str, str]:
    """`model.save(path)`: the INT8 inference model as `path.json` + `path.safetensors`."""
    return model.save(path)
