"""What to quantize in a traced model: the plan PTQ calibrates and converts.

The model is traced (`framework.jit`) and optimised with the predictor's float passes, so
batch norms are folded into the convolutions and activations fused before anything is
measured: weights are quantized after folding, and activation ranges are those of the values
the INT8 model computes. Then:

- every `conv2d` (NCHW) and `linear` with a parameter weight, allowed by the `QuantConfig`, is
  quantized; other layers with weights stay float and are reported with the reason;
- the tensors to quantize (as ONNX QDQ) are the inputs and outputs of quantized ops (not the
  model's outputs); a value reached through max-pooling, reshapes or transposes shares the
  quantization of the value before them, so those ops run on int8 data exactly.

Each group of tensors sharing parameters has one observer, fed during calibration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.inference.passes import DEFAULT_PIPELINE, optimize
from framework.jit.graph import Graph, Node
from framework.jit.op_schema import attr
from framework.quantization.config import QuantConfig, SingleLayerConfig
from framework.quantization.observers import BaseObserver

WEIGHT_AXIS = {"conv2d": 0, "linear": 1}  # the output-channel axis of each op's weight
PASS_THROUGH = frozenset({"max_pool2d", "reshape", "transpose", "identity"})
_FLOAT_PASSES = tuple(p for p in DEFAULT_PIPELINE if p != "int8_fusion")


@dataclass
class QuantizationReport:
    """Which layers were quantized (node name -> layer path) and which stayed float
    (layer path -> reason)."""

    quantized: dict[str, str] = field(default_factory=dict)
    float_layers: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"quantized": dict(self.quantized), "float_layers": dict(self.float_layers)}

    def __str__(self) -> str:
        lines = [f"{len(self.quantized)} layers quantized to INT8"]
        lines += [f"  {path or name}" for name, path in self.quantized.items()]
        if self.float_layers:
            lines.append(f"{len(self.float_layers)} layers stay float:")
            lines += [f"  {path}: {why}" for path, why in self.float_layers.items()]
        return "\n".join(lines)


@dataclass
class QuantizationPlan:
    graph: Graph  # the optimised float graph
    layers: dict[str, SingleLayerConfig]  # quantized node name -> its setting
    roots: dict[str, str]  # tensor to quantize -> the tensor whose observer it shares
    observers: dict[str, BaseObserver]  # root tensor -> observer
    report: QuantizationReport

    def calibration_graph(self) -> Graph:
        """The float graph returning the model outputs followed by every observed tensor."""
        graph = self.graph.copy()
        extra = [name for name in self.observers if name not in graph.outputs]
        graph.outputs = [*graph.outputs, *extra]
        return graph

    def observed_names(self) -> list[str]:
        return [*self.graph.outputs, *(n for n in self.observers if n not in self.graph.outputs)]


def prepare_graph(graph: Graph) -> Graph:
    """The traced graph after the predictor's float passes (BN folding, fusion, ...)."""
    return optimize(graph, _FLOAT_PASSES)


def build_plan(graph: Graph, config: QuantConfig, model: Any = None) -> QuantizationPlan:
    """The plan for the optimised float `graph` of `model` (used to resolve layer settings)."""
    layers_by_path = dict(model.named_sublayers()) if model is not None else {}
    report = QuantizationReport()
    layers: dict[str, SingleLayerConfig] = {}
    for node in graph.nodes:
        path = node.scope
        layer = layers_by_path.get(path) if path else model
        reason = _unsupported(graph, node)
        if node.op_type in WEIGHT_AXIS and reason is None:
            setting = config.resolve(path, layer)
            if not setting.quantized:
                report.float_layers[path or node.name] = "kept float by the QuantConfig"
                continue
            layers[node.name] = setting
            report.quantized[node.name] = path
        elif reason is not None:
            report.float_layers[path or node.name] = reason
    roots, factories = _tensor_groups(graph, layers)
    observers = {root: factories[root].fresh() for root in dict.fromkeys(roots.values())}
    return QuantizationPlan(graph, layers, roots, observers, report)


def _unsupported(graph: Graph, node: Node) -> str | None:
    """Why a node with weights cannot be quantized (None when it can, or has no weights)."""
    weights = [
        name
        for name in node.inputs[1:]
        if name in graph.initializers and len(graph.values[name].shape) >= 2
    ]
    if node.op_type in WEIGHT_AXIS:
        if len(node.inputs) < 2 or node.inputs[1] not in graph.initializers:
            return f"{node.op_type} with a computed (non-parameter) weight has no INT8 kernel"
        if node.op_type == "conv2d" and attr(node, "data_format") != "NCHW":
            return "conv2d with channel-last data has no INT8 kernel"
        if graph.values[node.inputs[0]].dtype != "float32":
            return f"{node.op_type} on {graph.values[node.inputs[0]].dtype} data"
        return None
    if weights:
        return f"{node.op_type} has no INT8 kernel (INT8 covers conv2d and linear)"
    return None


def _tensor_groups(
    graph: Graph, layers: dict[str, SingleLayerConfig]
) -> tuple[dict[str, str], dict[str, BaseObserver]]:
    """(tensor -> root tensor, root -> observer prototype) for the tensors to quantize."""
    producers = graph.producers()
    wanted: dict[str, BaseObserver] = {}
    for node in graph.nodes:
        setting = layers.get(node.name)
        if setting is None or setting.activation is None:
            continue
        for name in (node.inputs[0], node.outputs[0]):
            if name not in graph.outputs:
                wanted.setdefault(name, setting.activation)
    roots: dict[str, str] = {}
    factories: dict[str, BaseObserver] = {}

    def root_of(name: str, prototype: BaseObserver) -> str:
        if name in roots:
            return roots[name]
        producer = producers.get(name)
        if (
            producer is not None
            and producer.op_type in PASS_THROUGH
            and graph.values[producer.inputs[0]].dtype == "float32"
            and producer.inputs[0] not in graph.outputs
        ):
            root = root_of(producer.inputs[0], prototype)
        else:
            root = name
            factories.setdefault(root, prototype)
        roots[name] = root
        return root

    for name, prototype in wanted.items():
        root_of(name, prototype)
    # the same root for a name shared through several paths keeps graph order stable
    order = {name: i for i, name in enumerate(_value_order(graph))}
    roots = dict(sorted(roots.items(), key=lambda item: order.get(item[0], -1)))
    return roots, factories


def _value_order(graph: Graph) -> list[str]:
    names = list(graph.inputs)
    for node in graph.nodes:
        names.extend(node.outputs)
    return names


def observe_outputs(plan: QuantizationPlan, arrays: list[np.ndarray]) -> None:
    """Feed the arrays a calibration graph returned (see `calibration_graph`) to observers."""
    for name, array in zip(plan.observed_names(), arrays, strict=True):
        observer = plan.observers.get(name)
        if observer is not None:
            observer.observe(array)
