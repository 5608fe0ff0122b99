"""Training's entry points into oneDNN: float32 convolutions (`conv_forward`, `conv_input_grad`,
`conv_weight_grad`) and channel-last batch norms (`batch_norm_forward`, `batch_norm_backward`).

The convolutions run where `routing.conv_route` picked oneDNN, and return None (nothing
written) for a shape oneDNN has only its reference loops for: the caller's NumPy kernels run
then, and so do the batch norms, where `routing.batch_norm_route` picked oneDNN. The
primitives are kept per shape, the most recently used (`Recent`). Every call runs on the
OpenMP team that `routing.team_cores` sizes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from framework.backends.cpu import routing, threads
from framework.backends.cpu.onednn import library as dnnl
from framework.backends.cpu.onednn.library import OneDNNError
from framework.backends.cpu.onednn.primitives import BatchNorm, TrainingConv2d
from framework.backends.cpu.tuning import TUNING
from framework.core.conv_geometry import ConvGeometry


class Recent:
    """Training's oneDNN objects by key, the `size` most recently used (each holds native
    primitives and buffers); None where oneDNN refused to make one (ours run instead)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._objects: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple, make) -> Any:
        with self._lock:
            if key in self._objects:
                self._objects.move_to_end(key)
                return self._objects[key]
        try:
            made = make()
        except OneDNNError:  # no optimized kernel, or a shape oneDNN refuses
            made = None
        with self._lock:
            self._objects[key] = made
            while len(self._objects) > self.size:
                self._objects.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._objects)


_batch_norms = Recent(TUNING.onednn_batch_norms_kept)
# Training's convolutions, by input shape, weight shape and geometry (each holds its weight in
# three oneDNN layouts).
_convs = Recent(TUNING.onednn_training_convs_kept)


def _team() -> int:
    return routing.team_cores(threads.in_parallel_work(), threads.workers())


def batch_norm_primitive(x, eps: float) -> BatchNorm | None:
    """The `BatchNorm` for C-contiguous float32 `[rows, channels]` arrays like `x` (where
    `routing.batch_norm_route` picked oneDNN), or None where oneDNN has no optimized kernel."""
    if not (isinstance(x, np.ndarray) and x.dtype == np.float32 and x.ndim == 2):
        raise ValueError("oneDNN's batch norm takes float32 [rows, channels] NumPy arrays")
    if not (x.size > 0 and x.flags.c_contiguous):
        raise ValueError("oneDNN's batch norm takes non-empty C-contiguous arrays")
    if not dnnl.available():
        raise dnnl.OneDNNError("oneDNN is not available")
    return _batch_norms.get((*x.shape, eps), lambda: BatchNorm(*x.shape, eps))


def batch_norm_forward(x, scale, shift, eps: float):
    """`(out, mean, variance)` of training-mode batch norm of a channel-last `[rows, channels]`
    array with float32 `[channels]` scale and shift, or None where oneDNN has no optimized
    kernel."""
    primitive = batch_norm_primitive(x, eps)
    if primitive is None:
        return None
    channels = x.shape[1]
    out = np.empty_like(x)
    mean, variance = np.empty(channels, np.float32), np.empty(channels, np.float32)
    with dnnl.cores(_team()):
        primitive.forward(x, scale, shift, out, mean, variance)
    return out, mean, variance


def batch_norm_backward(x, grad_out, scale, mean, variance, eps: float, grad_x):
    """Writes `grad_x` of `batch_norm_forward`; returns `(grad_scale, grad_shift)`, or None
    (nothing written) where oneDNN has no optimized kernel. Arrays are laid out like `x`."""
    primitive = batch_norm_primitive(x, eps)
    if primitive is None or not (grad_out.flags.c_contiguous and grad_x.flags.c_contiguous):
        return None
    channels = x.shape[1]
    grad_scale, grad_shift = np.empty(channels, np.float32), np.empty(channels, np.float32)
    with dnnl.cores(_team()):
        primitive.backward(x, grad_out, scale, mean, variance, grad_x, grad_scale, grad_shift)
    return grad_scale, grad_shift


def _check(*arrays) -> None:
    """The convolution entry points run where `routing.conv_route` picked oneDNN: loaded,
    NumPy float32 arrays (4-D images), nothing empty. Anything else is the caller's error."""
    for a in arrays:
        if a is not None and not (
            isinstance(a, np.ndarray) and a.dtype == np.float32 and a.size > 0
        ):
            raise ValueError("oneDNN convolutions take non-empty NumPy float32 arrays")
    if not dnnl.available():
        raise dnnl.OneDNNError("oneDNN is not available")


def _conv(x_shape, weight_shape, geom: ConvGeometry, step: str):
    """The `TrainingConv2d` for these shapes, or None where oneDNN has no optimized kernel for
    this `step` of it."""
    key = (tuple(x_shape), tuple(weight_shape), geom.stride, geom.padding, geom.dilation)
    key += (geom.groups,)
    found = _convs.get(key, lambda: TrainingConv2d(x_shape, weight_shape, geom))
    return found if found is not None and found.passes[step] is not None else None


def _channel_last(array):
    """An NCHW-shaped array in C-contiguous channel-last memory (copied if it is not)."""
    if array.transpose(0, 2, 3, 1).flags.c_contiguous:
        return array
    return np.ascontiguousarray(array.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


def conv_forward(x, weight, bias, geom: ConvGeometry):
    """C-contiguous `[N, Ho, Wo, O]` conv(x, weight) + bias for training, where x is `[N, C, H,
    W]` and the weight and bias are this step's; None where oneDNN has no optimized kernel."""
    _check(x, weight, bias)
    conv = _conv(x.shape, weight.shape, geom, "forward")
    if conv is None:
        return None
    n, o, (ho, wo) = x.shape[0], weight.shape[0], geom.out_size
    out = np.empty((n, ho, wo, o), np.float32)
    bias = None if bias is None else np.ascontiguousarray(bias)
    with dnnl.cores(_team()):
        conv.forward(_channel_last(x), np.ascontiguousarray(weight), bias, out)
    return out


def conv_input_grad(gy, weight, geom: ConvGeometry):
    """C-contiguous `[N, H, W, C]` gradient of `conv_forward` in x from `gy` (`[N, O, Ho, Wo]`),
    or None where oneDNN has no optimized kernel."""
    _check(gy, weight)
    n, c = gy.shape[0], weight.shape[1] * geom.groups
    conv = _conv((n, c, *geom.in_size), weight.shape, geom, "input_grad")
    if conv is None:
        return None
    gx = np.empty((n, *geom.in_size, c), np.float32)
    with dnnl.cores(_team()):
        conv.input_grad(_channel_last(gy), np.ascontiguousarray(weight), gx)
    return gx


def conv_weight_grad(x, gy, geom: ConvGeometry, weight_shape):
    """The `[O, C/groups, kh, kw]` gradient of `conv_forward` in its weight, or None where
    oneDNN has no optimized kernel."""
    _check(x, gy)
    conv = _conv(x.shape, weight_shape, geom, "weight_grad")
    if conv is None:
        return None
    gw = np.empty(weight_shape, np.float32)
    with dnnl.cores(_team()):
        conv.weight_grad(_channel_last(x), _channel_last(gy), gw)
    return gw
