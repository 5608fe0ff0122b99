"""oneDNN primitives: one inference convolution (`Conv2d`), one training convolution's three
passes (`TrainingConv2d`) and one training batch norm shape (`BatchNorm`).

`Conv2d` is made for one input shape and memory layout, with a fixed weight and bias: the
weight is reordered once into the layout oneDNN chose, into a NumPy buffer. `conv2d` is the
predictor's entry point (`framework.inference.kernels.conv`); the training entry points are in
`onednn.training`.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

import numpy as np

from framework.backends.cpu.onednn import library as dnnl
from framework.backends.cpu.onednn.library import (
    ARG_BIAS,
    ARG_DIFF_DST,
    ARG_DIFF_SCALE,
    ARG_DIFF_SHIFT,
    ARG_DIFF_SRC,
    ARG_DIFF_WEIGHTS,
    ARG_DST,
    ARG_MEAN,
    ARG_SCALE,
    ARG_SHIFT,
    ARG_SRC,
    ARG_VARIANCE,
    ARG_WEIGHTS,
    BACKWARD,
    CONVOLUTION_DIRECT,
    ELTWISE_CLIP,
    ELTWISE_RELU,
    FORWARD_INFERENCE,
    FORWARD_TRAINING,
    QUERY_DIFF_WEIGHTS_MD,
    QUERY_WEIGHTS_MD,
    USE_SCALE,
    USE_SHIFT,
    Execution,
    Library,
    NoKernel,
    Owned,
    aligned,
    implementation,
    memory,
)  # fmt: skip
from framework.core.conv_geometry import ConvGeometry


def plain_strides(array) -> tuple[int, ...]:
    """An array's strides in elements."""
    return tuple(s // array.itemsize for s in array.strides)


def _plain_strides_of(shape) -> tuple[int, ...]:
    """Element strides of a C-contiguous array of this shape."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def _channel_last_strides(shape) -> tuple[int, ...]:
    """Element strides of an NCHW-shaped array in C-contiguous `[N, H, W, C]` memory."""
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


def _shape_args(library: Library, geom: ConvGeometry) -> tuple:
    """Stride, dilation and padding arguments of oneDNN's convolution descriptors."""
    (top, bottom), (left, right) = geom.padding
    return (
        library.dims(*geom.stride),
        library.dims(*(d - 1 for d in geom.dilation)),
        library.dims(top, left),
        library.dims(bottom, right),
    )


def supports(x, weight, geom: ConvGeometry) -> bool:
    """Whether `Conv2d` takes this convolution now: inside `cores`, float32, 2-D, strides in
    whole elements."""
    return (
        dnnl.given() > 0
        and isinstance(x, np.ndarray)
        and x.dtype == np.float32
        and weight.dtype == np.float32
        and x.ndim == 4
        and weight.ndim == 4
        and all(s > 0 and s % x.itemsize == 0 for s in x.strides)
    )


def activation_post_op(spec: dict | None):
    """`(algorithm, alpha, beta)` of a fused-activation spec oneDNN can apply itself (ReLU,
    ReLU6 and other clips), or None."""
    if spec is None:
        return None
    if spec["type"] == "relu":
        return (ELTWISE_RELU, 0.0, 0.0)
    if spec["type"] == "clip" and spec.get("min") is not None and spec.get("max") is not None:
        return (ELTWISE_CLIP, float(spec["min"]), float(spec["max"]))
    return None


class Conv2d:
    """One convolution's oneDNN primitive, for inputs of one shape and memory layout.

    `weight` (`[O, C/groups, kh, kw]`) and `bias` (`[O]` or None) are float32 and fixed.
    `__call__` writes the convolution (plus bias, then the `post_op` activation of
    `activation_post_op`) of `x` (NCHW-shaped, the strides it was made for) into `out`, a
    C-contiguous channel-last `[N, Ho, Wo, O]` array.
    """

    def __init__(self, x_shape, x_strides, weight, bias, geom: ConvGeometry, post_op=None) -> None:
        library = self._library = dnnl.loaded()
        keep = self._owned = Owned(self, library)
        n, o, (ho, wo) = x_shape[0], weight.shape[0], geom.out_size
        weight = np.ascontiguousarray(weight, dtype=np.float32)
        if geom.groups > 1:  # oneDNN's grouped weights: [groups, O/groups, C/groups, kh, kw]
            weight = weight.reshape(geom.groups, o // geom.groups, *weight.shape[1:])
        src = keep("desc", library.desc(x_shape, x_strides))
        dst = keep("desc", library.desc((n, o, ho, wo), (ho * wo * o, 1, wo * o, o)))
        bias_desc = keep("desc", library.desc((o,), (1,))) if bias is not None else None
        plain_weight = keep("desc", library.desc(weight.shape, plain_strides(weight)))
        pd = keep(
            "pd",
            library.make(
                "dnnl_convolution_forward_primitive_desc_create",
                library.engine, FORWARD_INFERENCE, CONVOLUTION_DIRECT,
                src, keep("desc", library.desc(weight.shape)), bias_desc, dst,
                *_shape_args(library, geom), _post_op_attr(library, keep, post_op),
            ),
        )  # fmt: skip
        self.implementation = implementation(library, pd, "convolution")
        primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
        chosen = library.lib.dnnl_primitive_desc_query_md(pd, QUERY_WEIGHTS_MD, 0)  # pd's
        # The weight in oneDNN's layout lives in a NumPy buffer, freed with this object.
        self._weight = aligned(library.lib.dnnl_memory_desc_get_size(chosen) // 4)
        weight_memory = keep("memory", memory(library, chosen, self._weight))
        source = keep("memory", memory(library, plain_weight, weight))
        reorder = _reorder(library, keep, plain_weight, chosen)
        Execution(library, reorder, {ARG_SRC: source, ARG_DST: weight_memory}).run({})
        self._bias = None if bias is None else np.ascontiguousarray(bias, np.float32)
        memories = {
            ARG_SRC: keep("memory", memory(library, src, None)),
            ARG_WEIGHTS: weight_memory,
            ARG_DST: keep("memory", memory(library, dst, None)),
        }
        if bias is not None:
            memories[ARG_BIAS] = keep("memory", memory(library, bias_desc, self._bias))
        self._execution = Execution(library, primitive, memories)
        self.x_shape, self.x_strides = tuple(x_shape), tuple(x_strides)

    def __call__(self, x, out) -> None:
        """`out`: the C-contiguous `[N, Ho, Wo, O]` (channel-last) array to write."""
        if tuple(x.shape) != self.x_shape or plain_strides(x) != self.x_strides:
            raise ValueError(f"input {x.shape} / {x.strides} is not the one this was made for")
        if not out.flags.c_contiguous or out.dtype != np.float32:
            raise ValueError("the output must be a C-contiguous float32 [N, Ho, Wo, O] array")
        self._run(x, out)

    def _run(self, x, out) -> None:
        """`__call__` without the checks, for callers that matched `x` to this primitive (a
        single-sample MobileNetV2 makes 52 calls: microseconds count)."""
        self._execution.run({ARG_SRC: x, ARG_DST: out})


def _post_op_attr(library: Library, keep: Owned, post_op):
    """A primitive attribute applying the `post_op` activation, or None."""
    if post_op is None:
        return None
    lib = library.lib
    post_ops = keep("post_ops", library.make("dnnl_post_ops_create"))
    library.check(lib.dnnl_post_ops_append_eltwise(post_ops, *post_op), "post-op")
    attr = keep("attr", library.make("dnnl_primitive_attr_create"))
    library.check(lib.dnnl_primitive_attr_set_post_ops(attr, post_ops), "attr")
    return attr


def _reorder(library: Library, keep: Owned, source, target):
    """A reorder primitive from memory descriptor `source` to `target`."""
    pd = keep(
        "pd",
        library.make(
            "dnnl_reorder_primitive_desc_create",
            source, library.engine, target, library.engine, None,
        ),
    )  # fmt: skip
    return keep("primitive", library.make("dnnl_primitive_create", pd))


def conv2d(
    x, weight, bias, geom: ConvGeometry, out, cache: dict[Any, Conv2d | None], post_op=None
) -> bool:
    """`out` (C-contiguous `[N, Ho, Wo, O]`) = post_op(conv(x, weight) + bias) through oneDNN;
    False (nothing written) where oneDNN has no optimized kernel for it. What was found for
    each input shape and strides is kept in `cache`."""
    if not x.transpose(0, 2, 3, 1).flags.c_contiguous:
        # oneDNN's fast kernels read channel-last memory (for an NCHW input and a channel-last
        # output it has only its reference loops, far slower); a copy costs little beside the
        # convolution (`benchmarks/onednn_conv.py`).
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    key = (x.shape, x.strides)
    if key not in cache:
        try:
            cache[key] = Conv2d(x.shape, plain_strides(x), weight, bias, geom, post_op)
        except NoKernel:
            cache[key] = None
    primitive = cache[key]
    if primitive is None:
        return False
    if not out.flags.c_contiguous:
        raise ValueError("the output must be a C-contiguous float32 [N, Ho, Wo, O] array")
    primitive._run(x, out)  # x has the shape and strides of its key
    return True


# Each training pass: (name, weight argument, weight-layout query, data arguments: desc name)
_TRAINING_PASSES = (
    ("forward", ARG_WEIGHTS, QUERY_WEIGHTS_MD, {ARG_SRC: "src", ARG_BIAS: "bias", ARG_DST: "dst"}),
    ("input_grad", ARG_WEIGHTS, QUERY_WEIGHTS_MD, {ARG_DIFF_SRC: "src", ARG_DIFF_DST: "dst"}),
    ("weight_grad", ARG_DIFF_WEIGHTS, QUERY_DIFF_WEIGHTS_MD, {ARG_SRC: "src", ARG_DIFF_DST: "dst"}),
)


class TrainingConv2d:
    """One convolution's forward, input-gradient and weight-gradient primitives, for training:
    channel-last float32 images of one shape, a weight (`[O, C/groups, kh, kw]`) and bias that
    change every step (without a bias, the forward adds zeros). Each pass whose kernel is
    oneDNN's reference loop is None.

    oneDNN picks the weight layout of each pass; the weight is reordered into it on every call
    (a copy, small beside the convolution) and the weight gradient reordered back out.
    """

    def __init__(self, x_shape, weight_shape, geom: ConvGeometry) -> None:
        library = self._library = dnnl.loaded()
        keep = self._owned = Owned(self, library)
        o, g = weight_shape[0], geom.groups
        weight_shape = (g, o // g, *weight_shape[1:]) if g > 1 else tuple(weight_shape)
        dst_shape = (x_shape[0], o, *geom.out_size)
        descs = {
            "src": keep("desc", library.desc(x_shape, _channel_last_strides(x_shape))),
            "dst": keep("desc", library.desc(dst_shape, _channel_last_strides(dst_shape))),
            "bias": keep("desc", library.desc((o,), (1,))),
            "plain": keep("desc", library.desc(weight_shape, _plain_strides_of(weight_shape))),
            "chosen": keep("desc", library.desc(weight_shape)),  # any layout oneDNN likes
        }
        self._zeros = np.zeros(o, np.float32)
        pds = _training_pds(library, keep, descs, _shape_args(library, geom))
        self.passes: dict[str, tuple | None] = {
            name: _training_pass(library, keep, pds[name], descs, weight_arg, query, args)
            for name, weight_arg, query, args in _TRAINING_PASSES
        }
        self._lock = threading.Lock()  # a pass's weight buffer is shared by its callers

    def forward(self, x, weight, bias, out) -> None:
        """`out` (`[N, Ho, Wo, O]`) = conv(x, weight) + bias."""
        run, move, buffer, arg = self.passes["forward"]
        with self._lock:
            move.run({ARG_SRC: weight, ARG_DST: buffer})
            bias = self._zeros if bias is None else bias
            run.run({ARG_SRC: x, arg: buffer, ARG_BIAS: bias, ARG_DST: out})

    def input_grad(self, gy, weight, gx) -> None:
        """`gx` (`[N, H, W, C]`) from `gy` (`[N, Ho, Wo, O]`)."""
        run, move, buffer, arg = self.passes["input_grad"]
        with self._lock:
            move.run({ARG_SRC: weight, ARG_DST: buffer})
            run.run({ARG_DIFF_DST: gy, arg: buffer, ARG_DIFF_SRC: gx})

    def weight_grad(self, x, gy, gw) -> None:
        """`gw` (C-contiguous `[O, C/groups, kh, kw]`) from x and gy."""
        run, move, buffer, arg = self.passes["weight_grad"]
        with self._lock:
            run.run({ARG_SRC: x, ARG_DIFF_DST: gy, arg: buffer})
            move.run({ARG_SRC: buffer, ARG_DST: gw})


def _training_pds(library: Library, keep: Owned, descs: dict, shape_args: tuple) -> dict:
    """The primitive descriptors of a training convolution's three passes, by pass name."""
    src, chosen, dst = descs["src"], descs["chosen"], descs["dst"]
    forward = keep(
        "pd",
        library.make(
            "dnnl_convolution_forward_primitive_desc_create",
            library.engine, FORWARD_TRAINING, CONVOLUTION_DIRECT,
            src, chosen, descs["bias"], dst, *shape_args, None,
        ),
    )  # fmt: skip
    data = keep(
        "pd",
        library.make(
            "dnnl_convolution_backward_data_primitive_desc_create",
            library.engine, CONVOLUTION_DIRECT, src, chosen, dst, *shape_args, forward, None,
        ),
    )  # fmt: skip
    weights = keep(
        "pd",
        library.make(
            "dnnl_convolution_backward_weights_primitive_desc_create",
            library.engine, CONVOLUTION_DIRECT, src, chosen, None, dst, *shape_args,
            forward, None,
        ),
    )  # fmt: skip
    return {"forward": forward, "input_grad": data, "weight_grad": weights}


def _training_pass(library: Library, keep: Owned, pd, descs: dict, weight_arg, query, args):
    """(execution, weight reorder, weight buffer in oneDNN's layout, weight argument) of one
    training pass, or None where oneDNN has only its reference kernel for it."""
    try:
        implementation(library, pd, "convolution")
    except NoKernel:
        return None
    desc = library.lib.dnnl_primitive_desc_query_md(pd, query, 0)  # owned by pd
    buffer = aligned(library.lib.dnnl_memory_desc_get_size(desc) // 4)
    primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
    memories = {
        arg: keep("memory", memory(library, descs[name], None)) for arg, name in args.items()
    }
    memories[weight_arg] = keep("memory", memory(library, desc, None))
    run = Execution(library, primitive, memories)
    # the weight goes in (forward, input grad) or its gradient comes out (weight grad)
    source, target = (
        (desc, descs["plain"]) if weight_arg == ARG_DIFF_WEIGHTS else (descs["plain"], desc)
    )
    reorder = _reorder(library, keep, source, target)
    ends = {ARG_SRC: keep("memory", memory(library, source, None))}
    ends[ARG_DST] = keep("memory", memory(library, target, None))
    return run, Execution(library, reorder, ends), buffer, weight_arg


class BatchNorm:
    """Training-mode batch norm of C-contiguous float32 `[rows, channels]` arrays (channel-last
    memory, rows = N*H*W), with per-channel scale and shift: forward and backward primitives."""

    def __init__(self, rows: int, channels: int, eps: float) -> None:
        library = dnnl.loaded()
        keep = self._owned = Owned(self, library)
        data = keep("desc", library.desc((rows, channels), (channels, 1)))
        per_channel = keep("desc", library.desc((channels,), (1,)))
        flags, eps = USE_SCALE | USE_SHIFT, ctypes.c_float(eps)
        forward_pd = keep(
            "pd",
            library.make(
                "dnnl_batch_normalization_forward_primitive_desc_create",
                library.engine, FORWARD_TRAINING, data, data, eps, flags, None,
            ),
        )  # fmt: skip
        backward_pd = keep(
            "pd",
            library.make(
                "dnnl_batch_normalization_backward_primitive_desc_create",
                library.engine, BACKWARD, data, data, data, eps, flags, forward_pd, None,
            ),
        )  # fmt: skip
        for pd in (forward_pd, backward_pd):
            implementation(library, pd, "batch norm")

        def execution(pd, data_args, channel_args):
            primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
            memories = {arg: keep("memory", memory(library, data, None)) for arg in data_args}
            for arg in channel_args:
                memories[arg] = keep("memory", memory(library, per_channel, None))
            return Execution(library, primitive, memories)

        self._forward = execution(
            forward_pd, (ARG_SRC, ARG_DST), (ARG_SCALE, ARG_SHIFT, ARG_MEAN, ARG_VARIANCE)
        )
        self._backward = execution(
            backward_pd,
            (ARG_SRC, ARG_DIFF_DST, ARG_DIFF_SRC),
            (ARG_SCALE, ARG_MEAN, ARG_VARIANCE, ARG_DIFF_SCALE, ARG_DIFF_SHIFT),
        )

    def forward(self, x, scale, shift, out, mean, variance) -> None:
        """`out` = batch norm of `x`; writes the batch's `mean` and biased `variance`."""
        self._forward.run(
            {ARG_SRC: x, ARG_DST: out, ARG_SCALE: scale, ARG_SHIFT: shift}
            | {ARG_MEAN: mean, ARG_VARIANCE: variance}
        )

    def backward(self, x, grad_out, scale, mean, variance, grad_x, grad_scale, grad_shift):
        """`grad_x`, `grad_scale` and `grad_shift` from the forward's statistics."""
        self._backward.run(
            {ARG_SRC: x, ARG_DIFF_DST: grad_out, ARG_SCALE: scale}
            | {ARG_MEAN: mean, ARG_VARIANCE: variance, ARG_DIFF_SRC: grad_x}
            | {ARG_DIFF_SCALE: grad_scale, ARG_DIFF_SHIFT: grad_shift}
        )
