"""`OnnxLayer`: an ONNX graph as a framework Layer that runs (and trains) on framework ops.

Building it (see `framework.onnx.load`):

1. every node is checked against the importer's op table, and every unknown op type or
   unsupported setting is reported at once (`UnsupportedOnnxOpError`, with counts);
2. initializers and `Constant` node values are sorted by how they are used (see
   `framework.onnx.import_.registry`): float weights become trainable Parameters named by their
   ONNX names (dotted names nest, so a PyTorch export keeps `layer1.0.conv1.weight`), running
   statistics become persistable buffers, everything else stays a constant;
3. nodes that read only constants (shape arithmetic, casts of constants) are computed once;
4. `forward` runs the remaining nodes in order, dropping each value after its last use.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np

from framework.core.autograd import no_grad
from framework.core.backend import get_array_module
from framework.core.tensor import Parameter, Tensor
from framework.nn.layer.layers import Layer
from framework.onnx.errors import OnnxImportError, UnsupportedOnnxOpError
from framework.onnx.import_.registry import ImportSpec, RunContext, spec_for
from framework.onnx.proto import GraphProto, ModelProto, NodeProto
from framework.onnx.tensor_proto import numpy_type

MIN_OPSET, MAX_OPSET = 7, 23
_CONSTANT_ATTRS = ("value", "value_float", "value_floats", "value_int", "value_ints")


class _Container(Layer):
    """Holds the parameters under one dotted-name prefix."""

    def forward(self, *inputs: Any) -> Any:
        raise RuntimeError("the inner containers of an OnnxLayer are not callable")


_PROBE = _Container()  # an empty container: which names a new one already has


class OnnxLayer(Layer):
    """An imported ONNX model (see the module docstring and `framework.onnx.load`).

    layer = framework.onnx.load("model.onnx")
    y = layer(x)                    # one output: a Tensor; several: a tuple, in ONNX order
    layer.state_dict()              # the weights under their ONNX names
    layer.metadata                  # the model's metadata_props, e.g. a label list
    """

    def __init__(self, model: ModelProto, name: str = "") -> None:
        super().__init__()
        graph = model.graph
        opset = model.opset_version()
        _check_opset(opset, name)
        _check_supported(graph, opset, name)
        constants = _constants(graph)
        nodes = [n for n in graph.nodes if not _is_constant_node(n)]
        self._opset = opset
        self._model_name = name or graph.name
        self.metadata: dict[str, str] = dict(model.metadata)
        self._inputs = [vi for vi in graph.inputs if vi.name not in constants]
        self._outputs = [vi.name for vi in graph.outputs]
        _check_wiring(nodes, {vi.name for vi in self._inputs} | set(constants), self._outputs)
        roles = _roles(nodes, constants)
        self.onnx_names: dict[str, str] = {}  # state_dict key -> ONNX name
        bound: dict[str, Tensor] = {}
        for onnx_name, role in roles.items():
            if role == "constant":
                continue
            array = np.array(constants[onnx_name])  # owned and writable
            tensor = Parameter(array, name=onnx_name) if role == "parameter" else Tensor(array)
            key = self._register(onnx_name, tensor, role)
            self.onnx_names[key] = onnx_name
            bound[onnx_name] = tensor
        fixed = {k: v for k, v in constants.items() if roles.get(k, "constant") == "constant"}
        nodes = _fold(nodes, fixed, opset)
        needed = {n for node in nodes for n in node.inputs if n} | set(self._outputs)
        store = _Container()
        self.add_sublayer("_onnx_constants", store)
        for index, (onnx_name, array) in enumerate(fixed.items()):
            if onnx_name in needed:
                tensor = Tensor(np.array(array))
                store.register_buffer(f"c{index}", tensor, persistable=False)
                bound[onnx_name] = tensor
        self._bound = list(bound.items())
        self._plan = _plan(nodes, self._outputs)

    # --- naming ---------------------------------------------------------------------------------
    def _register(self, onnx_name: str, tensor: Tensor, role: str) -> str:
        parts = onnx_name.split(".")
        if all(parts) and self._place(parts, tensor, role, dry_run=True):
            self._place(parts, tensor, role, dry_run=False)
            return onnx_name
        flat = "p_" + re.sub(r"\W", "_", onnx_name)
        while not self._place([flat], tensor, role, dry_run=True):
            flat += "_"
        self._place([flat], tensor, role, dry_run=False)
        return flat

    def _place(self, parts: list[str], tensor: Tensor, role: str, dry_run: bool) -> bool:
        """Put `tensor` at the dotted path `parts`, making containers; False if a name is taken
        (by an attribute of Layer, or by a different kind of entry)."""
        layer: Layer = self
        fresh = False  # below the first new container every name is free but Layer's own
        for part in parts[:-1]:
            child = None if fresh else layer._sub_layers.get(part)
            if child is None:
                if _taken(_PROBE if fresh else layer, part) or part.startswith("__"):
                    return False
                fresh = True
                if not dry_run:
                    child = _Container()
                    layer.add_sublayer(part, child)
                    layer = child
            elif isinstance(child, _Container):
                layer = child
            else:
                return False
        leaf = parts[-1]
        if _taken(_PROBE if fresh and dry_run else layer, leaf) or leaf.startswith("__"):
            return False
        if not dry_run:
            if role == "parameter":
                layer.add_parameter(leaf, tensor)
            else:
                layer.register_buffer(leaf, tensor, persistable=True)
        return True

    # --- running --------------------------------------------------------------------------------
    @property
    def input_names(self) -> list[str]:
        return [vi.name for vi in self._inputs]

    @property
    def output_names(self) -> list[str]:
        return list(self._outputs)

    @property
    def nodes(self) -> list[NodeProto]:
        """The nodes `forward` runs, in order (those reading only constants are folded)."""
        return [node for node, _, _ in self._plan]

    @property
    def opset_version(self) -> int:
        return self._opset

    def forward(self, *inputs: Any) -> Tensor | tuple[Tensor, ...]:
        outputs = self._run(inputs, self._plan, self._outputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def forward_values(self, *inputs: Any, names: list[str]) -> tuple[Tensor, ...]:
        """The values the graph computes under the ONNX names `names` (any node's outputs,
        not only the graph's), in that order, as Tensors with their autograd graph: a
        fine-tuning loss can read a network before its last activation, or graft a training
        head onto a feature map. Only the nodes the names need are run.

            logits, features = layer.forward_values(x, names=["p2o.Add.281", "p2o.Concat.1"])
        """
        names = list(names)
        key = tuple(names)
        plans = self.__dict__.setdefault("_value_plans", {})
        if key not in plans:
            made = {name for node, _, _ in self._plan for name in node.outputs if name}
            unknown = [n for n in names if n not in made and n not in dict(self._bound)]
            unknown = [n for n in unknown if n not in self.input_names]
            if unknown:
                raise KeyError(f"the ONNX graph computes no value named {unknown}")
            needed = _needed_nodes([node for node, _, _ in self._plan], names)
            plans[key] = _plan(needed, names)
        return self._run(inputs, plans[key], names)

    def _run(self, inputs: tuple, plan: list, outputs: list[str]) -> tuple[Tensor, ...]:
        if len(inputs) != len(self._inputs):
            raise TypeError(
                f"this ONNX model takes {len(self._inputs)} inputs ({', '.join(self.input_names)}"
                f"), got {len(inputs)}"
            )
        env: dict[str, Tensor] = dict(self._bound)
        for info, value in zip(self._inputs, inputs, strict=True):
            env[info.name] = _as_input(info, value)
        ctx = RunContext(self._opset, self.training)
        for node, spec, release in plan:
            args = [env[name] if name else None for name in node.inputs]
            try:
                result = spec.run(ctx, node, args)
            except Exception as error:
                error.add_note(
                    f"while running ONNX node {node.name or node.outputs[0]!r} ({node.op_type}) "
                    f"on inputs of shapes {[None if a is None else a.shape for a in args]}"
                )
                raise
            if isinstance(result, Tensor):
                env[node.outputs[0]] = result
            else:
                for out_name, tensor in zip(node.outputs, result, strict=False):
                    if out_name:
                        env[out_name] = tensor
            for name in release:
                env.pop(name, None)
        return tuple(env[name] for name in outputs)

    def extra_repr(self) -> str:
        return (
            f"model={self._model_name!r}, opset={self._opset}, nodes={len(self._plan)}, "
            f"inputs={self.input_names}, outputs={self._outputs}"
        )


# --- building steps -----------------------------------------------------------------------------
def _check_opset(opset: int, name: str) -> None:
    if not MIN_OPSET <= opset <= MAX_OPSET:
        raise OnnxImportError(
            f"cannot import {name or 'the model'}: it uses ONNX opset {opset}; the importer "
            f"reads opsets {MIN_OPSET} to {MAX_OPSET} (convert it with onnx.version_converter)"
        )


def _is_constant_node(node: NodeProto) -> bool:
    return node.op_type == "Constant" and node.domain in ("", "ai.onnx")


def _check_supported(graph: GraphProto, opset: int, name: str) -> None:
    missing: Counter[str] = Counter()
    for node in graph.nodes:
        if _is_constant_node(node):
            if not any(key in node.attrs for key in _CONSTANT_ATTRS):
                missing[f"Constant({', '.join(sorted(node.attrs)) or 'no value'})"] += 1
            continue
        spec = spec_for(node.op_type, node.domain)
        if spec is None:
            domain = node.domain if node.domain not in ("", "ai.onnx") else ""
            missing[f"{domain}.{node.op_type}" if domain else node.op_type] += 1
        elif spec.check is not None:
            reason = spec.check(node, opset)
            if reason:
                missing[reason] += 1
    if not missing:
        return
    listing = ", ".join(
        f"{op} ({count} node{'s' if count > 1 else ''})" for op, count in missing.most_common()
    )
    raise UnsupportedOnnxOpError(
        f"cannot import {name or 'the ONNX model'}: {len(missing)} unsupported op "
        f"type{'s' if len(missing) > 1 else ''}: {listing}. framework.onnx.supported_ops() "
        "lists what the importer runs.",
        dict(missing),
    )


def _constants(graph: GraphProto) -> dict[str, np.ndarray]:
    found = dict(graph.initializers)
    for node in graph.nodes:
        if not _is_constant_node(node):
            continue
        if "value" in node.attrs:
            array = np.asarray(node.attrs["value"])
        elif "value_float" in node.attrs:
            array = np.array(node.attrs["value_float"], dtype=np.float32)
        elif "value_floats" in node.attrs:
            array = np.array(node.attrs["value_floats"], dtype=np.float32)
        elif "value_int" in node.attrs:
            array = np.array(node.attrs["value_int"], dtype=np.int64)
        else:
            array = np.array(node.attrs["value_ints"], dtype=np.int64)
        found[node.outputs[0]] = array
    return found


def _check_wiring(nodes: list[NodeProto], defined: set[str], outputs: list[str]) -> None:
    defined = set(defined)
    for node in nodes:
        for name in node.inputs:
            if name and name not in defined:
                raise OnnxImportError(
                    f"ONNX node {node.name or node.op_type!r} ({node.op_type}) reads {name!r}, "
                    "which no input, initializer or earlier node defines (the graph must be "
                    "topologically sorted)"
                )
        defined.update(n for n in node.outputs if n)
    for name in outputs:
        if name not in defined:
            raise OnnxImportError(f"the graph output {name!r} is never computed")


def _roles(nodes: list[NodeProto], constants: dict[str, np.ndarray]) -> dict[str, str]:
    """parameter / buffer / constant for every constant, from the slots that read it."""
    roles: dict[str, str] = {}
    for node in nodes:
        spec: ImportSpec = spec_for(node.op_type, node.domain)
        for index, name in enumerate(node.inputs):
            if name not in constants or index in spec.static:
                continue
            array = constants[name]
            if index in spec.stats:
                role = "buffer"
            elif array.dtype.kind == "f" and (index in spec.weights or array.size > 1):
                role = "parameter"
            else:
                continue
            if roles.get(name) != "parameter":
                roles[name] = role
    for name in constants:
        roles.setdefault(name, "constant")
    return roles


def _fold(nodes: list[NodeProto], fixed: dict[str, np.ndarray], opset: int) -> list[NodeProto]:
    """Compute the nodes that read only constants; `fixed` gains their outputs."""
    remaining = []
    ctx = RunContext(opset, training=False)
    with no_grad():
        for node in nodes:
            spec = spec_for(node.op_type, node.domain)
            if not spec.foldable or not all(n in fixed for n in node.inputs if n):
                remaining.append(node)
                continue
            args = [Tensor._wrap(np.asarray(fixed[n])) if n else None for n in node.inputs]
            result = spec.run(ctx, node, args)
            results = [result] if isinstance(result, Tensor) else list(result)
            for out_name, tensor in zip(node.outputs, results, strict=False):
                if out_name:
                    fixed[out_name] = np.asarray(tensor._data)
    return remaining


def _plan(nodes: list[NodeProto], outputs: list[str]) -> list[tuple[NodeProto, ImportSpec, list]]:
    last_use: dict[str, int] = {}
    for index, node in enumerate(nodes):
        for name in node.inputs:
            if name:
                last_use[name] = index
    keep = set(outputs)
    release: list[list[str]] = [[] for _ in nodes]
    for name, index in last_use.items():
        if name not in keep:
            release[index].append(name)
    return [(node, spec_for(node.op_type, node.domain), release[i]) for i, node in enumerate(nodes)]


def _needed_nodes(nodes: list[NodeProto], outputs: list[str]) -> list[NodeProto]:
    """The nodes (in order) that the values `outputs` depend on."""
    wanted = set(outputs)
    kept = []
    for node in reversed(nodes):
        if wanted.intersection(node.outputs):
            kept.append(node)
            wanted.update(n for n in node.inputs if n)
    return kept[::-1]


def _taken(layer: Layer, name: str) -> bool:
    return (
        name in layer._parameters
        or name in layer._buffers
        or name in layer._sub_layers
        or name in layer.__dict__
        or hasattr(layer, name)
    )


def _as_input(info, value: Any) -> Tensor:
    expected = numpy_type(info.elem_type) if info.elem_type else None
    if isinstance(value, Tensor):
        tensor = value
    else:
        array = value if hasattr(value, "dtype") else np.asarray(value)
        if expected is not None and array.dtype != expected:
            array = get_array_module(array).asarray(array, dtype=expected)
        tensor = Tensor._wrap(array)
    if expected is not None and tensor._data.dtype != expected:
        raise TypeError(
            f"input '{info.name}' is {tensor._data.dtype}, the ONNX model expects {expected.name}"
        )
    shape = tensor._data.shape
    if info.shape is not None and (
        len(shape) != len(info.shape)
        or any(
            isinstance(d, int) and d > 0 and d != s for d, s in zip(info.shape, shape, strict=True)
        )
    ):
        raise ValueError(
            f"input '{info.name}' has shape {list(shape)}, the ONNX model expects "
            f"{['?' if not isinstance(d, int) or d <= 0 else d for d in info.shape]}"
        )
    return tensor
