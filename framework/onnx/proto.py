"""ONNX's messages (the subset a model needs) as plain dataclasses, read and written with
`framework.onnx.wire` - no protobuf or onnx package required.

Field numbers follow `onnx.proto`. Tensors are NumPy arrays (initializers keep their names as
the dict keys of `GraphProto.initializers`); attributes are Python values: float, int, str,
ndarray (a tensor), GraphProto (a sub-graph) or lists of them.

    model = read_model("model.onnx")
    model.graph.nodes[0].op_type, model.opset_version(), model.metadata
    write_model(model, "copy.onnx")
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.onnx import wire
from framework.onnx.errors import OnnxFormatError
from framework.onnx.tensor_proto import decode_tensor, encode_tensor

# AttributeProto.AttributeType
_FLOAT, _INT, _STRING, _TENSOR, _GRAPH = 1, 2, 3, 4, 5
_FLOATS, _INTS, _STRINGS, _TENSORS, _GRAPHS = 6, 7, 8, 9, 10


@dataclass
class ValueInfoProto:
    """A graph input/output: name, element type (TensorProto.DataType) and shape (ints for
    fixed dims, strings for named dynamic dims, None for unknown); shape None = unknown rank."""

    name: str
    elem_type: int = 0
    shape: list[int | str | None] | None = None


@dataclass
class NodeProto:
    op_type: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    domain: str = ""


@dataclass
class GraphProto:
    name: str = ""
    nodes: list[NodeProto] = field(default_factory=list)
    inputs: list[ValueInfoProto] = field(default_factory=list)
    outputs: list[ValueInfoProto] = field(default_factory=list)
    initializers: dict[str, np.ndarray] = field(default_factory=dict)
    value_info: list[ValueInfoProto] = field(default_factory=list)
    doc_string: str = ""


@dataclass
class ModelProto:
    graph: GraphProto
    opset_imports: dict[str, int] = field(default_factory=lambda: {"": 17})
    ir_version: int = 8
    producer_name: str = ""
    producer_version: str = ""
    domain: str = ""
    model_version: int = 0
    doc_string: str = ""
    metadata: dict[str, str] = field(default_factory=dict)

    def opset_version(self) -> int:
        """The version of the default (ai.onnx) op set."""
        return self.opset_imports.get("", self.opset_imports.get("ai.onnx", 0))


# --- writing ------------------------------------------------------------------------------------
def serialize_model(model: ModelProto) -> bytes:
    """The model as ONNX bytes (a ModelProto message)."""
    out = wire.Writer().varint(1, model.ir_version)
    if model.producer_name:
        out.string(2, model.producer_name)
    if model.producer_version:
        out.string(3, model.producer_version)
    if model.domain:
        out.string(4, model.domain)
    if model.model_version:
        out.varint(5, model.model_version)
    if model.doc_string:
        out.string(6, model.doc_string)
    out.message(7, _encode_graph(model.graph))
    for domain, version in model.opset_imports.items():
        opset = wire.Writer()
        if domain:
            opset.string(1, domain)
        out.message(8, opset.varint(2, version))
    for key, value in model.metadata.items():
        out.message(14, wire.Writer().string(1, key).string(2, value))
    return out.getvalue()


def write_model(model: ModelProto, path: str | os.PathLike) -> None:
    with open(path, "wb") as handle:
        handle.write(serialize_model(model))


def _encode_graph(graph: GraphProto) -> wire.Writer:
    out = wire.Writer()
    for node in graph.nodes:
        out.message(1, _encode_node(node))
    if graph.name:
        out.string(2, graph.name)
    for name, array in graph.initializers.items():
        out.message(5, encode_tensor(array, name))
    if graph.doc_string:
        out.string(10, graph.doc_string)
    for number, infos in ((11, graph.inputs), (12, graph.outputs), (13, graph.value_info)):
        for info in infos:
            out.message(number, _encode_value_info(info))
    return out


def _encode_node(node: NodeProto) -> wire.Writer:
    out = wire.Writer()
    for name in node.inputs:
        out.string(1, name)
    for name in node.outputs:
        out.string(2, name)
    if node.name:
        out.string(3, node.name)
    out.string(4, node.op_type)
    for key, value in node.attrs.items():
        out.message(5, _encode_attribute(key, value))
    if node.domain:
        out.string(7, node.domain)
    return out


def _encode_attribute(name: str, value: Any) -> wire.Writer:
    out = wire.Writer().string(1, name)
    if isinstance(value, bool | int | np.integer):
        return out.varint(3, int(value)).varint(20, _INT)
    if isinstance(value, float | np.floating):
        return out.float32(2, float(value)).varint(20, _FLOAT)
    if isinstance(value, str | bytes):
        data = value.encode("utf-8") if isinstance(value, str) else value
        return out.bytes(4, data).varint(20, _STRING)
    if isinstance(value, np.ndarray):
        return out.message(5, encode_tensor(value)).varint(20, _TENSOR)
    if isinstance(value, GraphProto):
        return out.message(6, _encode_graph(value)).varint(20, _GRAPH)
    if isinstance(value, list | tuple):
        items = list(value)
        if items and all(isinstance(v, str | bytes) for v in items):
            for v in items:
                out.bytes(9, v.encode("utf-8") if isinstance(v, str) else v)
            return out.varint(20, _STRINGS)
        if items and all(isinstance(v, np.ndarray) for v in items):
            for v in items:
                out.message(10, encode_tensor(v))
            return out.varint(20, _TENSORS)
        if any(isinstance(v, float | np.floating) for v in items):
            for v in items:
                out.float32(7, float(v))
            return out.varint(20, _FLOATS)
        if all(isinstance(v, bool | int | np.integer) for v in items):
            return out.varints(8, [int(v) for v in items]).varint(20, _INTS)
    raise TypeError(f"attribute {name!r}: cannot store {type(value).__name__} {value!r} in ONNX")


def _encode_value_info(info: ValueInfoProto) -> wire.Writer:
    tensor_type = wire.Writer().varint(1, info.elem_type)
    if info.shape is not None:
        shape = wire.Writer()
        for dim in info.shape:
            entry = wire.Writer()
            if isinstance(dim, str):
                entry.string(2, dim)
            elif dim is not None:
                entry.varint(1, int(dim))
            shape.message(1, entry)
        tensor_type.message(2, shape)
    type_proto = wire.Writer().message(1, tensor_type)
    return wire.Writer().string(1, info.name).message(2, type_proto)


# --- reading ------------------------------------------------------------------------------------
def read_model(path: str | os.PathLike) -> ModelProto:
    """Parse the ONNX file at `path` (tensors stored in external files are read from its folder)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise OnnxFormatError(f"cannot read ONNX file {os.fspath(path)!r}: {error}") from error
    try:
        return parse_model(data, base_dir=os.path.dirname(os.path.abspath(path)))
    except OnnxFormatError as error:
        raise OnnxFormatError(f"{os.fspath(path)!r} is not a valid ONNX model: {error}") from None


