"""The graph IR: a static, JSON-serialisable description of a model's forward computation.

A `Graph` is an ordered list of `Node`s (topologically sorted) over named values:

- **inputs**: the model's arguments, each a `Value` with a shape (None for a dynamic dim) and
  a dtype (a NumPy dtype name such as "float32");
- **initializers**: arrays known before the run, each with a `kind`: "parameter" (trainable
  weights, named by the layer's `state_dict` names, e.g. `layer1.0.conv1.weight`), "buffer"
  (non-trainable state such as `bn1._mean`, also by state_dict name) or "constant" (anything
  else the trace captured, e.g. the scalar of `x * 0.5`, named `const_<k>`);
- **nodes**: `op_type` (see `framework.jit.op_schema` for every type, its inputs and
  attributes), `inputs` / `outputs` (value names; `""` for an absent optional input),
  `attrs` (JSON values only), a unique `name` and the `scope` (layer path) it came from;
- **outputs**: the names of the values the model returns, in order.

Every value a node produces is described in `values` (shape, dtype), so shapes never have to
be inferred. On disk (`jit.save`) the graph is `<path>.json` and the initializer arrays are
`<path>.safetensors` (the same names); `to_json()` / `from_json()` convert, and
`FORMAT_VERSION` is bumped whenever a reader would need to change. Control flow (`cond`,
`while_loop`) keeps its branches and loop bodies as sub-graphs in the node's attrs
(`framework.jit.subgraph`). The JSON looks like:

    {"format": "sampan.graph", "format_version": 2, "producer": {...}, "name": "ResNet",
     "inputs": [{"name": "x", "shape": [null, 3, 32, 32], "dtype": "float32"}],
     "outputs": [{"name": "v61", "shape": [null, 10], "dtype": "float32"}],
     "initializers": [{"name": "conv1.weight", "shape": [64, 3, 7, 7], "dtype": "float32",
                       "kind": "parameter", "trainable": true}, ...],
     "values": [{"name": "v0", "shape": [null, 64, 16, 16], "dtype": "float32"}, ...],
     "nodes": [{"name": "conv2d_0", "op_type": "conv2d", "scope": "conv1",
                "inputs": ["x", "conv1.weight", ""], "outputs": ["v0"],
                "attrs": {"strides": [2, 2], "pads": [3, 3, 3, 3], ...}}, ...],
     "metadata": {"input_structure": ..., "output_structure": "tensor"}}
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.jit.op_schema import SUBGRAPH_OPS, validate_node

FORMAT = "sampan.graph"
FORMAT_VERSION = 2  # 2: control-flow nodes (cond, while_loop) with sub-graphs in their attrs
INITIALIZER_KINDS = ("parameter", "buffer", "constant")


@dataclass
class Value:
    name: str
    shape: list[int | None]
    dtype: str

    def to_json(self) -> dict:
        return {"name": self.name, "shape": list(self.shape), "dtype": self.dtype}

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)


@dataclass
class Node:
    op_type: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    scope: str = ""

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "op_type": self.op_type,
            "scope": self.scope,
            "inputs": list(self.inputs),
            "outputs": list(self.outputs),
            "attrs": self.attrs,
        }

    def copy(self, **changes: Any) -> Node:
        fields = {
            "op_type": self.op_type,
            "inputs": list(self.inputs),
            "outputs": list(self.outputs),
            "attrs": dict(self.attrs),
            "name": self.name,
            "scope": self.scope,
        }
        fields.update(changes)
        return Node(**fields)


@dataclass
class Initializer:
    value: Value
    kind: str  # "parameter" | "buffer" | "constant"
    trainable: bool = False


class Graph:
    """See the module docstring. Arrays live in `tensors` (name -> NumPy/CuPy array)."""

    def __init__(self, name: str = "graph") -> None:
        self.name = name
        self.inputs: list[str] = []
        self.outputs: list[str] = []
        self.values: dict[str, Value] = {}
        self.nodes: list[Node] = []
        self.initializers: dict[str, Initializer] = {}
        self.tensors: dict[str, Any] = {}
        self.metadata: dict[str, Any] = {}

    # --- building -------------------------------------------------------------------------------
    def add_value(self, name: str, shape: Iterable[int | None], dtype: object) -> Value:
        if name in self.values:
            raise ValueError(f"value {name!r} is defined twice")
        value = Value(name, [None if d is None else int(d) for d in shape], np.dtype(dtype).name)
        self.values[name] = value
        return value

    def add_initializer(
        self, name: str, array: Any, kind: str, trainable: bool = False
    ) -> Initializer:
        if kind not in INITIALIZER_KINDS:
            raise ValueError(f"initializer kind must be one of {INITIALIZER_KINDS}, got {kind!r}")
        value = self.add_value(name, array.shape, array.dtype)
        init = Initializer(value, kind, bool(trainable))
        self.initializers[name] = init
        self.tensors[name] = array
        return init

    def remove_initializer(self, name: str) -> None:
        del self.initializers[name]
        del self.values[name]
        self.tensors.pop(name, None)

    def copy(self) -> Graph:
        """A structural copy: new node/value lists, the same (shared, read-only) arrays."""
        other = Graph(self.name)
        other.inputs = list(self.inputs)
        other.outputs = list(self.outputs)
        other.values = {k: Value(v.name, list(v.shape), v.dtype) for k, v in self.values.items()}
        other.nodes = [n.copy() for n in self.nodes]
        other.initializers = {
            k: Initializer(other.values[k], i.kind, i.trainable)
            for k, i in self.initializers.items()
        }
        other.tensors = dict(self.tensors)
        other.metadata = json.loads(json.dumps(self.metadata))
        return other

    def unique_name(self, base: str) -> str:
        if base not in self.values:
            return base
        k = 1
        while f"{base}_{k}" in self.values:
            k += 1
        return f"{base}_{k}"

    # --- queries --------------------------------------------------------------------------------
    def producers(self) -> dict[str, Node]:
        return {out: node for node in self.nodes for out in node.outputs}

    def consumers(self) -> dict[str, list[Node]]:
        users: dict[str, list[Node]] = {}
        for node in self.nodes:
            for name in node.inputs:
                if name:
                    users.setdefault(name, []).append(node)
        return users

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for node in self.nodes:
            counts[node.op_type] = counts.get(node.op_type, 0) + 1
        return counts

    def parameters(self) -> dict[str, Any]:
        return {k: self.tensors[k] for k, i in self.initializers.items() if i.kind != "constant"}

    # --- checking -------------------------------------------------------------------------------
    def validate(self) -> None:
        """Raise ValueError unless the graph is well formed: known ops that fit their schemas,
        every input defined before use, each value produced once, JSON-able attributes."""
        defined = set(self.inputs) | set(self.initializers)
        for name in self.inputs:
            if name not in self.values:
                raise ValueError(f"graph input {name!r} has no value entry")
        for name, init in self.initializers.items():
            if name not in self.tensors:
                raise ValueError(f"initializer {name!r} has no array")
            array = self.tensors[name]
            if list(array.shape) != init.value.shape:
                raise ValueError(
                    f"initializer {name!r} has shape {list(array.shape)}, "
                    f"its value says {init.value.shape}"
                )
        names = set()
        for node in self.nodes:
            if not node.name or node.name in names:
                raise ValueError(f"node names must be unique and non-empty, got {node.name!r}")
            names.add(node.name)
            validate_node(node)
            if node.op_type in SUBGRAPH_OPS:
                from framework.jit import subgraph

                subgraph.validate(node)
            for name in node.inputs:
                if name and name not in defined:
                    raise ValueError(
                        f"node {node.name} ({node.op_type}) reads {name!r} before it is defined"
                    )
            for name in node.outputs:
                if name in defined:
                    raise ValueError(f"value {name!r} is produced twice (node {node.name})")
                if name not in self.values:
                    raise ValueError(f"node {node.name} output {name!r} has no value entry")
                defined.add(name)
            _check_json(node.attrs, f"node {node.name} attrs")
        for name in self.outputs:
            if name not in defined:
                raise ValueError(f"graph output {name!r} is never defined")

    # --- (de)serialisation ----------------------------------------------------------------------
    def to_json(self) -> dict:
        """The graph as a JSON document (the arrays are not included)."""
        from framework import __version__

        produced = {out for node in self.nodes for out in node.outputs}
        special = set(self.inputs) | set(self.initializers)
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "producer": {"name": "framework", "version": __version__},
            "name": self.name,
            "inputs": [self.values[n].to_json() for n in self.inputs],
            "outputs": [self.values[n].to_json() for n in self.outputs],
            "initializers": [
                {**i.value.to_json(), "kind": i.kind, "trainable": i.trainable}
                for i in self.initializers.values()
            ],
            "values": [
                v.to_json() for n, v in self.values.items() if n in produced and n not in special
            ],
            "nodes": [node.to_json() for node in self.nodes],
            "metadata": self.metadata,
        }

    @classmethod
    def from_json(cls, doc: dict, tensors: dict[str, Any]) -> Graph:
        """Rebuild a graph from `to_json()` output and its initializer arrays."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document (its 'format' field is missing or wrong)")
        version = doc.get("format_version")
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise ValueError(
                f"graph format version {version!r} is newer than this framework reads "
                f"({FORMAT_VERSION}); upgrade the framework"
            )
        graph = cls(doc.get("name", "graph"))
        for entry in doc["inputs"]:
            graph.add_value(entry["name"], entry["shape"], entry["dtype"])
            graph.inputs.append(entry["name"])
        for entry in doc["initializers"]:
            name = entry["name"]
            if name not in tensors:
                raise ValueError(f"the weights file has no array for initializer {name!r}")
            array = tensors[name]
            if (
                list(array.shape) != list(entry["shape"])
                or np.dtype(array.dtype).name != entry["dtype"]
            ):
                raise ValueError(
                    f"initializer {name!r}: the weights file has {array.dtype} "
                    f"{list(array.shape)}, the graph expects {entry['dtype']} {entry['shape']}"
                )
            graph.add_initializer(name, array, entry["kind"], entry.get("trainable", False))
        for entry in doc["values"]:
            graph.add_value(entry["name"], entry["shape"], entry["dtype"])
        for entry in doc["nodes"]:
            graph.nodes.append(
                Node(
                    entry["op_type"],
                    list(entry["inputs"]),
                    list(entry["outputs"]),
                    dict(entry.get("attrs", {})),
                    entry["name"],
                    entry.get("scope", ""),
                )
            )
        graph.outputs = [entry["name"] for entry in doc["outputs"]]
        for entry in doc["outputs"]:
            if entry["name"] not in graph.values:
                graph.add_value(entry["name"], entry["shape"], entry["dtype"])
        graph.metadata = dict(doc.get("metadata", {}))
        graph.validate()
        return graph

    def summary(self) -> str:
        """A short text listing of the graph, one node per line."""
        lines = [f"Graph {self.name}: inputs {self.inputs} -> outputs {self.outputs}"]
        for node in self.nodes:
            attrs = ", ".join(
                f"{k}=<sub-graph: {len(v['nodes'])} nodes>"
                if isinstance(v, dict) and "nodes" in v
                else f"{k}={v}"
                for k, v in node.attrs.items()
            )
            lines.append(
                f"  {node.name}: {node.op_type}({', '.join(node.inputs)}) -> "
                f"{', '.join(node.outputs)}" + (f"  [{attrs}]" if attrs else "")
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<Graph {self.name}: {len(self.nodes)} nodes, {len(self.inputs)} inputs, "
            f"{len(self.outputs)} outputs, {len(self.initializers)} initializers>"
        )


def _check_json(value: Any, where: str) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: non-finite float {value} is not JSON")
        return
    if isinstance(value, list):
        for item in value:
            _check_json(item, where)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: dict keys must be strings, got {key!r}")
            _check_json(item, where)
        return
    raise ValueError(f"{where}: {type(value).__name__} {value!r} is not a JSON value")
