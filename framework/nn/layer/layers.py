"""`Layer`: the base class of every network building block, as `paddle.nn.Layer`.

A Layer owns Parameters, buffers (non-trainable tensors such as BatchNorm's running mean) and
sublayers, all registered by plain attribute assignment:

    class MLP(framework.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = framework.nn.Linear(784, 512)     # a sublayer
            self.scale = self.create_parameter([512])     # a Parameter
            self.register_buffer("steps", framework.to_tensor(0))

        def forward(self, x):
            return self.fc1(x) * self.scale

`state_dict()` names everything by its path (`fc1.weight`), `set_state_dict()` loads it back.
Moving between devices and dtypes (`to`, `float`, `double`, `astype`) lives in `LayerState`.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from framework.core import dtype as dtypes
from framework.core.tensor import Parameter, Tensor
from framework.nn.initializer import Initializer
from framework.nn.layer.hooks import add_hook, call_with_hooks, note_layer_error
from framework.nn.layer.naming import unique_name
from framework.nn.layer.state import LayerState
from framework.nn.param_attr import make_parameter


def _camel_to_snake(name: str) -> str:
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


class Layer(LayerState):
    """The base class of all layers, as `paddle.nn.Layer`.

    Base class of all layers. Subclasses call `super().__init__()` and define `forward`.

    Args:
        name_scope (str, optional): the prefix of its parameters' names. Default: None.
        dtype (str, optional): the default dtype of its parameters. Default: 'float32'.

    Examples:
        >>> import framework as paddle
        >>> class TwoLayer(paddle.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc1 = paddle.nn.Linear(4, 8)
        ...         self.fc2 = paddle.nn.Linear(8, 2)
        ...     def forward(self, x):
        ...         return self.fc2(paddle.nn.functional.relu(self.fc1(x)))
        ...
        >>> model = TwoLayer()
        >>> model(paddle.ones([3, 4])).shape
        paddle.Size([3, 2])
        >>> list(model.state_dict().keys())
        ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
        >>> _ = model.eval()
        >>> model.training
        False
    """

    training: bool

    def __init__(self, name_scope: str | None = None, dtype: object = "float32") -> None:
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_full_name", unique_name(name_scope or _camel_to_snake(type(self).__name__)))
        set_(self, "_dtype", dtype)
        set_(self, "_parameters", OrderedDict())
        set_(self, "_sub_layers", OrderedDict())
        set_(self, "_buffers", OrderedDict())
        set_(self, "_non_persistable_buffer_names_set", set())
        set_(self, "_forward_pre_hooks", OrderedDict())
        set_(self, "_forward_post_hooks", OrderedDict())
        set_(self, "_forward_pre_hooks_with_kwargs", set())
        set_(self, "_forward_post_hooks_with_kwargs", set())
        set_(self, "_forward_post_hooks_always_called", set())

    # --- calling --------------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        if self._forward_pre_hooks or self._forward_post_hooks:
            return call_with_hooks(self, inputs, kwargs)
        try:
            return self.forward(*inputs, **kwargs)
        except Exception as error:
            note_layer_error(error, self)
            raise

    def register_forward_pre_hook(
        self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False
    ):
        """`hook(layer, inputs)` runs before forward; returning a value replaces the inputs.
        With `with_kwargs=True` it is `hook(layer, args, kwargs)` returning `(args, kwargs)`."""
        handle = add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle._hook_id)
        return handle

    def register_forward_post_hook(
        self,
        hook: Callable,
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ):
        """`hook(layer, inputs, outputs)` runs after forward; returning a value replaces the
        outputs. `always_call=True` runs it even when forward raised."""
        handle = add_hook(self._forward_post_hooks, hook, prepend)
        if with_kwargs:
            self._forward_post_hooks_with_kwargs.add(handle._hook_id)
        if always_call:
            self._forward_post_hooks_always_called.add(handle._hook_id)
        return handle

    # --- modes and naming -----------------------------------------------------------------------
    def train(self, mode: bool = True) -> Layer:
        """Training mode (Dropout drops, BatchNorm uses batch statistics), here and below."""
        for layer in self.sublayers(include_self=True):
            object.__setattr__(layer, "training", bool(mode))
        return self

    def eval(self) -> Layer:
        """Evaluation mode, here and in every sublayer."""
        return self.train(False)

    def full_name(self) -> str:
        """This layer's unique name, e.g. `linear_0`."""
        return self._full_name

    def apply(self, fn: Callable[[Layer], None]) -> Layer:
        """Call `fn` on every sublayer (children first) and then on this layer."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # --- registration ---------------------------------------------------------------------------
    def create_parameter(
        self,
        shape: list[int] | tuple[int, ...],
        attr: object = None,
        dtype: object = None,
        is_bias: bool = False,
        default_initializer: Initializer | None = None,
        device: object = None,
    ) -> Parameter | None:
        """A new Parameter (not yet registered: assign it to an attribute or `add_parameter`).

        Weights default to XavierUniform, biases (`is_bias=True`) to zeros; `attr=False` gives
        None. `dtype` defaults to this layer's dtype.
        """
        param = make_parameter(
            shape,
            attr,
            dtype if dtype is not None else self._dtype,
            is_bias,
            default_initializer,
            name_prefix=self._full_name,
        )
        if param is not None and device is not None:
            param._data = param.to(device=device)._data
        return param

    def add_parameter(self, name: str, parameter: Parameter | None) -> Parameter | None:
        """Register `parameter` under `name` (it then appears in `parameters()`)."""
        self._check_new_name(name, "_parameters")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(
                f"parameter '{name}' should be a Parameter, got {type(parameter).__name__}"
            )
        self._parameters[name] = parameter
        return parameter

    register_parameter = add_parameter

    def add_sublayer(self, name: str, sublayer: Layer | None) -> Layer | None:
        """Register `sublayer` under `name` and return it."""
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(f"sublayer '{name}' should be a Layer, got {type(sublayer).__name__}")
        if "." in str(name):
            raise KeyError(f"a sublayer's name cannot contain '.', got {name!r}")
        self._sub_layers[str(name)] = sublayer
        return sublayer

    add_module = add_sublayer

    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """Register a non-trainable tensor; persistable buffers go into `state_dict()`."""
        self._check_new_name(name, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"buffer '{name}' should be a Tensor, got {type(tensor).__name__}")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    def _check_new_name(self, name: str, kind: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"the name must be a str, got {type(name).__name__}")
        if "." in name:
            raise KeyError(f"the name cannot contain '.', got {name!r}")
        if name == "":
            raise KeyError("the name cannot be empty")
        if name in self.__dict__ or (name not in getattr(self, kind) and hasattr(self, name)):
            raise KeyError(f"attribute '{name}' already exists on {type(self).__name__}")

    # --- traversal ------------------------------------------------------------------------------
    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        """Every Parameter of this layer (and its sublayers), each once."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_parameters(
        self, prefix: str = "", include_sublayers: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """`(structured_name, parameter)` pairs such as `('fc1.weight', ...)`."""
        seen: set[int] = set()
        layers = (
            self.named_sublayers(prefix=prefix, include_self=True)
            if include_sublayers
            else [(prefix, self)]
        )
        for layer_prefix, layer in layers:
            for name, param in layer._parameters.items():
                if param is None or (remove_duplicate and id(param) in seen):
                    continue
                seen.add(id(param))
                yield (f"{layer_prefix}.{name}" if layer_prefix else name), param

    def named_sublayers(
        self,
        prefix: str = "",
        include_self: bool = False,
        layers_set: set | None = None,
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Layer]]:
        """`(structured_name, layer)` for every sublayer, depth first, each once."""
        if layers_set is None:
            layers_set = set()
        if include_self and id(self) not in layers_set:
            if remove_duplicate:
                layers_set.add(id(self))
            yield prefix, self
        for name, layer in self._sub_layers.items():
            if layer is None:
                continue
            layer_prefix = f"{prefix}.{name}" if prefix else name
            yield from layer.named_sublayers(layer_prefix, True, layers_set, remove_duplicate)

    def sublayers(self, include_self: bool = False) -> list[Layer]:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Layer]]:
        """`named_sublayers` including this layer (PyTorch's spelling, which Paddle also has)."""
        return self.named_sublayers(prefix, True, memo, remove_duplicate)

    def modules(self) -> Iterator[Layer]:
        for _, layer in self.named_modules():
            yield layer

    def named_children(self) -> Iterator[tuple[str, Layer]]:
        seen: set[int] = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self) -> Iterator[Layer]:
        for _, layer in self.named_children():
            yield layer

    def named_buffers(
        self, prefix: str = "", include_sublayers: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        layers = (
            self.named_sublayers(prefix=prefix, include_self=True)
            if include_sublayers
            else [(prefix, self)]
        )
        for layer_prefix, layer in layers:
            for name, buffer in layer._buffers.items():
                if buffer is None or id(buffer) in seen:
                    continue
                seen.add(id(buffer))
                yield (f"{layer_prefix}.{name}" if layer_prefix else name), buffer

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def _get_by_path(self, target: str, kind: str) -> Any:
        *layer_path, leaf = target.split(".") if target else [""]
        layer: Layer = self
        for part in layer_path:
            layer = layer._sub_layers.get(part)
            if layer is None:
                raise AttributeError(f"{type(self).__name__} has no sublayer '{part}' ({target})")
        table = getattr(layer, kind)
        if leaf not in table:
            raise AttributeError(f"{type(layer).__name__} has no {kind[1:-1]} named '{leaf}'")
        return table[leaf]

    def get_parameter(self, target: str) -> Parameter:
        return self._get_by_path(target, "_parameters")

    def get_buffer(self, target: str) -> Tensor:
        return self._get_by_path(target, "_buffers")

    def get_sublayer(self, target: str) -> Layer:
        return self if target == "" else self._get_by_path(target, "_sub_layers")

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        """Clear the `.grad` of every trainable parameter (zeros, or None)."""
        for param in self.parameters():
            if param.trainable:
                param.clear_grad(set_to_zero)

    # --- attributes -----------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        state = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            entries = state.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        state = self.__dict__
        params = state.get("_parameters")
        if params is None:
            if isinstance(value, Parameter | Layer | Tensor):
                raise ValueError("super().__init__() should be called first")
            object.__setattr__(self, name, value)
            return
        layers, buffers = state["_sub_layers"], state["_buffers"]
        if isinstance(value, Parameter):
            _remove(name, state, layers, buffers)
            self._non_persistable_buffer_names_set.discard(name)
            params[name] = value
        elif name in params:
            if value is not None:
                raise TypeError(
                    f"assignment to parameter '{name}' should be of type Parameter or None, "
                    f"but got '{type(value).__name__}'"
                )
            params[name] = None
        elif isinstance(value, Layer):
            _remove(name, state, params, buffers)
            layers[name] = value
        elif name in layers:
            if value is not None:
                raise TypeError(
                    f"assignment to sublayer '{name}' should be of type Layer or None, "
                    f"but got '{type(value).__name__}'"
                )
            layers[name] = None
        elif isinstance(value, Tensor):
            # Paddle: a plain Tensor attribute is a buffer, non-persistable unless registered.
            _remove(name, state, params, layers)
            if name not in buffers:
                self._non_persistable_buffer_names_set.add(name)
            buffers[name] = value
        elif name in buffers:
            if value is not None:
                raise TypeError(
                    f"assignment to buffer '{name}' should be of type Tensor or None, "
                    f"but got '{type(value).__name__}'"
                )
            buffers[name] = None
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._sub_layers, self._buffers):
            if name in table:
                del table[name]
                self._non_persistable_buffer_names_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(
            set(super().__dir__())
            | set(self._parameters)
            | set(self._sub_layers)
            | set(self._buffers)
        )

    # --- printing -------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text between the parentheses of this layer's repr; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = [
            f"({name}): " + _indent(repr(layer), 2)
            for name, layer in self._sub_layers.items()
            if layer is not None
        ]
        text = type(self).__name__ + "("
        extra_lines = extra.split("\n") if extra else []
        if len(extra_lines) == 1 and not lines:
            text += extra_lines[0]
        elif extra_lines or lines:
            text += "\n  " + "\n  ".join(extra_lines + lines) + "\n"
        return text + ")"


def _remove(name: str, *tables: dict) -> None:
    for table in tables:
        table.pop(name, None)


def _indent(text: str, spaces: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


def default_dtype() -> str:
    """The dtype new built-in layers create their parameters in (`set_default_dtype`)."""
    return dtypes.get_default_dtype()