def parse_model(data: bytes, base_dir: str | None = None) -> ModelProto:
    """Parse ONNX bytes. Raises OnnxFormatError for anything that is not a whole ModelProto."""
    if not data:
        raise OnnxFormatError("the data is empty")
    reader = _Reader(bytes(data), base_dir)
    model = ModelProto(graph=GraphProto(), opset_imports={})
    seen_graph = False
    for number, wire_type, value in wire.fields(reader.buf, 0, len(reader.buf)):
        if number == 1 and wire_type == wire.VARINT:
            model.ir_version = int(value)
        elif number in (2, 3, 4, 6) and wire_type == wire.LENGTH:
            attr = {2: "producer_name", 3: "producer_version", 4: "domain", 6: "doc_string"}
            setattr(model, attr[number], wire.text(reader.buf, value))
        elif number == 5 and wire_type == wire.VARINT:
            model.model_version = int(value)
        elif number == 7 and wire_type == wire.LENGTH:
            model.graph = reader.graph(value)
            seen_graph = True
        elif number == 8 and wire_type == wire.LENGTH:
            domain, version = "", 0
            for n, t, v in wire.fields(reader.buf, *value):
                if n == 1 and t == wire.LENGTH:
                    domain = wire.text(reader.buf, v)
                elif n == 2 and t == wire.VARINT:
                    version = int(v)
            model.opset_imports[domain] = version
        elif number == 14 and wire_type == wire.LENGTH:
            key, text = reader.string_pair(value)
            model.metadata[key] = text
    if not seen_graph:
        raise OnnxFormatError("no graph (this is not an ONNX ModelProto)")
    if model.ir_version <= 0 or model.ir_version > 100:
        raise OnnxFormatError(f"implausible IR version {model.ir_version}")
    if not model.opset_imports:
        model.opset_imports[""] = 1
    return model


