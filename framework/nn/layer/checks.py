"""Input checks shared by layers with weights, so errors name the layer and both sides.

    Linear(in_features=500, out_features=10) expects the last input dimension to be 500,
    got input of shape [64, 2880]

They compare a few attributes of the arrays and cost well under a microsecond per call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from framework.amp.auto_cast import is_auto_cast_enabled
from framework.core import backend
from framework.core.tensor import Tensor

if TYPE_CHECKING:
    from framework.nn.layer.layers import Layer


def describe(layer: Layer | str) -> str:
    """How errors name a layer: its short form (`Linear(in_features=500, out_features=10)`)
    when it has one, else its class and extra_repr. Built only when an error is raised."""
    if isinstance(layer, str):
        return layer
    short = getattr(type(layer), "_short", None)
    return short(layer) if short else f"{type(layer).__name__}({layer.extra_repr()})"


def array_of(layer: Layer | str, x: object):
    """`x`'s array, or a TypeError naming the layer when `x` is not a Tensor."""
    try:
        return x._data
    except AttributeError:
        raise TypeError(
            f"{describe(layer)} expects a Tensor input, got {type(x).__name__}; "
            "wrap the data with framework.to_tensor(...)"
        ) from None


def check_dtype_and_device(layer: Layer | str, x: Tensor, weight: Tensor) -> None:
    """Raise if `x` and the layer's `weight` differ in float dtype or in device."""
    layer = describe(layer)
    xa, wa = x._data, weight._data
    if type(xa) is not type(wa) or (backend.is_gpu_array(xa) and xa.device != wa.device):
        raise RuntimeError(
            f"{layer} has its weights on {backend.place_of(wa)} but got an input on "
            f"{backend.place_of(xa)}; move the input with x.to('{_device(wa)}') or the layer "
            f"with layer.to('{_device(xa)}')"
        )
    if xa.dtype != wa.dtype and not is_auto_cast_enabled():  # under auto_cast the op casts
        raise TypeError(
            f"{layer} has {wa.dtype} weights but got a {xa.dtype} input of shape {list(xa.shape)}; "
            f"cast the input with x.astype('{wa.dtype}') or the layer with "
            f"layer.to(dtype='{xa.dtype}')"
        )


def check_device(layer: Layer | str, x: Tensor, weight: Tensor) -> None:
    """Raise if `x` and `weight` live on different devices (for integer inputs)."""
    layer = describe(layer)
    xa, wa = x._data, weight._data
    if type(xa) is not type(wa) or (backend.is_gpu_array(xa) and xa.device != wa.device):
        raise RuntimeError(
            f"{layer} has its weights on {backend.place_of(wa)} but got an input on "
            f"{backend.place_of(xa)}"
        )


def check_channels(
    layer: Layer | str, x: Tensor, expected: int, dims: int, channel_last: bool, layout: str
) -> None:
    """Raise unless `x` has `dims` dimensions (e.g. 4 for NCHW) and `expected` channels."""
    shape = array_of(layer, x).shape
    if len(shape) != dims:
        raise ValueError(
            f"{describe(layer)} expects a {dims}-D input ({layout}), "
            f"got input of shape {list(shape)}"
        )
    channels = shape[-1] if channel_last else shape[1]
    if channels != expected:
        raise ValueError(
            f"{describe(layer)} expects {expected} input channels, "
            f"got input of shape {list(shape)} with {channels} channels (data_format={layout})"
        )


def _device(array) -> str:
    place = backend.place_of(array)
    return "cpu" if place.is_cpu_place() else f"gpu:{place.get_device_id()}"
