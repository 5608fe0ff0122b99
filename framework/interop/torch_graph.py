"""Replay a torch.fx graph with framework ops: the forward of a torch module with custom code.

`trace(module)` records the module's forward as a torch.fx graph in which every submodule is
one opaque call (`call_module`), so each submodule is translated on its own and keeps its
name. `GraphLayer` holds the translated children and runs the graph's calls in order, each
torch function or Tensor method mapped to its framework counterpart by the tables below.
Values in the graph keep torch's conventions (a Linear weight read by `get_attr` is `[out, in]`).
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch.fx
import torch.nn.functional as TF

import framework
import framework.nn.functional as F
from framework.core.tensor import Tensor
from framework.nn import Layer

__all__ = ["FUNCTIONS", "METHODS", "GraphLayer", "trace"]

_NO_DEFAULT = object()


class _EveryModuleIsALeaf(torch.fx.Tracer):
    def is_leaf_module(self, module: torch.nn.Module, qualified_name: str) -> bool:
        return True


def trace(module: torch.nn.Module) -> torch.fx.Graph:
    """The forward of `module` as an fx graph, each submodule call one node."""
    return _EveryModuleIsALeaf().trace(module)


# --- torch functions and Tensor methods, in framework ops -------------------------------------
def _axis(dim: Any) -> Any:
    return list(dim) if isinstance(dim, tuple) else dim


def _shape(args: tuple) -> list:
    return list(args[0]) if len(args) == 1 and isinstance(args[0], list | tuple) else list(args)


def _add(input: Any, other: Any, *, alpha: float = 1) -> Any:
    return input + (other * alpha if alpha != 1 else other)


def _sub(input: Any, other: Any, *, alpha: float = 1) -> Any:
    return input - (other * alpha if alpha != 1 else other)


def _div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Any:
    if rounding_mode == "floor":
        return input // other
    if rounding_mode is not None:
        return framework.trunc(input / other)
    return input / other


def _flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return framework.flatten(input, start_dim, end_dim)


def _cat(tensors: Any, dim: int = 0) -> Tensor:
    return framework.concat(list(tensors), axis=dim)


def _stack(tensors: Any, dim: int = 0) -> Tensor:
    return framework.stack(list(tensors), axis=dim)


def _softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Any:
    if dim is None:
        raise ValueError("softmax without dim (torch's implicit dim) cannot be converted")
    return F.softmax(input, axis=dim)


def _log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None):
    if dim is None:
        raise ValueError("log_softmax without dim (torch's implicit dim) cannot be converted")
    return F.log_softmax(input, axis=dim)


def _gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return F.gelu(input, approximate=approximate == "tanh")


def _avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    return F.avg_pool2d(
        input,
        kernel_size,
        stride or None,
        padding,
        ceil_mode,
        not count_include_pad,
        divisor_override,
    )


def _max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    if dilation not in (1, (1, 1)) or return_indices:
        raise ValueError("max_pool2d with dilation or return_indices cannot be converted")
    return F.max_pool2d(input, kernel_size, stride or None, padding, ceil_mode=ceil_mode)


def _dropout(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False, *, _training: bool
) -> Tensor:
    # the traced `training` is the torch module's mode at trace time (`training=self.training`
    # becomes a constant); the converted layer's own mode decides instead
    return F.dropout(input, p, training=_training)


def _linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    out = framework.matmul(input, weight, transpose_y=True)  # torch's weight is [out, in]
    return out if bias is None else out + bias


def _mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    return framework.mean(input, axis=_axis(dim), keepdim=keepdim)


def _sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    return framework.sum(input, axis=_axis(dim), keepdim=keepdim)


def _transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    perm = list(range(input.ndim))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    return framework.transpose(input, perm)


def _permute(input: Tensor, *dims: Any) -> Tensor:
    return framework.transpose(input, _shape(dims))


def _reshape(input: Tensor, *shape: Any) -> Tensor:
    return framework.reshape(input, _shape(shape))


def _squeeze(input: Tensor, dim: Any = None) -> Tensor:
    return framework.squeeze(input, axis=_axis(dim))


def _unsqueeze(input: Tensor, dim: int) -> Tensor:
    return framework.unsqueeze(input, axis=dim)


def _chunk(input: Tensor, chunks: int, dim: int = 0) -> list:
    return framework.chunk(input, chunks, axis=dim)


def _split(input: Tensor, split_size_or_sections: Any, dim: int = 0) -> list:
    """torch.split: an int is the size of each piece (the last may be smaller), where Paddle's
    int is the number of pieces; a list is the sizes in both."""
    if isinstance(split_size_or_sections, int):
        size, total = split_size_or_sections, input.shape[dim]
        sections = [size] * (total // size) + ([total % size] if total % size else [])
    else:
        sections = list(split_size_or_sections)
    return framework.split(input, sections, axis=dim)


def interpolate(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """torch.nn.functional.interpolate: torch samples where Paddle's align_mode=0 does
    ('nearest' floors, linear and cubic use pixel centres unless align_corners)."""
    if mode == "nearest-exact" or antialias:
        raise ValueError(f"interpolate(mode={mode!r}, antialias={antialias}) cannot be converted")
    return F.interpolate(
        input,
        size=size,
        scale_factor=scale_factor,
        mode=mode,
        align_corners=bool(align_corners),
        align_mode=0,
        recompute_scale_factor=recompute_scale_factor,
    )


def _size(input: Tensor, dim: int | None = None) -> Any:
    return list(input.shape) if dim is None else input.shape[dim]


_ATTRIBUTES = ("shape", "ndim")


def _getattr(obj: Any, name: str) -> Any:
    return list(obj.shape) if name == "shape" else obj.ndim


def _unary(function: Callable) -> Callable:
    def apply(input: Tensor, *args: Any, inplace: bool = False, **kwargs: Any) -> Tensor:
        return function(input, *args, **kwargs)

    return apply


FUNCTIONS: dict[Any, Callable] = {
    operator.add: _add,
    operator.iadd: _add,
    torch.add: _add,
    operator.sub: _sub,
    operator.isub: _sub,
    torch.sub: _sub,
    operator.mul: operator.mul,
    operator.imul: operator.mul,
    torch.mul: operator.mul,
    operator.truediv: operator.truediv,
    torch.div: _div,
    operator.floordiv: operator.floordiv,
    operator.neg: operator.neg,
    operator.matmul: framework.matmul,
    torch.matmul: framework.matmul,
    operator.getitem: operator.getitem,
    builtins.getattr: _getattr,
    torch.flatten: _flatten,
    torch.cat: _cat,
    torch.concat: _cat,
    torch.stack: _stack,
    torch.reshape: _reshape,
    torch.transpose: _transpose,
    torch.permute: _permute,
    torch.squeeze: _squeeze,
    torch.unsqueeze: _unsqueeze,
    torch.chunk: _chunk,
    torch.split: _split,
    TF.interpolate: interpolate,
    torch.mean: _mean,
    torch.sum: _sum,
    torch.relu: _unary(F.relu),
    TF.relu: _unary(F.relu),
    TF.relu6: _unary(F.relu6),
    TF.leaky_relu: _unary(F.leaky_relu),
    TF.gelu: _gelu,
    TF.silu: _unary(F.silu),
    TF.hardswish: _unary(F.hardswish),
    TF.hardsigmoid: _unary(F.hardsigmoid),
    torch.sigmoid: F.sigmoid,
    TF.sigmoid: F.sigmoid,
    torch.tanh: F.tanh,
    TF.tanh: F.tanh,
    torch.softmax: _softmax,
    TF.softmax: _softmax,
    TF.log_softmax: _log_softmax,
    TF.adaptive_avg_pool2d: F.adaptive_avg_pool2d,
    TF.avg_pool2d: _avg_pool2d,
    TF.max_pool2d: _max_pool2d,
    TF.dropout: _dropout,
    TF.linear: _linear,
}

METHODS: dict[str, Callable] = {
    "view": _reshape,
    "reshape": _reshape,
    "flatten": _flatten,
    "size": _size,
    "dim": lambda input: input.ndim,
    "mean": _mean,
    "sum": _sum,
    "permute": _permute,
    "transpose": _transpose,
    "contiguous": lambda input, memory_format=None: input,
    "relu": F.relu,
    "relu_": F.relu,
    "sigmoid": F.sigmoid,
    "tanh": F.tanh,
    "softmax": _softmax,
    "add": _add,
    "add_": _add,
    "sub": _sub,
    "mul": operator.mul,
    "mul_": operator.mul,
    "div": _div,
    "matmul": framework.matmul,
    "unsqueeze": _unsqueeze,
    "squeeze": _squeeze,
    "chunk": _chunk,
    "split": _split,
}


# --- the replaying layer -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Ref:
    """The value of an earlier node, by position in the program."""

    index: int


@dataclass
class _Step:
    function: Callable
    args: tuple
    kwargs: dict
    uses_mode: bool = False


class GraphLayer(Layer):
    """Runs a translated fx graph; sublayers carry the torch module's child names."""

    def __init__(self, type_name: str) -> None:
        super().__init__()
        self._type_name = type_name
        self._inputs: list[tuple[str, Any]] = []
        self._program: list[_Step] = []
        self._result: Any = None

    def build(
        self, graph: torch.fx.Graph, attribute: Callable[[str], Any], problems: list[str]
    ) -> None:
        """Compile `graph`; `attribute(path)` gives the framework value of a `get_attr` or
        `call_module` target. Unsupported calls are appended to `problems`."""
        index: dict[torch.fx.Node, _Ref] = {}

        def refs(value: Any) -> Any:
            return torch.fx.node.map_arg(value, lambda node: index[node])

        for node in graph.nodes:
            if node.op == "placeholder":
                default = node.args[0] if node.args else _NO_DEFAULT
                self._inputs.append((node.name, default))
                index[node] = _Ref(len(index))
                continue
            if node.op == "output":
                self._result = refs(node.args[0])
                continue
            function = self._function(node, attribute, problems)
            step = _Step(function, refs(tuple(node.args)), refs(dict(node.kwargs)))
            step.uses_mode = function is _dropout
            self._program.append(step)
            index[node] = _Ref(len(index))

    def _function(self, node: torch.fx.Node, attribute: Callable, problems: list[str]) -> Callable:
        if node.op == "call_module":
            return attribute(node.target)
        if node.op == "get_attr":  # looked up per call: a transposed Linear weight is fresh
            attribute(node.target)
            return lambda: attribute(node.target)
        if node.target is builtins.getattr and node.args[1] not in _ATTRIBUTES:
            problems.append(f"{self._type_name}: Tensor attribute '.{node.args[1]}'")
            return _unsupported
        table, name = (
            (FUNCTIONS, node.target) if node.op == "call_function" else (METHODS, node.target)
        )
        function = table.get(name)
        if function is None:
            label = getattr(name, "__qualname__", None) or str(name)
            module = getattr(name, "__module__", None)
            where = f"{module}.{label}" if node.op == "call_function" and module else label
            kind = "function" if node.op == "call_function" else "Tensor method"
            problems.append(f"{self._type_name}: {kind} '{where}'")
            return _unsupported
        return function

    def forward(self, *inputs: Any, **named: Any) -> Any:
        values: list[Any] = []
        for position, (name, default) in enumerate(self._inputs):
            if position < len(inputs):
                values.append(inputs[position])
            elif name in named:
                values.append(named[name])
            elif default is not _NO_DEFAULT:
                values.append(default)
            else:
                raise TypeError(f"{self._type_name}.forward is missing the input {name!r}")
        for step in self._program:
            args = _resolve(step.args, values)
            kwargs = _resolve(step.kwargs, values)
            if step.uses_mode:
                kwargs["_training"] = self.training
            values.append(step.function(*args, **kwargs))
        return _resolve(self._result, values)

    def extra_repr(self) -> str:
        return f"from torch {self._type_name}, {len(self._program)} calls"


def _unsupported(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("unsupported call in a converted torch graph")


def _resolve(value: Any, values: list[Any]) -> Any:
    if isinstance(value, _Ref):
        return values[value.index]
    if isinstance(value, tuple):
        return tuple(_resolve(v, values) for v in value)
    if isinstance(value, list):
        return [_resolve(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, values) for k, v in value.items()}
    return value
