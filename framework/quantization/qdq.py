"""From a calibrated plan to the INT8 model in QDQ form (see `framework.quantization.ir_ops`).

Each reader that takes a tensor quantized (see `reads_quantized`) reads it through its own
`quantize_linear` -> `dequantize_linear` pair; the model's outputs stay the float originals.
Each quantized op reads its weight as the `dequantize_linear` of an int8 initializer with one
scale per output channel, and its bias as the `dequantize_linear` of an int32 initializer with
scale `x_scale * w_scale` (how QLinearConv and onnxruntime's QDQ fusions want it). Weight-only
layers keep a float bias.

The result is an ordinary graph: `save_graph` writes it, the predictor runs it (with INT8
kernels after its `int8_fusion` pass, or as float simulation without it) and the ONNX exporter
writes it with QuantizeLinear/DequantizeLinear.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import to_numpy
from framework.jit.graph import Graph, Node
from framework.quantization.plan import PASS_THROUGH, WEIGHT_AXIS, QuantizationPlan

FORMAT = "sampan.int8.qdq"


class _Builder:
    def __init__(self, plan: QuantizationPlan) -> None:
        self.plan = plan
        self.graph = plan.graph.copy()
        self.nodes: list[Node] = []
        self.names = {node.name for node in self.graph.nodes}
        self.params: dict[str, tuple[str, str]] = {}  # root -> (scale name, zero-point name)

    def node_name(self, base: str) -> str:
        name, k = base, 1
        while name in self.names:
            name, k = f"{base}_{k}", k + 1
        self.names.add(name)
        return name

    def constant(self, base: str, array: np.ndarray) -> str:
        name = self.graph.unique_name(base)
        self.graph.add_initializer(name, array, "constant")
        return name

    def root_params(self, root: str) -> tuple[str, str]:
        if root not in self.params:
            scale, zero = self.plan.observers[root].quant_params()
            self.params[root] = (
                self.constant(f"{root}.scale", scale),
                self.constant(f"{root}.zero_point", zero),
            )
        return self.params[root]

    def quantize_for_reader(self, name: str) -> str:
        """A quantize_linear -> dequantize_linear pair on the tensor `name` for one reader;
        returns the dequantized value. onnxruntime fuses QDQ node groups only when their
        QuantizeLinear/DequantizeLinear serve one op (its quantizer's "dedicated QDQ pairs");
        the predictor's int8_fusion pass merges the duplicate quantize_linear nodes again."""
        scale, zero = self.root_params(self.plan.roots[name])
        shape = self.graph.values[name].shape
        q = self.graph.unique_name(f"{name}.int8")
        self.graph.add_value(q, shape, "int8")
        dq = self.graph.unique_name(f"{name}.dequantized")
        self.graph.add_value(dq, shape, "float32")
        self.nodes.append(
            Node("quantize_linear", [name, scale, zero], [q], {}, self.node_name(f"{name}.q"))
        )
        self.nodes.append(
            Node("dequantize_linear", [q, scale, zero], [dq], {}, self.node_name(f"{name}.dq"))
        )
        return dq

    def dequantize_constant(self, base: str, q: np.ndarray, scale: np.ndarray, axis: int) -> str:
        if scale.size == 1:
            scale = scale.reshape(())  # one scale in all: a scalar, as ONNX wants it
        zero = np.zeros(scale.shape, dtype=q.dtype)
        inputs = [
            self.constant(f"{base}.int8" if q.dtype == np.int8 else f"{base}.int32", q),
            self.constant(f"{base}.scale", scale.astype(np.float32)),
            self.constant(f"{base}.zero_point", zero),
        ]
        out = self.graph.unique_name(f"{base}.dequantized")
        self.graph.add_value(out, q.shape, "float32")
        attrs = {"axis": axis} if scale.size > 1 else {}
        self.nodes.append(
            Node("dequantize_linear", inputs, [out], attrs, self.node_name(f"{base}.dq"))
        )
        return out

    def quantize_layer(self, node: Node, x_name: str) -> Node:
        """The node reading an int8 weight (and an int32 bias when its input `x_name` is
        quantized)."""
        setting = self.plan.layers[node.name]
        axis = WEIGHT_AXIS[node.op_type]
        weight_name = node.inputs[1]
        weight = np.asarray(to_numpy(self.graph.tensors[weight_name]), dtype=np.float32)
        q, w_scale = setting.weight.quantize_weight(weight, axis)
        base = node.scope or node.name
        inputs = list(node.inputs)
        inputs[1] = self.dequantize_constant(f"{base}.weight", q, w_scale, axis)
        bias_name = node.inputs[2] if len(node.inputs) > 2 else ""
        x_root = self.plan.roots.get(x_name)
        if bias_name and x_root is not None and bias_name in self.graph.initializers:
            x_scale, _ = self.plan.observers[x_root].quant_params()
            bias = np.asarray(to_numpy(self.graph.tensors[bias_name]), dtype=np.float64)
            b_scale = (np.float64(x_scale) * w_scale.astype(np.float64)).astype(np.float32)
            b_scale = np.broadcast_to(b_scale, bias.shape).copy()
            b_q = np.rint(bias / b_scale.astype(np.float64))
            limit = np.iinfo(np.int32).max
            b_q = np.clip(b_q, -limit, limit).astype(np.int32)
            inputs[2] = self.dequantize_constant(f"{base}.bias", b_q, b_scale, 0)
        return node.copy(inputs=inputs)

    def reads_quantized(self, node: Node, layer_outputs: set[str]) -> list[bool]:
        """Which inputs of `node` it reads dequantized: a quantized op its input, a max-pool or
        reshape on the way to one its input, and any op the outputs of quantized ops (the
        INT8 kernels write int8). Other float ops read the float tensors (the skip path of a
        residual block stays float)."""
        to_quantize = self.plan.roots
        if node.name in self.plan.layers or (
            node.op_type in PASS_THROUGH and node.outputs[0] in to_quantize
        ):
            return [i == 0 and name in to_quantize for i, name in enumerate(node.inputs)]
        return [name in layer_outputs and name in to_quantize for name in node.inputs]

    def build(self) -> Graph:
        graph, plan = self.graph, self.plan
        layer_outputs = {node.outputs[0] for node in graph.nodes if node.name in plan.layers}
        for original in graph.nodes:
            inputs, readers = list(original.inputs), {}
            for i, wanted in enumerate(self.reads_quantized(original, layer_outputs)):
                if wanted:
                    name = inputs[i]
                    if name not in readers:
                        readers[name] = self.quantize_for_reader(name)
                    inputs[i] = readers[name]
            node = original.copy(inputs=inputs)
            if node.name in plan.layers:
                node = self.quantize_layer(node, original.inputs[0])
            self.nodes.append(node)
        graph.nodes = self.nodes
        unused = {name for name in graph.initializers} - {
            name for node in graph.nodes for name in node.inputs
        }
        for name in unused:
            graph.remove_initializer(name)
        graph.metadata["quantization"] = {
            "format": FORMAT,
            "report": plan.report.to_json(),
            "observers": {root: repr(obs) for root, obs in plan.observers.items()},
        }
        graph.validate()
        return graph


def build_qdq_graph(plan: QuantizationPlan) -> Graph:
    """The INT8 model of a calibrated `plan`, in QDQ form (see the module docstring)."""
    return _Builder(plan).build()
