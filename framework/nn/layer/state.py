"""`LayerState`: a Layer's state dict and its moves between devices and dtypes.

Kept apart from `layers.py` so each file has one job; `Layer` inherits it. Every method here
changes tensors in place (`_data` is swapped, the Tensor objects stay), so an optimizer that
already holds the parameters keeps working after `set_state_dict`, `to` or `float`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from framework.core import backend
from framework.core import dtype as dtypes
from framework.core.tensor import Tensor

if TYPE_CHECKING:
    from framework.nn.layer.layers import Layer


class LayerState:
    # --- state dict -----------------------------------------------------------------------------
    def state_dict(
        self: Layer,
        destination: dict | None = None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ) -> OrderedDict[str, Tensor]:
        """Parameters and persistable buffers by structured name (`'fc.weight'`).

        The values are the layer's own tensors (`keep_vars=False` gives detached views), so
        save them before changing the model if you need a snapshot.
        """
        return self._collect_state(
            destination, include_sublayers, structured_name_prefix, False, keep_vars
        )

    def to_static_state_dict(
        self: Layer,
        destination: dict | None = None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ) -> OrderedDict[str, Tensor]:
        """Parameters and every buffer, non-persistable ones included, by structured name:
        what a static graph of the layer needs (Paddle uses it for `jit.save` and pure fp16).

        The order is `state_dict()`'s: each layer's parameters, then its buffers, then its
        sublayers'. The values are the layer's own tensors (`keep_vars=False` gives detached
        views). `use_hook` is accepted for Paddle's signature; layers here have no state-dict
        hooks.

            bn = nn.BatchNorm2D(3)
            bn.register_buffer("scratch", framework.zeros([3]), persistable=False)
            "scratch" in bn.state_dict()             # False
            "scratch" in bn.to_static_state_dict()   # True
        """
        return self._collect_state(
            destination, include_sublayers, structured_name_prefix, True, keep_vars
        )

    def _collect_state(
        self: Layer,
        destination: dict | None,
        include_sublayers: bool,
        prefix: str,
        include_non_persistable_buffers: bool,
        keep_vars: bool,
    ) -> OrderedDict[str, Tensor]:
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buffer in self._buffers.items():
            if buffer is None:
                continue
            if (
                include_non_persistable_buffers
                or name not in self._non_persistable_buffer_names_set
            ):
                destination[prefix + name] = buffer if keep_vars else buffer.detach()
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer._collect_state(
                        destination,
                        True,
                        f"{prefix}{name}.",
                        include_non_persistable_buffers,
                        keep_vars,
                    )
        return destination

    def set_state_dict(
        self: Layer, state_dict: dict[str, Any], use_structured_name: bool = True
    ) -> tuple[list[str], list[str]]:
        """Load parameters and persistable buffers; returns `(missing_keys, unexpected_keys)`.

        Values may be Tensors or arrays and are cast to each parameter's dtype. A value whose
        shape differs raises a ValueError naming every such key with both shapes, before
        anything is changed.
        """
        own = self.state_dict()
        missing: list[str] = []
        matched: list[tuple[Tensor, Any]] = []
        used: set[str] = set()
        mismatches = []
        for key, tensor in own.items():
            lookup = key if use_structured_name else tensor.name
            if lookup not in state_dict:
                missing.append(key)
                continue
            value = state_dict[lookup]
            used.add(lookup)
            shape = list(value.shape) if hasattr(value, "shape") else list(np.shape(value))
            if shape != tensor.shape:
                mismatches.append(
                    f"'{key}': the checkpoint has shape {shape}, the model expects {tensor.shape}"
                )
                continue
            matched.append((tensor, value))
        if mismatches:
            raise ValueError(
                f"cannot load the state dict into {type(self).__name__}, shapes differ for "
                + "; ".join(mismatches)
            )
        for tensor, value in matched:
            tensor.set_value(value)
        unexpected = [key for key in state_dict if key not in used]
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    def load_state_dict(
        self: Layer, state_dict: dict[str, Any], strict: bool = True, assign: bool = False
    ) -> tuple[list[str], list[str]]:
        """Like `set_state_dict`; with `strict=True`, missing or unexpected keys raise a
        RuntimeError listing them (PyTorch's spelling, which Paddle also has)."""
        missing, unexpected = self.set_state_dict(state_dict)
        if strict and (missing or unexpected):
            problems = []
            if unexpected:
                problems.append("Unexpected key(s) in state_dict: " + ", ".join(unexpected))
            if missing:
                problems.append("Missing key(s) in state_dict: " + ", ".join(missing))
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(problems)
            )
        return missing, unexpected

    # --- devices and dtypes ---------------------------------------------------------------------
    def to(
        self: Layer, device: object = None, dtype: object = None, blocking: bool | None = None
    ) -> Layer:
        """Move every parameter and buffer to `device` ('cpu', 'gpu:0', a Place) and/or cast
        the floating-point ones to `dtype`, in place. Returns the layer."""
        place = backend._parse_device(device) if device is not None else None
        target = dtypes.convert_dtype(dtype) if dtype is not None else None
        self._convert(place, target, floating_only=True)
        return self

    def astype(self: Layer, dtype: object = None) -> Layer:
        """Cast every floating-point parameter and buffer to `dtype`."""
        return self.to(dtype=dtype)

    def float(self: Layer, excluded_layers: object = None) -> Layer:
        return self._cast_floats(dtypes.float32, excluded_layers)

    def double(self: Layer) -> Layer:
        return self._cast_floats(dtypes.float64, None)

    def half(self: Layer) -> Layer:
        return self._cast_floats(dtypes.float16, None)

    def float16(self: Layer, excluded_layers: object = None) -> Layer:
        return self._cast_floats(dtypes.float16, excluded_layers)

    def _cast_floats(self: Layer, dtype: np.dtype, excluded_layers: object) -> Layer:
        from framework.nn.layer.layers import Layer

        excluded = excluded_layers or []
        if not isinstance(excluded, list | tuple):
            excluded = [excluded]

        def is_excluded(layer: Layer) -> bool:
            return any(
                layer is e or (isinstance(e, type) and isinstance(layer, e)) for e in excluded
            )

        for layer in self.sublayers(include_self=True):
            if not is_excluded(layer):
                layer._convert(None, dtype, floating_only=True, include_sublayers=False)
        assert isinstance(self, Layer)
        return self

    def _convert(
        self: Layer,
        place: backend.Place | None,
        dtype: np.dtype | None,
        floating_only: bool,
        include_sublayers: bool = True,
    ) -> None:
        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        for layer in layers:
            tensors = [t for t in layer._parameters.values() if t is not None]
            tensors += [t for t in layer._buffers.values() if t is not None]
            for tensor in tensors:
                _convert_tensor(tensor, place, dtype, floating_only)
                if tensor._grad is not None:
                    _convert_tensor(tensor._grad, place, dtype, floating_only)
            if dtype is not None:
                object.__setattr__(layer, "_dtype", dtype.name)


def _convert_tensor(
    tensor: Tensor, place: backend.Place | None, dtype: np.dtype | None, floating_only: bool
) -> None:
    array = tensor._data
    if (
        dtype is not None
        and array.dtype != dtype
        and (array.dtype.kind == "f" or not floating_only)
    ):
        array = array.astype(dtype)
    if place is not None and backend.place_of(array) != place:
        array = backend.to_place(array, place)
    tensor._data = array
