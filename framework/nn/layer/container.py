"""Containers: `Sequential`, `LayerList`, `LayerDict` and `ParameterList`, as in `paddle.nn`."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from framework.core.tensor import Parameter
from framework.nn.layer.layers import Layer


def _normalise_index(index: int, length: int) -> int:
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range for a container of {length} items")
    return index + length if index < 0 else index


class Sequential(Layer):
    """Run layers one after another, as `paddle.nn.Sequential`.

    Run layers one after another.

    Args:
        *layers (Layer|tuple|OrderedDict): layers run in order; `(name, layer)` pairs or one
        OrderedDict name them.

    Returns:
        Layer: its forward feeds each layer's output to the next.

    Examples:
        >>> import framework as paddle
        >>> _ = paddle.seed(1)
        >>> nn = paddle.nn
        >>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
        >>> model(paddle.ones([3, 4])).shape
        paddle.Size([3, 2])
        >>> len(model.parameters())
        4
        >>> named = nn.Sequential(('fc', nn.Linear(4, 8)), ('act', nn.ReLU()))
        >>> [name for name, _ in named.named_children()]
        ['fc', 'act']
    """

    def __init__(self, *layers: Layer | tuple[str, Layer] | list | OrderedDict) -> None:
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], Mapping):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        elif layers and isinstance(layers[0], list | tuple):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for index, layer in enumerate(layers):
                self.add_sublayer(str(index), layer)

    def __getitem__(self, index: int | str | slice) -> Layer:
        if isinstance(index, slice):
            return type(self)(*list(self._sub_layers.values())[index])
        if isinstance(index, str):
            return self._sub_layers[index]
        values = list(self._sub_layers.values())
        return values[_normalise_index(index, len(values))]

    def __setitem__(self, name: int | str, layer: Layer) -> None:
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential holds Layers, got {type(layer).__name__}")
        if isinstance(name, int):
            name = list(self._sub_layers)[_normalise_index(name, len(self))]
        setattr(self, str(name), layer)

    def __delitem__(self, name: int | str) -> None:
        if isinstance(name, int):
            name = list(self._sub_layers)[_normalise_index(name, len(self))]
        del self._sub_layers[str(name)]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def append(self, layer: Layer) -> Sequential:
        self.add_sublayer(str(len(self)), layer)
        return self

    def insert(self, index: int, layer: Layer) -> Sequential:
        """Insert `layer` before position `index`; index-named layers after it shift by one."""
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential holds Layers, got {type(layer).__name__}")
        count = len(self._sub_layers)
        if not -count <= index <= count:
            raise IndexError(f"index {index} is out of range for a container of {count} items")
        index = index + count if index < 0 else index
        items = list(self._sub_layers.items())
        self._sub_layers.clear()
        self._sub_layers.update(items[:index])
        self._sub_layers[str(index)] = layer
        for i, (name, existing) in enumerate(items[index:], start=index + 1):
            self._sub_layers[str(i) if name.isdigit() else name] = existing
        return self

    def extend(self, layers: Iterable[Layer]) -> Sequential:
        for layer in layers:
            self.append(layer)
        return self

    def forward(self, input: Any) -> Any:
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


class LayerList(Layer):
    """A list of registered layers, as `paddle.nn.LayerList`.

    A list of layers whose parameters are registered (a Python list's would not be).

    Args:
        sublayers (iterable, optional): the layers, registered as '0', '1', ... Default: None.

    Examples:
        >>> import framework as paddle
        >>> blocks = paddle.nn.LayerList([paddle.nn.Linear(8, 8) for _ in range(3)])
        >>> _ = blocks.append(paddle.nn.Linear(8, 2))
        >>> len(blocks), len(blocks.parameters())
        (4, 8)
        >>> x = paddle.ones([1, 8])
        >>> for block in blocks:
        ...     x = block(x)
        >>> x.shape
        paddle.Size([1, 2])
    """

    def __init__(self, sublayers: Iterable[Layer] | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.extend(sublayers)

    def _layers(self) -> list[Layer]:
        return list(self._sub_layers.values())

    def __getitem__(self, index: int | slice) -> Layer | LayerList:
        if isinstance(index, slice):
            return type(self)(self._layers()[index])
        return self._layers()[_normalise_index(index, len(self))]

    def __setitem__(self, index: int, sublayer: Layer) -> None:
        self.add_sublayer(str(_normalise_index(index, len(self))), sublayer)

    def __delitem__(self, index: int | slice) -> None:
        layers = self._layers()
        if isinstance(index, slice):
            del layers[index]
        else:
            del layers[_normalise_index(index, len(layers))]
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def append(self, sublayer: Layer) -> LayerList:
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index: int, sublayer: Layer) -> None:
        layers = self._layers()
        layers.insert(index, sublayer)
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self.add_sublayer(str(i), layer)

    def extend(self, sublayers: Iterable[Layer]) -> LayerList:
        for sublayer in sublayers:
            self.append(sublayer)
        return self

    def pop(self, index: int = -1) -> Layer:
        layer = self[index]
        del self[index]
        return layer

    def __iadd__(self, sublayers: Iterable[Layer]) -> LayerList:
        return self.extend(sublayers)

    def __add__(self, other: Iterable[Layer]) -> LayerList:
        return LayerList([*self, *other])


class LayerDict(Layer):
    """An ordered dict of registered layers, as `paddle.nn.LayerDict`.

    An ordered dict of layers whose parameters are registered.

    Args:
        sublayers (dict|iterable, optional): name to layer, in order. Default: None.

    Examples:
        >>> import framework as paddle
        >>> nn = paddle.nn
        >>> heads = nn.LayerDict({'cls': nn.Linear(8, 10), 'box': nn.Linear(8, 4)})
        >>> list(heads.keys()), heads['box'](paddle.ones([2, 8])).shape
        (['cls', 'box'], paddle.Size([2, 4]))
    """

    def __init__(self, sublayers: Mapping[str, Layer] | Iterable | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> None:
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: object) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        return self._sub_layers.pop(key)

    def keys(self) -> Iterable[str]:
        return self._sub_layers.keys()

    def items(self) -> Iterable[tuple[str, Layer]]:
        return self._sub_layers.items()

    def values(self) -> Iterable[Layer]:
        return self._sub_layers.values()

    def update(self, sublayers: Mapping[str, Layer] | Iterable) -> None:
        if isinstance(sublayers, OrderedDict | LayerDict | Mapping):
            pairs = sublayers.items()
        else:
            pairs = []
            for i, pair in enumerate(sublayers):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise ValueError(
                        f"LayerDict.update expects (key, layer) pairs; item {i} is {pair!r}"
                    )
                pairs.append(pair)
        for key, layer in pairs:
            self.add_sublayer(key, layer)


class ParameterList(Layer):
    """A list of registered Parameters, as `paddle.nn.ParameterList`.

    A list of Parameters registered on the layer (named "0", "1", ...).

    Args:
        parameters (iterable, optional): the Parameters, registered as '0', '1', ... Default: None.

    Examples:
        >>> import framework as paddle
        >>> scales = [paddle.create_parameter([4], 'float32') for _ in range(3)]
        >>> scales = paddle.nn.ParameterList(scales)
        >>> len(scales), scales[0].shape
        (3, paddle.Size([4]))
    """

    def __init__(self, parameters: Iterable[Parameter] | None = None) -> None:
        super().__init__()
        for parameter in parameters or ():
            self.append(parameter)

    def __getitem__(self, index: int) -> Parameter:
        values = list(self._parameters.values())
        return values[_normalise_index(index, len(values))]

    def __setitem__(self, index: int, parameter: Parameter) -> None:
        self._set(str(_normalise_index(index, len(self))), parameter)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def append(self, parameter: Parameter) -> ParameterList:
        self._set(str(len(self)), parameter)
        return self

    def _set(self, name: str, parameter: Parameter) -> None:
        if not isinstance(parameter, Parameter):
            raise TypeError(f"ParameterList holds Parameters, got {type(parameter).__name__}")
        self._parameters[name] = parameter


class ParameterDict(Layer):
    """An ordered dict of registered Parameters, as `paddle.nn.ParameterDict`.

    An ordered dict of Parameters registered on the layer under their keys.

    Args:
        parameters (dict|iterable, optional): name to Parameter, in order. Default: None.

    Examples:
        >>> import framework as paddle
        >>> params = paddle.nn.ParameterDict({'scale': paddle.create_parameter([2], 'float32')})
        >>> list(params.keys()), params['scale'].shape
        (['scale'], paddle.Size([2]))
    """

    def __init__(self, parameters: Mapping[str, Parameter] | Iterable | None = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __setitem__(self, key: str, parameter: Parameter) -> None:
        if not isinstance(parameter, Parameter):
            raise TypeError(f"ParameterDict holds Parameters, got {type(parameter).__name__}")
        self._parameters[key] = parameter

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def __contains__(self, key: object) -> bool:
        return key in self._parameters

    def keys(self) -> Iterable[str]:
        return self._parameters.keys()

    def items(self) -> Iterable[tuple[str, Parameter]]:
        return self._parameters.items()

    def values(self) -> Iterable[Parameter]:
        return self._parameters.values()

    def update(self, parameters: Mapping[str, Parameter] | Iterable) -> None:
        pairs = (
            parameters.items() if isinstance(parameters, Mapping | ParameterDict) else parameters
        )
        for key, parameter in pairs:
            self[key] = parameter
