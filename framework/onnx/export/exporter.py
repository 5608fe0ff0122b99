"""`framework.onnx.export`: trace a layer to the graph IR (`framework.jit`) and write it as ONNX.

Each IR op type has a handler (`@exports(op_type)`, in `ops_*.py` by family) that emits the
ONNX nodes for it. Dynamic dimensions (None in the InputSpec) become named `dim_param`s
(`batch` for the leading one), initializers are written as raw little-endian data.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.jit.graph import Graph, Node
from framework.onnx.errors import OnnxExportError
from framework.onnx.export.context import ExportContext, InputHook
from framework.onnx.proto import GraphProto, ModelProto, ValueInfoProto, write_model
from framework.onnx.tensor_proto import onnx_type

MIN_OPSET, MAX_OPSET = 11, 23
# The IR version each opset needs (onnx.helper.VERSION_TABLE).
_IR_VERSION = {
    11: 6, 12: 7, 13: 7, 14: 7, 15: 8, 16: 8, 17: 8, 18: 8, 19: 9, 20: 9, 21: 10, 22: 10, 23: 11
}  # fmt: skip

Handler = Callable[[ExportContext, Node, list[str]], None]
_HANDLERS: dict[str, Handler] = {}


def exports(*op_types: str) -> Callable[[Handler], Handler]:
    """Register `handler(ctx, node, inputs)` for IR `op_types` (see `ExportContext`)."""

    def register(handler: Handler) -> Handler:
        for op_type in op_types:
            _HANDLERS[op_type] = handler
        return handler

    return register


def exportable_ops() -> list[str]:
    """Every IR op type the exporter writes."""
    return sorted(_HANDLERS)


def export_graph(
    graph: Graph,
    opset_version: int = 17,
    input_hook: InputHook | None = None,
    metadata: dict[str, str] | None = None,
) -> ModelProto:
    """The IR `graph` as an ONNX ModelProto (see `export`). Raises OnnxExportError listing
    every op (with counts) that has no ONNX form at this opset."""
    if not MIN_OPSET <= opset_version <= MAX_OPSET:
        raise OnnxExportError(
            f"opset_version {opset_version} is not supported; choose {MIN_OPSET}..{MAX_OPSET}"
        )
    missing = Counter(n.op_type for n in graph.nodes if n.op_type not in _HANDLERS)
    ctx = ExportContext(graph, opset_version)
    if not missing:
        for node in graph.nodes:
            ctx.begin(node)
            inputs = [ctx.use(name) for name in node.inputs]
            if input_hook is not None:
                inputs = [
                    input_hook(ctx, node, i, name) if name else name
                    for i, name in enumerate(inputs)
                ]
            try:
                _HANDLERS[node.op_type](ctx, node, inputs)
            except OnnxExportError as error:
                missing[str(error)] += 1
    if missing:
        listing = ", ".join(f"{op} ({count})" for op, count in missing.most_common())
        raise OnnxExportError(
            f"cannot export {graph.name} to ONNX opset {opset_version}: no ONNX form for "
            f"{listing}. framework.onnx.exportable_ops() lists the supported graph ops."
        )
    onnx_graph = GraphProto(
        name=graph.name,
        nodes=ctx.nodes,
        inputs=[_value_info(ctx, name) for name in graph.inputs],
        outputs=[_value_info(ctx, name) for name in _outputs(ctx, graph)],
        initializers=ctx.initializers,
    )
    from framework import __version__

    return ModelProto(
        graph=onnx_graph,
        opset_imports={"": opset_version},
        ir_version=_IR_VERSION[opset_version],
        producer_name="sampan-framework",
        producer_version=__version__,
        metadata=dict(metadata or {}),
    )


def _outputs(ctx: ExportContext, graph: Graph) -> list[str]:
    """Graph outputs; one that is an input or an initializer gets an Identity in front."""
    names = []
    for name in graph.outputs:
        if name in graph.inputs or name in graph.initializers or name in names:
            alias = ctx.fresh(f"{name}_out")
            ctx.add("Identity", [name], [alias])
            ctx.describe(alias, ctx.shape(name), ctx.dtype(name))
            name = alias
        names.append(name)
    return names


def _value_info(ctx: ExportContext, name: str) -> ValueInfoProto:
    shape: list[int | str | None] = []
    for axis, dim in enumerate(ctx.shape(name)):
        if dim is not None:
            shape.append(int(dim))
        else:
            shape.append("batch" if axis == 0 else f"{name}_dim{axis}")
    return ValueInfoProto(name, onnx_type(ctx.dtype(name)), shape)


def export(
    layer: Any,
    path: str | os.PathLike,
    input_spec: Sequence[Any] | None = None,
    opset_version: int = 17,
    **configs: Any,
) -> str:
    """Write `layer` as an ONNX model at `path` (".onnx" is appended when missing), as
    `paddle.onnx.export`. Returns the file's path.

    `layer` is a Layer or function (traced with `framework.jit`, in eval mode), a
    `jit.load`-ed TranslatedLayer, or a `framework.jit.Graph`. `input_spec` lists InputSpecs
    (None marks a dynamic dim, exported as a named dim_param) or example Tensors. Options in
    `configs`: `example_inputs` (Tensors for dims other than the batch), `metadata` (str->str,
    stored as metadata_props, e.g. labels), `input_hook` (see `ExportContext`),
    `enable_onnx_checker` (run `onnx.checker` when the onnx package is installed).

        framework.onnx.export(model, "out/lenet", [InputSpec([None, 1, 28, 28], "float32", "x")])
    """
    unknown = set(configs) - {"example_inputs", "metadata", "input_hook", "enable_onnx_checker"}
    if unknown:
        raise TypeError(f"framework.onnx.export got unexpected options {sorted(unknown)}")
    graph = graph_of(layer, input_spec, configs.get("example_inputs"))
    model = export_graph(graph, opset_version, configs.get("input_hook"), configs.get("metadata"))
    path = os.fspath(path)
    if not path.endswith(".onnx"):
        path += ".onnx"
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    write_model(model, path)
    if configs.get("enable_onnx_checker"):
        import onnx

        onnx.checker.check_model(path)
    return path


def graph_of(layer: Any, input_spec: Sequence[Any] | None, example_inputs: Any = None) -> Graph:
    """The IR graph to export: given, taken from a TranslatedLayer (with its current
    weights), or traced with `framework.jit.trace_layer`."""
    from framework.jit import TranslatedLayer, trace_layer

    if isinstance(layer, Graph):
        return layer
    if isinstance(layer, TranslatedLayer):
        graph = layer.program.copy()
        current = {**dict(layer.named_parameters()), **dict(layer.named_buffers())}
        for name in graph.initializers:
            if name in current:
                graph.tensors[name] = np.asarray(to_numpy(current[name]._data))
        return graph
    return trace_layer(layer, input_spec, example_inputs)
