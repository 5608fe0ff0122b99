"""`QuantConfig`: which layers to quantize and with which observers, as
`paddle.quantization.QuantConfig`.

    config = QuantConfig(activation=KLObserver(), weight=PerChannelAbsmaxObserver())
    config.add_name_config("fc.2", activation=None, weight=None)     # keep the classifier float
    config.add_type_config(nn.Linear, activation=AbsmaxObserver())

A layer's setting is, by priority: `add_layer_config` (that object), `add_name_config` (its
dotted path in the model or a prefix of it, e.g. "layer4"), `add_type_config` (its class),
then the global one. `activation=None` keeps the layer's inputs and outputs float (its weights
are still stored int8 when `weight` is set: weight-only quantization); both None keeps the
layer float. INT8 kernels exist for `Conv2D` and `Linear`; other layers stay float and are
listed in the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from framework.quantization.observers import (
    BaseObserver,
    PercentileObserver,
    PerChannelAbsmaxObserver,
)


@dataclass(frozen=True)
class SingleLayerConfig:
    activation: BaseObserver | None
    weight: BaseObserver | None

    @property
    def quantized(self) -> bool:
        return self.weight is not None

    def __str__(self) -> str:
        return f"activation: {self.activation}\nweight: {self.weight}"


def quantizable_types() -> tuple[type, ...]:
    from framework import nn

    return (nn.Conv2D, nn.Linear)


class QuantConfig:
    """See the module docstring. Defaults: activations by the 99.99th percentile of |x|,
    weights by per-channel abs-max."""

    def __init__(
        self,
        activation: BaseObserver | None = PercentileObserver(99.99),  # noqa: B008 - a prototype
        weight: BaseObserver | None = PerChannelAbsmaxObserver(),  # noqa: B008 - a prototype
    ) -> None:
        self._global = _layer_config(activation, weight)
        self._by_layer: dict[int, tuple[Any, SingleLayerConfig]] = {}
        self._by_name: dict[str, SingleLayerConfig] = {}
        self._by_type: dict[type, SingleLayerConfig] = {}

    @property
    def global_config(self) -> SingleLayerConfig:
        return self._global

    def add_layer_config(
        self,
        layer: Any,
        activation: BaseObserver | None = None,
        weight: BaseObserver | None = None,
    ) -> None:
        """Set the quantization of one layer object (or each of a list of them)."""
        layers = layer if isinstance(layer, list | tuple) else [layer]
        for item in layers:
            self._by_layer[id(item)] = (item, _layer_config(activation, weight))

    def add_name_config(
        self,
        layer_name: str | list[str],
        activation: BaseObserver | None = None,
        weight: BaseObserver | None = None,
    ) -> None:
        """Set the quantization of the layers at a dotted path ("layer1.0.conv1") or under a
        prefix of it ("layer1")."""
        names = [layer_name] if isinstance(layer_name, str) else list(layer_name)
        for name in names:
            self._by_name[name] = _layer_config(activation, weight)

    def add_type_config(
        self,
        layer_type: type | list[type],
        activation: BaseObserver | None = None,
        weight: BaseObserver | None = None,
    ) -> None:
        """Set the quantization of every layer of a class (Conv2D, Linear or a subclass)."""
        types = [layer_type] if isinstance(layer_type, type) else list(layer_type)
        supported = quantizable_types()
        for kind in types:
            if not (isinstance(kind, type) and issubclass(kind, supported)):
                names = ", ".join(t.__name__ for t in supported)
                raise ValueError(
                    f"framework.quantization has INT8 kernels for {names} (and subclasses); "
                    f"{getattr(kind, '__name__', kind)!s} layers stay float"
                )
            self._by_type[kind] = _layer_config(activation, weight)

    def resolve(self, path: str, layer: Any) -> SingleLayerConfig:
        """The setting of the layer at dotted `path` ("" for the root model)."""
        if layer is not None and id(layer) in self._by_layer:
            return self._by_layer[id(layer)][1]
        best = None
        for name, config in self._by_name.items():
            if path == name or path.startswith(name + "."):
                if best is None or len(name) > len(best[0]):
                    best = (name, config)
        if best is not None:
            return best[1]
        if layer is not None:
            for kind in type(layer).__mro__:
                if kind in self._by_type:
                    return self._by_type[kind]
        return self._global

    def __str__(self) -> str:
        lines = ["Global config:", str(self._global)]
        if self._by_name:
            lines.append(f"Layer name config: {sorted(self._by_name)}")
        if self._by_type:
            lines.append(f"Layer type config: {[t.__name__ for t in self._by_type]}")
        if self._by_layer:
            lines.append(f"Layer config: {len(self._by_layer)} layers")
        return "\n".join(lines)


def _layer_config(activation: Any, weight: Any) -> SingleLayerConfig:
    for role, value in (("activation", activation), ("weight", weight)):
        if value is not None and not isinstance(value, BaseObserver):
            raise TypeError(
                f"{role} must be an observer (e.g. AbsmaxObserver(), PercentileObserver(), "
                f"KLObserver(), PerChannelAbsmaxObserver()) or None, got {type(value).__name__}"
            )
    if activation is not None and weight is None:
        raise ValueError(
            "activation quantization needs int8 weights too (the INT8 kernels multiply int8 by "
            "int8): give a weight observer, e.g. weight=PerChannelAbsmaxObserver()"
        )
    return SingleLayerConfig(activation, weight)
