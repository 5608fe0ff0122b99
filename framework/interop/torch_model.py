"""`convert_model`: a torch module tree rebuilt as framework layers, weights copied.

Each torch module becomes one framework layer under the same name: supported layers map to
their framework twins (`nn.Conv2d` -> `nn.Conv2D`, weights laid out as Paddle wants them),
containers to containers, and a module with its own `forward` (torchvision's BasicBlock,
InvertedResidual, the ResNet itself) to a `GraphLayer` that replays its torch.fx graph.
Needs torch (the caller hands over a torch module); nothing here runs at `import framework`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn as tnn

import framework
from framework import nn
from framework.interop.torch_convert import ConversionError, UnsupportedModuleError
from framework.interop.torch_graph import GraphLayer, interpolate, trace

__all__ = ["ConversionError", "UnsupportedModuleError", "convert_model"]


def convert_model(
    torch_module: tnn.Module,
    input_shape: Sequence[int] | None = None,
    *,
    input_dtype: str = "float32",
    rtol: float = 1e-4,
    atol: float = 1e-5,
) -> nn.Layer:
    """A framework Layer computing what `torch_module` computes, with its weights.

        layer = convert_model(torchvision_resnet18, input_shape=[1, 3, 224, 224])
        layer(framework.randn([1, 3, 224, 224]))        # same as the torch module

    Sublayer names follow the torch module, so `layer.state_dict()` keys are torch's (BatchNorm
    statistics as Paddle's `_mean` / `_variance`). With `input_shape`, both run in eval mode on
    one random input (`input_dtype`, e.g. 'int64' for token ids) and must agree within
    `rtol`/`atol`, else ConversionError. Unsupported layers, functions or Tensor methods raise
    UnsupportedModuleError listing all of them. The result is in the torch module's mode.
    """
    if not isinstance(torch_module, tnn.Module):
        raise TypeError(f"convert_model expects a torch.nn.Module, got {type(torch_module)}")
    problems: list[str] = []
    layer = _Converter(problems).convert(torch_module, type(torch_module).__name__)
    if problems:
        raise UnsupportedModuleError(problems)
    if input_shape is not None:
        _check_outputs(torch_module, layer, list(input_shape), input_dtype, rtol, atol)
    layer.train(torch_module.training)
    return layer


# --- leaf layers -------------------------------------------------------------------------------
def _array(tensor: torch.Tensor) -> np.ndarray:
    return tensor.detach().to("cpu", torch.float32).numpy()


def _copy(target: Any, source: torch.Tensor | None) -> None:
    if target is not None and source is not None:
        target.set_value(_array(source))


def _bias(module: tnn.Module) -> dict:
    return {} if module.bias is not None else {"bias_attr": False}


def _linear(m: tnn.Linear) -> nn.Layer:
    layer = nn.Linear(m.in_features, m.out_features, **_bias(m))
    layer.weight.set_value(_array(m.weight).T)
    _copy(layer.bias, m.bias)
    return layer


def _padding(m: Any) -> Any:
    """torch's padding for the framework conv; with a non-zero padding mode the framework
    pads every side alike, so 'same' / 'valid' / pairs must come down to one int."""
    if m.padding_mode == "zeros":
        return m.padding if isinstance(m.padding, str) else list(m.padding)
    if m.padding == "valid":
        return 0
    if m.padding == "same":
        totals = [d * (k - 1) for d, k in zip(m.dilation, m.kernel_size, strict=True)]
        sides = {t // 2 for t in totals} if all(t % 2 == 0 for t in totals) else {-1}
    else:
        sides = set(m.padding)
    if len(sides) != 1 or -1 in sides:
        raise ValueError(f"padding_mode={m.padding_mode!r} and uneven padding {m.padding}")
    return sides.pop()


def _conv(kind: type) -> Callable[[tnn.Module], nn.Layer]:
    def build(m: Any) -> nn.Layer:
        layer = kind(
            m.in_channels,
            m.out_channels,
            list(m.kernel_size),
            stride=list(m.stride),
            padding=_padding(m),
            dilation=list(m.dilation),
            groups=m.groups,
            padding_mode=m.padding_mode,
            **_bias(m),
        )
        _copy(layer.weight, m.weight)
        _copy(layer.bias, m.bias)
        return layer

    return build


def _conv_transpose(kind: type) -> Callable[[tnn.Module], nn.Layer]:
    def build(m: Any) -> nn.Layer:
        if m.padding_mode != "zeros":
            raise ValueError(f"padding_mode={m.padding_mode!r}")
        layer = kind(
            m.in_channels,
            m.out_channels,
            list(m.kernel_size),
            stride=list(m.stride),
            padding=list(m.padding),
            output_padding=list(m.output_padding),
            dilation=list(m.dilation),
            groups=m.groups,
            **_bias(m),
        )
        _copy(layer.weight, m.weight)  # [in, out / groups, *kernel] in both
        _copy(layer.bias, m.bias)
        return layer

    return build


def _batch_norm(kind: type) -> Callable[[tnn.Module], nn.Layer]:
    def build(m: Any) -> nn.Layer:
        affine = {} if m.affine else {"weight_attr": False, "bias_attr": False}
        layer = kind(
            m.num_features,
            momentum=1.0 - (m.momentum if m.momentum is not None else 0.1),
            epsilon=m.eps,
            use_global_stats=None if m.track_running_stats else False,
            **affine,
        )
        _copy(layer.weight, m.weight)
        _copy(layer.bias, m.bias)
        _copy(layer._mean, m.running_mean)
        _copy(layer._variance, m.running_var)
        return layer

    return build


def _layer_norm(m: tnn.LayerNorm) -> nn.Layer:
    layer = nn.LayerNorm(
        list(m.normalized_shape),
        m.eps,
        elementwise_affine=m.elementwise_affine,
        bias=m.bias is not None,
    )
    _copy(layer.weight, m.weight)
    _copy(layer.bias, m.bias)
    return layer


def _group_norm(m: tnn.GroupNorm) -> nn.Layer:
    layer = nn.GroupNorm(m.num_groups, m.num_channels, m.eps, affine=m.affine)
    _copy(layer.weight, m.weight)
    _copy(layer.bias, m.bias)
    return layer


def _embedding(m: tnn.Embedding) -> nn.Layer:
    if m.max_norm is not None:
        raise ValueError("max_norm")
    layer = nn.Embedding(m.num_embeddings, m.embedding_dim, padding_idx=m.padding_idx)
    _copy(layer.weight, m.weight)
    return layer


def _max_pool(m: tnn.MaxPool2d) -> nn.Layer:
    if m.dilation not in (1, (1, 1)) or m.return_indices:
        raise ValueError("dilation or return_indices")
    return nn.MaxPool2D(m.kernel_size, m.stride, m.padding, ceil_mode=m.ceil_mode)


def _avg_pool(m: tnn.AvgPool2d) -> nn.Layer:
    return nn.AvgPool2D(
        m.kernel_size,
        m.stride,
        m.padding,
        ceil_mode=m.ceil_mode,
        exclusive=not m.count_include_pad,
        divisor_override=m.divisor_override,
    )


def _softmax(m: tnn.Softmax) -> nn.Layer:
    if m.dim is None:
        raise ValueError("dim=None (torch's implicit dim)")
    return nn.Softmax(axis=m.dim)


class _TorchUpsample(nn.Layer):
    """torch.nn.Upsample, resizing as torch does (see torch_graph.interpolate)."""

    def __init__(self, m: tnn.Upsample) -> None:
        super().__init__()
        self.size, self.scale_factor = m.size, m.scale_factor
        self.mode, self.align_corners = m.mode, m.align_corners
        self.recompute_scale_factor = m.recompute_scale_factor

    def forward(self, x):
        return interpolate(
            x,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            self.recompute_scale_factor,
        )


def _gelu(m: tnn.GELU) -> nn.Layer:
    return nn.GELU(approximate=m.approximate == "tanh")


LEAVES: dict[type, Callable[[Any], nn.Layer]] = {
    tnn.Linear: _linear,
    tnn.Conv1d: _conv(nn.Conv1D),
    tnn.Conv2d: _conv(nn.Conv2D),
    tnn.ConvTranspose1d: _conv_transpose(nn.Conv1DTranspose),
    tnn.ConvTranspose2d: _conv_transpose(nn.Conv2DTranspose),
    tnn.BatchNorm1d: _batch_norm(nn.BatchNorm1D),
    tnn.BatchNorm2d: _batch_norm(nn.BatchNorm2D),
    tnn.LayerNorm: _layer_norm,
    tnn.GroupNorm: _group_norm,
    tnn.Embedding: _embedding,
    tnn.ReLU: lambda m: nn.ReLU(),
    tnn.ReLU6: lambda m: nn.ReLU6(),
    tnn.LeakyReLU: lambda m: nn.LeakyReLU(m.negative_slope),
    tnn.GELU: _gelu,
    tnn.SiLU: lambda m: nn.Silu(),
    tnn.Hardswish: lambda m: nn.Hardswish(),
    tnn.Hardsigmoid: lambda m: nn.Hardsigmoid(),
    tnn.Sigmoid: lambda m: nn.Sigmoid(),
    tnn.Tanh: lambda m: nn.Tanh(),
    tnn.Softmax: _softmax,
    tnn.MaxPool2d: _max_pool,
    tnn.AvgPool2d: _avg_pool,
    tnn.AdaptiveAvgPool2d: lambda m: nn.AdaptiveAvgPool2D(m.output_size),
    tnn.Dropout: lambda m: nn.Dropout(m.p),
    tnn.Flatten: lambda m: nn.Flatten(m.start_dim, m.end_dim),
    tnn.Identity: lambda m: nn.Identity(),
    tnn.Upsample: _TorchUpsample,
}
CONTAINERS = (tnn.Sequential, tnn.ModuleList, tnn.ModuleDict)


def _kind(module: tnn.Module) -> type | None:
    """The supported torch class whose behaviour `module` has: its own class or a base whose
    forward it does not override (torchvision's Conv2dNormActivation is a plain Sequential)."""
    for base in type(module).__mro__:
        if base in LEAVES or base in CONTAINERS:
            return base if type(module).forward is base.forward else None
    return None


class _Converter:
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        self.done: dict[int, nn.Layer] = {}

    def convert(self, module: tnn.Module, path: str) -> nn.Layer:
        if id(module) in self.done:  # a module used twice stays one layer
            return self.done[id(module)]
        kind = _kind(module)
        if kind in LEAVES:
            try:
                layer = LEAVES[kind](module)
            except ValueError as exc:
                self.problems.append(f"{path}: {type(module).__name__} with {exc}")
                layer = nn.Identity()
        elif kind is tnn.Sequential:
            layer = nn.Sequential(*self._children(module, path))
        elif kind is tnn.ModuleList:
            layer = nn.LayerList([child for _, child in self._children(module, path)])
        elif kind is tnn.ModuleDict:
            layer = nn.LayerDict(dict(self._children(module, path)))
        else:
            layer = self._graph(module, path)
        self.done[id(module)] = layer
        return layer

    def _children(self, module: tnn.Module, path: str) -> list[tuple[str, nn.Layer]]:
        # `_modules`, not `named_children()`: a module registered under two names keeps both
        return [
            (name, self.convert(child, f"{path}.{name}"))
            for name, child in module._modules.items()
            if child is not None
        ]

    def _graph(self, module: tnn.Module, path: str) -> nn.Layer:
        name = type(module).__name__
        if type(module).__module__.startswith("torch.nn"):
            self.problems.append(f"{path}: torch layer {type(module).__module__}.{name}")
            return nn.Identity()
        layer = GraphLayer(name)
        for child_name, child in self._children(module, path):
            layer.add_sublayer(child_name, child)
        for attr, tensor in [
            *module.named_parameters(recurse=False),
            *module.named_buffers(recurse=False),
        ]:
            if isinstance(tensor, tnn.Parameter):
                parameter = layer.create_parameter(list(tensor.shape))
                parameter.set_value(_array(tensor))
                layer.add_parameter(attr, parameter)
            else:
                layer.register_buffer(attr, framework.to_tensor(_array(tensor)))
        try:
            graph = trace(module)
        except Exception as exc:  # fx raises many kinds (TraceError, TypeError, ...)
            self.problems.append(f"{path}: {name}.forward cannot be traced by torch.fx: {exc}")
            return layer
        layer.build(graph, lambda target: _attribute(layer, target), self.problems)
        return layer


def _attribute(layer: nn.Layer, target: str) -> Any:
    """A `get_attr`/`call_module` target in the framework tree, in torch's layout."""
    *path, leaf = target.split(".")
    owner = layer.get_sublayer(".".join(path)) if path else layer
    if leaf in owner._sub_layers:
        return owner._sub_layers[leaf]
    value = getattr(owner, leaf)
    if isinstance(owner, nn.Linear) and leaf == "weight":
        return framework.transpose(value, [1, 0])  # the graph expects torch's [out, in]
    return value


def _check_outputs(
    torch_module: tnn.Module,
    layer: nn.Layer,
    shape: list[int],
    dtype: str,
    rtol: float,
    atol: float,
) -> None:
    rng = np.random.default_rng(0)
    if np.dtype(dtype).kind in "iu":
        high = _embedding_rows(torch_module)
        sample = rng.integers(0, high, size=shape).astype(dtype)
    else:
        sample = rng.standard_normal(shape).astype(dtype)
    was_training = torch_module.training
    torch_module.eval()
    layer.eval()
    try:
        with torch.no_grad():
            expected = torch_module(torch.from_numpy(sample.copy()))
        with framework.no_grad():
            got = layer(framework.to_tensor(sample))
    finally:
        torch_module.train(was_training)
    pairs = list(zip(_flat(expected), _flat(got), strict=False))
    if len(_flat(expected)) != len(_flat(got)):
        raise ConversionError("the converted layer returns a different number of outputs")
    for index, (want, have) in enumerate(pairs):
        want = want.detach().cpu().numpy()
        have = np.asarray(have.numpy())
        scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
        if want.shape != have.shape or not np.allclose(have, want, rtol=rtol, atol=atol * scale):
            error = np.abs(have - want).max() if want.shape == have.shape else "shape"
            raise ConversionError(
                f"output {index} differs from torch on input {shape}: shapes {list(want.shape)} "
                f"vs {list(have.shape)}, max abs difference {error}"
            )


def _flat(outputs: Any) -> list:
    if isinstance(outputs, tuple | list):
        return [item for output in outputs for item in _flat(output)]
    if isinstance(outputs, dict):
        return [item for output in outputs.values() for item in _flat(output)]
    return [outputs]


def _embedding_rows(module: tnn.Module) -> int:
    sizes = [m.num_embeddings for m in module.modules() if isinstance(m, tnn.Embedding)]
    return min(sizes) if sizes else 2