class _Reader:
    def __init__(self, buf: bytes, base_dir: str | None) -> None:
        self.buf = buf
        self.base_dir = base_dir

    def string_pair(self, span: tuple[int, int]) -> tuple[str, str]:
        key = value = ""
        for n, t, v in wire.fields(self.buf, *span):
            if t == wire.LENGTH and n == 1:
                key = wire.text(self.buf, v)
            elif t == wire.LENGTH and n == 2:
                value = wire.text(self.buf, v)
        return key, value

    def graph(self, span: tuple[int, int]) -> GraphProto:
        graph = GraphProto()
        buf = self.buf
        for number, wire_type, value in wire.fields(buf, *span):
            if wire_type != wire.LENGTH:
                continue
            if number == 1:
                graph.nodes.append(self.node(value))
            elif number == 2:
                graph.name = wire.text(buf, value)
            elif number == 5:
                name, array = decode_tensor(buf, value, self.base_dir)
                graph.initializers[name] = array
            elif number == 10:
                graph.doc_string = wire.text(buf, value)
            elif number == 11:
                graph.inputs.append(self.value_info(value))
            elif number == 12:
                graph.outputs.append(self.value_info(value))
            elif number == 13:
                graph.value_info.append(self.value_info(value))
            elif number == 15:
                raise OnnxFormatError("sparse initializers are not supported")
        return graph

    def node(self, span: tuple[int, int]) -> NodeProto:
        node = NodeProto("", [], [])
        buf = self.buf
        for number, wire_type, value in wire.fields(buf, *span):
            if wire_type != wire.LENGTH:
                continue
            if number == 1:
                node.inputs.append(wire.text(buf, value))
            elif number == 2:
                node.outputs.append(wire.text(buf, value))
            elif number == 3:
                node.name = wire.text(buf, value)
            elif number == 4:
                node.op_type = wire.text(buf, value)
            elif number == 5:
                key, attr = self.attribute(value)
                node.attrs[key] = attr
            elif number == 7:
                node.domain = wire.text(buf, value)
        if not node.op_type:
            raise OnnxFormatError(f"a node without an op type (outputs {node.outputs})")
        return node

    def attribute(self, span: tuple[int, int]) -> tuple[str, Any]:
        buf = self.buf
        name, kind = "", 0
        scalars: dict[int, Any] = {}
        floats: list[np.ndarray] = []
        ints: list[np.ndarray] = []
        strings: list[str] = []
        tensors: list[np.ndarray] = []
        graphs: list[GraphProto] = []
        for number, wire_type, value in wire.fields(buf, *span):
            if number == 1 and wire_type == wire.LENGTH:
                name = wire.text(buf, value)
            elif number == 20 and wire_type == wire.VARINT:
                kind = int(value)
            elif number == 2 and wire_type == wire.FIXED32:
                scalars[_FLOAT] = float(np.frombuffer(value, "<f4")[0])
            elif number == 3 and wire_type == wire.VARINT:
                scalars[_INT] = wire.as_signed(value)
            elif number == 4 and wire_type == wire.LENGTH:
                scalars[_STRING] = bytes(buf[value[0] : value[1]]).decode("utf-8", "replace")
            elif number == 5 and wire_type == wire.LENGTH:
                scalars[_TENSOR] = decode_tensor(buf, value, self.base_dir)[1]
            elif number == 6 and wire_type == wire.LENGTH:
                scalars[_GRAPH] = self.graph(value)
            elif number == 7:
                floats.append(
                    wire.packed_fixed(buf, value, "<f4")
                    if wire_type == wire.LENGTH
                    else np.frombuffer(value, "<f4")
                )
            elif number == 8:
                ints.append(
                    wire.packed_varints(buf, value)
                    if wire_type == wire.LENGTH
                    else np.array([wire.as_signed(value)], dtype=np.int64)
                )
            elif number == 9 and wire_type == wire.LENGTH:
                strings.append(bytes(buf[value[0] : value[1]]).decode("utf-8", "replace"))
            elif number == 10 and wire_type == wire.LENGTH:
                tensors.append(decode_tensor(buf, value, self.base_dir)[1])
            elif number == 11 and wire_type == wire.LENGTH:
                graphs.append(self.graph(value))
        lists = {
            _FLOATS: [float(v) for v in np.concatenate(floats)] if floats else [],
            _INTS: [int(v) for v in np.concatenate(ints)] if ints else [],
            _STRINGS: strings,
            _TENSORS: tensors,
            _GRAPHS: graphs,
        }
        if kind == 0:  # IR version 1 files have no type field: use whichever field is set
            kind = next(iter(scalars), 0) or next((k for k, v in lists.items() if v), _INTS)
        if kind in scalars:
            return name, scalars[kind]
        if kind in lists:
            return name, lists[kind]
        raise OnnxFormatError(f"attribute {name!r} has an unsupported type {kind}")

    def value_info(self, span: tuple[int, int]) -> ValueInfoProto:
        buf = self.buf
        info = ValueInfoProto("")
        for number, wire_type, value in wire.fields(buf, *span):
            if number == 1 and wire_type == wire.LENGTH:
                info.name = wire.text(buf, value)
            elif number == 2 and wire_type == wire.LENGTH:
                for n, t, v in wire.fields(buf, *value):
                    if n == 1 and t == wire.LENGTH:  # tensor_type
                        self._tensor_type(v, info)
        return info

    def _tensor_type(self, span: tuple[int, int], info: ValueInfoProto) -> None:
        buf = self.buf
        for number, wire_type, value in wire.fields(buf, *span):
            if number == 1 and wire_type == wire.VARINT:
                info.elem_type = int(value)
            elif number == 2 and wire_type == wire.LENGTH:
                info.shape = []
                for n, t, v in wire.fields(buf, *value):
                    if n != 1 or t != wire.LENGTH:
                        continue
                    dim: int | str | None = None
                    for dn, dt, dv in wire.fields(buf, *v):
                        if dn == 1 and dt == wire.VARINT:
                            dim = wire.as_signed(dv)
                        elif dn == 2 and dt == wire.LENGTH:
                            dim = wire.text(buf, dv) or None
                    info.shape.append(dim)
