"""Input checks shared by layers with weights, so errors name the layer and both sides.

    Linear(in_features=500, out_features=10) expects the last input dimension to be 500,
    got input of shape [64, 2880]

They compare a few attributes of the arrays and cost well under a microsecond per call.
"""

from __future__ import annotations

from framework.core import backend
from framework.core.tensor import Tensor


def check_dtype_and_device(layer: str, x: Tensor, weight: Tensor) -> None:
    """Raise if `x` and the layer's `weight` differ in float dtype or in device."""
    xa, wa = x._data, weight._data
    if type(xa) is not type(wa) or (backend.is_gpu_array(xa) and xa.device != wa.device):
        raise RuntimeError(
            f"{layer} has its weights on {backend.place_of(wa)} but got an input on "
            f"{backend.place_of(xa)}; move the input with x.to('{_device(wa)}') or the layer "
            f"with layer.to('{_device(xa)}')"
        )
    if xa.dtype != wa.dtype:
        raise TypeError(
            f"{layer} has {wa.dtype} weights but got a {xa.dtype} input of shape {list(xa.shape)}; "
            f"cast the input with x.astype('{wa.dtype}') or the layer with "
            f"layer.to(dtype='{xa.dtype}')"
        )


def check_device(layer: str, x: Tensor, weight: Tensor) -> None:
    """Raise if `x` and `weight` live on different devices (for integer inputs)."""
    xa, wa = x._data, weight._data
    if type(xa) is not type(wa) or (backend.is_gpu_array(xa) and xa.device != wa.device):
        raise RuntimeError(
            f"{layer} has its weights on {backend.place_of(wa)} but got an input on "
            f"{backend.place_of(xa)}"
        )


def check_channels(
    layer: str, x: Tensor, expected: int, dims: int, channel_last: bool, layout: str
) -> None:
    """Raise unless `x` has `dims` dimensions (e.g. 4 for NCHW) and `expected` channels."""
    shape = x._data.shape
    if len(shape) != dims:
        raise ValueError(
            f"{layer} expects a {dims}-D input ({layout}), got input of shape {list(shape)}"
        )
    channels = shape[-1] if channel_last else shape[1]
    if channels != expected:
        raise ValueError(
            f"{layer} expects {expected} input channels, got input of shape {list(shape)} "
            f"with {channels} channels (data_format={layout})"
        )


def _device(array) -> str:
    place = backend.place_of(array)
    return "cpu" if place.is_cpu_place() else f"gpu:{place.get_device_id()}"
