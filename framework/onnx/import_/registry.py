"""How each ONNX op runs on framework ops, and what its inputs mean to the importer.

A handler is `run(ctx, node, args)`: `node` is the `NodeProto` (attributes in `node.attrs`),
`args` its inputs as Tensors (None for an absent optional input); it returns a Tensor or a
sequence of them (one per output). Float data goes through the framework's differentiable ops,
so an imported model trains; integer and boolean tensors (shapes, indices, masks) are computed
directly on arrays (`array_op`), since nothing differentiates them.

Registering declares the role of the inputs, which decides what constants become:

- `static`: inputs read as plain values (shapes, axes, scales, pads, clip bounds): constants;
- `weights`: inputs that are learned weights (Conv/Gemm/MatMul/normalization/PRelu): a float
  constant there becomes a trainable Parameter;
- `stats`: running statistics (BatchNormalization mean and variance): persistable buffers;
- any other input is data: a float constant with more than one element there becomes a
  Parameter (an Add bias, a Mul scale, a LayerNorm decomposition's gamma), a scalar stays
  a constant (the 3 and 6 of a hard-swish, an epsilon).

`check(node, opset)` may return why a node's settings are not supported; the loader collects
those with the unknown op types and reports them all at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor
from framework.onnx.proto import NodeProto


@dataclass(frozen=True)
class RunContext:
    opset: int
    training: bool


Handler = Callable[[RunContext, NodeProto, list], Any]
Check = Callable[[NodeProto, int], str | None]


@dataclass(frozen=True)
class ImportSpec:
    run: Handler
    static: frozenset[int]
    weights: frozenset[int]
    stats: frozenset[int]
    check: Check | None
    foldable: bool


_SPECS: dict[str, ImportSpec] = {}


def imports(
    *op_types: str,
    static: Sequence[int] = (),
    weights: Sequence[int] = (),
    stats: Sequence[int] = (),
    check: Check | None = None,
    foldable: bool = True,
) -> Callable[[Handler], Handler]:
    """Register `run` for ONNX `op_types` (default domain); see the module docstring."""

    def register(run: Handler) -> Handler:
        spec = ImportSpec(
            run, frozenset(static), frozenset(weights), frozenset(stats), check, foldable
        )
        for op_type in op_types:
            _SPECS[op_type] = spec
        return run

    return register


def spec_for(op_type: str, domain: str = "") -> ImportSpec | None:
    if domain not in ("", "ai.onnx"):
        return None
    return _SPECS.get(op_type)


def supported_ops() -> list[str]:
    """Every ONNX op type the importer runs (Constant nodes are folded by the loader)."""
    return sorted({*_SPECS, "Constant"})


# --- helpers for handlers -----------------------------------------------------------------------
def values(t: Tensor) -> np.ndarray:
    """A static input's values on the host."""
    return np.asarray(to_numpy(t._data))


def ints(t: Tensor | None) -> list[int] | None:
    return None if t is None else [int(v) for v in values(t).reshape(-1)]


def scalar(t: Tensor | None, default: float | None = None) -> float | None:
    if t is None:
        return default
    flat = values(t).reshape(-1)
    return default if flat.size == 0 else flat[0].item()


def is_float(t: Tensor) -> bool:
    return t._data.dtype.kind in "fc"


def array_op(function: Callable, *tensors: Tensor) -> Tensor:
    """`function(xp, *arrays)` on the raw arrays, as a Tensor without gradient."""
    arrays = [t._data for t in tensors]
    return Tensor._wrap(function(get_array_module(arrays[0]), *arrays))


def new_array(like: Tensor, array: np.ndarray) -> Tensor:
    """A host array as a Tensor on `like`'s device."""
    return Tensor._wrap(get_array_module(like._data).asarray(array))


def text_attr(node: NodeProto, name: str, default: str | None = None) -> str | None:
    """A string attribute as text. The decoder gives `str`, but nodes built by hand (or by
    `onnx.helper`) may hold the raw UTF-8 `bytes` that ONNX stores."""
    value = node.attrs.get(name)
    return default if value is None else _text(value)


def text_attrs(node: NodeProto, name: str) -> list[str]:
    """A list-of-strings attribute (such as RNN `activations`) as text; [] when absent."""
    return [_text(v) for v in node.attrs.get(name, [])]


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def attr_or_input(node: NodeProto, args: list, index: int, name: str, since: int, opset: int):
    """A value that moved from an attribute to an input at opset `since` (axes, pads, ...)."""
    if opset >= since:
        return ints(args[index]) if len(args) > index else None
    value = node.attrs.get(name)
    return None if value is None else list(value)
