"""The state of one export: the ONNX nodes and initializers written so far, and the helpers
op handlers use to emit them.

A handler (`@exports("conv2d")`) is `handler(ctx, node, inputs)`: `node` is the IR node, `inputs`
its input names on the ONNX side ("" for an absent optional input; an input hook may have
renamed them, e.g. to the output of a DequantizeLinear) and it must produce `node.outputs`.

Extending the exporter: register more handlers, or pass `input_hook(ctx, node, index, name)
-> name` to `export_graph` to rewrite what each node reads - the INT8 exporter uses it with
`ctx.quantize_dequantize` to put QuantizeLinear/DequantizeLinear pairs in front of nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.jit.graph import Graph, Node
from framework.onnx.errors import OnnxExportError
from framework.onnx.proto import NodeProto
from framework.onnx.tensor_proto import onnx_type

InputHook = Callable[["ExportContext", Node, int, str], str]


class ExportContext:
    """See the module docstring."""

    def __init__(self, graph: Graph, opset: int) -> None:
        self.graph = graph
        self.opset = opset
        self.nodes: list[NodeProto] = []
        self.initializers: dict[str, np.ndarray] = {}
        self._taken: set[str] = set(graph.values)
        self._info: dict[str, tuple[list[int | None], np.dtype]] = {
            name: (list(v.shape), np.dtype(v.dtype)) for name, v in graph.values.items()
        }
        self._cache: dict[tuple, str] = {}
        self._node_name = "node"
        self._node_count = 0

    # --- names and value descriptions ---------------------------------------------------------
    def fresh(self, base: str) -> str:
        """A value name not used anywhere in the graph yet."""
        name = base
        k = 1
        while name in self._taken:
            name = f"{base}_{k}"
            k += 1
        self._taken.add(name)
        return name

    def shape(self, name: str) -> list[int | None]:
        return list(self._info[name][0])

    def dtype(self, name: str) -> np.dtype:
        return self._info[name][1]

    def describe(self, name: str, shape: Sequence[int | None], dtype: object) -> None:
        """Record the shape and dtype of a value a handler made (for later handlers/hooks)."""
        self._info[name] = (list(shape), np.dtype(dtype))

    def is_initializer(self, name: str) -> bool:
        return name in self.graph.initializers or name in self.initializers

    def array(self, name: str) -> np.ndarray:
        """The value of an initializer (IR or one this export added)."""
        if name in self.initializers:
            return self.initializers[name]
        return np.asarray(to_numpy(self.graph.tensors[name]))

    # --- emitting -------------------------------------------------------------------------------
    def begin(self, node: Node) -> None:
        self._node_name = node.name
        self._node_count = 0

    def use(self, name: str) -> str:
        """`name` as an ONNX value; an IR initializer is written the first time it is read."""
        if name and name in self.graph.initializers and name not in self.initializers:
            self.initializers[name] = np.asarray(to_numpy(self.graph.tensors[name]))
        return name

    def const(self, array: Any, base: str = "const") -> str:
        """A new initializer holding `array` (small identical constants are shared)."""
        array = np.asarray(array)
        key = None
        if array.size <= 64:
            key = (array.dtype.str, array.shape, array.tobytes())
            if key in self._cache:
                return self._cache[key]
        name = self.fresh(f"{self._node_name}/{base}")
        self.initializers[name] = array
        self.describe(name, array.shape, array.dtype)
        if key is not None:
            self._cache[key] = name
        return name

    def ints(self, values: Sequence[int], base: str = "ints") -> str:
        return self.const(np.asarray(list(values), dtype=np.int64), base)

    def scalar(self, value: float, like: str, base: str = "scalar") -> str:
        """A 0-d constant with the dtype of the value `like`."""
        return self.const(np.asarray(value, dtype=self.dtype(like)), base)

    def add(
        self,
        op_type: str,
        inputs: Sequence[str],
        outputs: int | Sequence[str] = 1,
        domain: str = "",
        **attrs: Any,
    ) -> str | list[str]:
        """Append an ONNX node. `outputs` is a list of names or a count of fresh ones; returns
        the output name (one output) or names. Attributes that are None are left out."""
        if isinstance(outputs, int):
            names = [self.fresh(f"{self._node_name}/{op_type}") for _ in range(outputs)]
        else:
            names = list(outputs)
        self._node_count += 1
        inputs = list(inputs)
        while inputs and inputs[-1] == "":
            inputs.pop()
        self.nodes.append(
            NodeProto(
                op_type,
                [self.use(n) for n in inputs],
                names,
                {k: v for k, v in attrs.items() if v is not None},
                f"{self._node_name}/{op_type}_{self._node_count}",
                domain,
            )
        )
        return names[0] if len(names) == 1 else names

    def cast(self, name: str, dtype: object) -> str:
        """`name` as `dtype`: a converted copy of a constant, else a Cast node."""
        dtype = np.dtype(dtype)
        if self.dtype(name) == dtype:
            return name
        if self.is_initializer(name):
            return self.const(self.array(name).astype(dtype), "cast")
        out = self.add("Cast", [name], to=onnx_type(dtype))
        self.describe(out, self.shape(name), dtype)
        return out

    def quantize_dequantize(
        self,
        name: str,
        scale: Any,
        zero_point: Any,
        axis: int | None = None,
    ) -> str:
        """A QuantizeLinear -> DequantizeLinear pair on `name` (QDQ format): scale is float32
        (a scalar, or one per channel along `axis`), zero_point int8 or uint8 of the same
        shape. Returns the dequantized value's name, described like `name`."""
        scale_name = self.const(np.asarray(scale, dtype=np.float32), "scale")
        zero = np.asarray(zero_point)
        if zero.dtype not in (np.int8, np.uint8):
            raise OnnxExportError(f"zero points must be int8 or uint8, got {zero.dtype}")
        zero_name = self.const(zero, "zero_point")
        per_axis = axis if np.ndim(scale) else None
        quantized = self.add("QuantizeLinear", [name, scale_name, zero_name], axis=per_axis)
        self.describe(quantized, self.shape(name), zero.dtype)
        out = self.add("DequantizeLinear", [quantized, scale_name, zero_name], axis=per_axis)
        self.describe(out, self.shape(name), np.float32)
        return out
