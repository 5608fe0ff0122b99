"""Convolutions and batch norm through Intel oneDNN's JIT kernels, when it is installed.

oneDNN is what PyTorch's CPU convolutions and batch norm run on. Called through ctypes, on
2 cores at batch 32:
- its convolution forward is 1.4-1.7x our im2col + GEMM on CIFAR ResNet-18's 3x3 shapes up
  to 256 channels, and 3-6x at batch 1; training's three passes together 1.3-1.6x ours
  there, and 0.9x at 512 channels of 4x4 (`benchmarks/onednn_conv.py`);
- its training-mode batch norm on channel-last memory is 2-4x our NumPy passes forward and
  3-5x backward; through the layer, forward + backward, 1.7-2.3x (`benchmarks/layer_ops.py`).
The predictor runs its convolutions on it (`framework.inference.executor` says when); training
runs its float32 convolutions (`conv_forward`, `conv_input_grad`, `conv_weight_grad`) and
channel-last batch norms (`batch_norm_forward`, `batch_norm_backward`) on it.

The library comes from the `onednn-cpu-gomp` wheel (oneDNN 3.2, GNU OpenMP runtime, CPU only;
it needs the system's `libgomp.so.1`). Without it, or with `SAMPAN_ONEDNN=0` (or `off`),
`available()` is False and callers keep their NumPy kernels. It is used only inside `cores(n)`,
which also sets the calling thread's OpenMP team size.

`Conv2d` is one inference convolution (input strides, fixed weight and bias, geometry): the
weight is reordered once into the layout oneDNN chose, into a NumPy buffer. `TrainingConv2d`
holds one training convolution's three passes, `BatchNorm` one `[rows, channels]` shape.
Arrays stay NumPy arrays: every call hands oneDNN their data pointers (`_Execution`). A
stream per thread runs the calls.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
import weakref
from collections import OrderedDict
from typing import Any

import numpy as np

from framework.backends.cpu import openmp, switches, threads
from framework.core.conv_geometry import ConvGeometry

# oneDNN C API constants (dnnl_types.h, v3)
_F32 = 3
_FORMAT_ANY = 1
_ENGINE_CPU = 1
_STREAM_IN_ORDER = 1
_FORWARD_TRAINING, _FORWARD_INFERENCE, _BACKWARD = 64, 96, 128
_CONVOLUTION_DIRECT = 1
_QUERY_IMPL_INFO = 8
_QUERY_WEIGHTS_MD, _QUERY_DIFF_WEIGHTS_MD = 131, 132
_ARG_SRC, _ARG_DST, _ARG_WEIGHTS, _ARG_BIAS = 1, 17, 33, 41
_ARG_MEAN, _ARG_VARIANCE, _ARG_SCALE, _ARG_SHIFT = 49, 50, 51, 52
_ARG_DIFF_SRC, _ARG_DIFF_DST, _ARG_DIFF_WEIGHTS = 129, 145, 161
_ARG_DIFF_SCALE, _ARG_DIFF_SHIFT = 255, 256
_USE_SCALE, _USE_SHIFT = 0x2, 0x4  # dnnl_normalization_flags_t
# Activations oneDNN applies to a convolution's output while it is still in registers
# (post-ops): dnnl_eltwise_relu (alpha: negative slope) and dnnl_eltwise_clip (alpha, beta:
# the bounds).
_ELTWISE_RELU, _ELTWISE_CLIP = 0x20, 0x2E


class OneDNNError(RuntimeError):
    """A oneDNN call returned an error status."""


class NoKernel(OneDNNError):
    """oneDNN has no optimized kernel for this convolution."""


class _Arg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class _Library:
    """The loaded library, its CPU engine and one stream per calling thread. `openmp` is the
    GNU OpenMP runtime oneDNN was linked against, from the same link-map namespace."""

    def __init__(self, lib, openmp_runtime) -> None:
        self.lib = lib
        ptr, out = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
        i, dims = ctypes.c_int, ctypes.c_int64 * 12
        self.dims = dims
        signatures = {
            "dnnl_engine_create": [out, i, ctypes.c_size_t],
            "dnnl_stream_create": [out, ptr, ctypes.c_uint],
            "dnnl_memory_desc_create_with_strides": [out, i, dims, i, dims],
            "dnnl_memory_desc_create_with_tag": [out, i, dims, i, i],
            "dnnl_convolution_forward_primitive_desc_create": [out, ptr, i, i]
            + [ptr] * 4
            + [dims] * 4
            + [ptr],
            "dnnl_batch_normalization_forward_primitive_desc_create": [out, ptr, i, ptr, ptr]
            + [ctypes.c_float, ctypes.c_uint, ptr],
            "dnnl_batch_normalization_backward_primitive_desc_create": [out, ptr, i, ptr, ptr]
            + [ptr, ctypes.c_float, ctypes.c_uint, ptr, ptr],
            "dnnl_convolution_backward_data_primitive_desc_create": [out, ptr, i]
            + [ptr] * 3
            + [dims] * 4
            + [ptr, ptr],
            "dnnl_convolution_backward_weights_primitive_desc_create": [out, ptr, i]
            + [ptr] * 4
            + [dims] * 4
            + [ptr, ptr],
            "dnnl_reorder_primitive_desc_create": [out, ptr, ptr, ptr, ptr, ptr],
            "dnnl_primitive_create": [out, ptr],
            "dnnl_memory_create": [out, ptr, ptr, ptr],
            "dnnl_memory_set_data_handle": [ptr, ptr],
            "dnnl_primitive_execute": [ptr, ptr, i, ptr],
            "dnnl_stream_wait": [ptr],
            "dnnl_memory_desc_destroy": [ptr],
            "dnnl_memory_destroy": [ptr],
            "dnnl_primitive_desc_destroy": [ptr],
            "dnnl_primitive_destroy": [ptr],
            "dnnl_post_ops_create": [out],
            "dnnl_post_ops_append_eltwise": [ptr, i, ctypes.c_float, ctypes.c_float],
            "dnnl_post_ops_destroy": [ptr],
            "dnnl_primitive_attr_create": [out],
            "dnnl_primitive_attr_set_post_ops": [ptr, ptr],
            "dnnl_primitive_attr_destroy": [ptr],
        }
        for name, argtypes in signatures.items():
            function = getattr(lib, name)
            function.argtypes, function.restype = argtypes, ctypes.c_int
        lib.dnnl_primitive_desc_query.argtypes = [ptr, i, i, ptr]
        lib.dnnl_primitive_desc_query.restype = i
        lib.dnnl_primitive_desc_query_md.argtypes = [ptr, i, i]
        lib.dnnl_primitive_desc_query_md.restype = ptr
        lib.dnnl_memory_desc_get_size.argtypes = [ptr]
        lib.dnnl_memory_desc_get_size.restype = ctypes.c_size_t
        self.engine = self.make("dnnl_engine_create", _ENGINE_CPU, 0)
        self._streams = threading.local()
        self.openmp = openmp_runtime
        if openmp_runtime is not None:
            openmp_runtime.omp_set_num_threads.argtypes = [ctypes.c_int]

    def make(self, name: str, *args) -> ctypes.c_void_p:
        """Call a `dnnl_*_create` function; returns the handle it made."""
        handle = ctypes.c_void_p()
        self.check(getattr(self.lib, name)(ctypes.byref(handle), *args), name)
        return handle

    @staticmethod
    def check(status: int, name: str) -> None:
        if status != 0:
            raise OneDNNError(f"{name} failed with oneDNN status {status}")

    def stream(self) -> ctypes.c_void_p:
        stream = getattr(self._streams, "stream", None)
        if stream is None:
            stream = self._streams.stream = self.make(
                "dnnl_stream_create", self.engine, _STREAM_IN_ORDER
            )
        return stream

    def desc(self, shape, strides=None) -> ctypes.c_void_p:
        """A float32 memory descriptor with these strides (in elements), or of any layout."""
        if strides is None:
            return self.make(
                "dnnl_memory_desc_create_with_tag",
                len(shape),
                self.dims(*shape),
                _F32,
                _FORMAT_ANY,
            )
        return self.make(
            "dnnl_memory_desc_create_with_strides",
            len(shape),
            self.dims(*shape),
            _F32,
            self.dims(*strides),
        )


_library: _Library | None = None
_loaded = False
_load_lock = threading.Lock()
_given = threading.local()  # .cores: how many cores this thread's oneDNN calls may use


class cores:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: this thread's oneDNN calls may run an OpenMP team of `count` threads.

    Outside it oneDNN is not used (`given()` is 0). The caller keeps other thread pools quiet
    meanwhile: OpenBLAS's threads spinning after a multi-threaded GEMM and an OpenMP team
    fighting over two cores made CIFAR ResNet-18's convolutions 5x slower than either alone.
    """

    def __init__(self, count: int) -> None:
        self.count = count

    def __enter__(self) -> None:
        self.previous = getattr(_given, "cores", 0)
        _given.cores = self.count
        _set_openmp_threads(self.count)
        openmp.team_started()

    def __exit__(self, *exc: object) -> None:
        _given.cores = self.previous
        if self.previous:
            _set_openmp_threads(self.previous)


def given() -> int:
    """Cores this thread's oneDNN calls may use now (0: oneDNN is not to be used)."""
    return getattr(_given, "cores", 0) if available() else 0


def _set_openmp_threads(count: int) -> None:
    """The calling thread's OpenMP team size (oneDNN's team for its next calls from here), at
    most `OMP_NUM_THREADS`: an OpenMP team on cores that other processes also use waits at its
    barriers for threads the scheduler has put aside (a LeNet package's single-sample run took
    7.4 ms instead of 0.5 beside another test process)."""
    if _library is not None and _library.openmp is not None:
        _library.openmp.omp_set_num_threads(max(1, min(count, _openmp_limit())))


def _openmp_limit() -> int:
    """The team size `OMP_NUM_THREADS` allows (its first entry; unset: no limit)."""
    try:
        return int(os.environ.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        return 1 << 16


def _load() -> _Library | None:
    if not switches.onednn_enabled():
        return None
    folder = os.path.join(sys.prefix, "lib")  # where the onednn-cpu-gomp wheel puts it
    paths = [os.path.join(folder, "libdnnl.so.3")]
    found = ctypes.util.find_library("dnnl")
    paths += [found] if found else []
    for path in paths:
        try:
            return _Library(*_open(path))
        except (OSError, AttributeError, OneDNNError):  # missing libgomp, old version, no CPU
            continue
    return None


def _open(path: str) -> tuple[Any, Any]:
    """(oneDNN, the GNU OpenMP runtime it was linked against, or None).

    oneDNN is found by its name, `libdnnl.so.3`, by libraries loaded after it: PaddlePaddle,
    which ships a newer oneDNN of that name, fails to import in a process that loaded ours
    first (a missing symbol). Import it before. (Loading ours into a link-map namespace of its
    own with glibc's `dlmopen` avoided that, but OpenSSL then crashed in `hashlib`.)
    """
    with openmp.spin_limit():  # oneDNN loads the runtime, if nothing has yet
        lib = ctypes.CDLL(path)
    return lib, openmp.runtime()


def available() -> bool:
    """Whether oneDNN is loaded (loading it on first ask) and may run here: a child forked
    after its parent ran an OpenMP team keeps to the NumPy kernels (see `openmp`)."""
    global _library, _loaded
    if not _loaded:
        with _load_lock:
            if not _loaded:
                _library, _loaded = _load(), True
    return _library is not None and openmp.teams_usable()


def _plain_strides(array) -> tuple[int, ...]:
    return tuple(s // array.itemsize for s in array.strides)


def _plain_strides_of(shape) -> tuple[int, ...]:
    """Element strides of a C-contiguous array of this shape."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def supports(x, weight, geom: ConvGeometry) -> bool:
    """Whether `Conv2d` takes this convolution now: inside `cores`, float32, 2-D, strides in
    whole elements."""
    return (
        given() > 0
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
        return (_ELTWISE_RELU, 0.0, 0.0)
    if spec["type"] == "clip" and spec.get("min") is not None and spec.get("max") is not None:
        return (_ELTWISE_CLIP, float(spec["min"]), float(spec["max"]))
    return None


class Conv2d:
    """One convolution's oneDNN primitive, for inputs of one shape and memory layout.

    `weight` (`[O, C/groups, kh, kw]`) and `bias` (`[O]` or None) are float32 and fixed.
    `__call__` writes the convolution (plus bias, then the `post_op` activation of
    `activation_post_op`) of `x` (NCHW-shaped, the strides it was made for) into `out`, a
    C-contiguous channel-last `[N, Ho, Wo, O]` array.
    """

    def __init__(self, x_shape, x_strides, weight, bias, geom: ConvGeometry, post_op=None) -> None:
        if not available():
            raise OneDNNError("oneDNN is not available")
        library = self._library = _library
        n, c, h, w = x_shape
        o = weight.shape[0]
        ho, wo = geom.out_size
        (top, bottom), (left, right) = geom.padding
        keep = self._owned = _Owned(self, library)
        lib = library.lib
        weight = np.ascontiguousarray(weight, dtype=np.float32)
        g = geom.groups
        if g > 1:  # oneDNN's grouped weights: [groups, O/groups, C/groups, kh, kw]
            weight = weight.reshape(g, o // g, *weight.shape[1:])
        src = keep("desc", library.desc(x_shape, x_strides))
        dst = keep("desc", library.desc((n, o, ho, wo), (ho * wo * o, 1, wo * o, o)))
        bias_desc = keep("desc", library.desc((o,), (1,))) if bias is not None else None
        plain_weight = keep("desc", library.desc(weight.shape, _plain_strides(weight)))
        attr = None
        if post_op is not None:
            post_ops = keep("post_ops", library.make("dnnl_post_ops_create"))
            library.check(lib.dnnl_post_ops_append_eltwise(post_ops, *post_op), "post-op")
            attr = keep("attr", library.make("dnnl_primitive_attr_create"))
            library.check(lib.dnnl_primitive_attr_set_post_ops(attr, post_ops), "attr")
        pd = keep(
            "pd",
            library.make(
                "dnnl_convolution_forward_primitive_desc_create",
                library.engine,
                _FORWARD_INFERENCE,
                _CONVOLUTION_DIRECT,
                src,
                keep("desc", library.desc(weight.shape)),
                bias_desc,
                dst,
                library.dims(*geom.stride),
                library.dims(*(d - 1 for d in geom.dilation)),
                library.dims(top, left),
                library.dims(bottom, right),
                attr,
            ),
        )
        self.implementation = _implementation(library, pd, "convolution")
        primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
        chosen = lib.dnnl_primitive_desc_query_md(pd, _QUERY_WEIGHTS_MD, 0)  # owned by pd
        # The weight in oneDNN's layout lives in a NumPy buffer, freed with this object.
        self._weight = _aligned(lib.dnnl_memory_desc_get_size(chosen) // 4)
        reorder_pd = keep(
            "pd",
            library.make(
                "dnnl_reorder_primitive_desc_create",
                plain_weight,
                library.engine,
                chosen,
                library.engine,
                None,
            ),
        )
        reorder = keep("primitive", library.make("dnnl_primitive_create", reorder_pd))
        source = keep("memory", _memory(library, plain_weight, weight))
        weight_memory = keep("memory", _memory(library, chosen, self._weight))
        _Execution(library, reorder, {_ARG_SRC: source, _ARG_DST: weight_memory}).run({})
        self._bias = None if bias is None else np.ascontiguousarray(bias, np.float32)
        memories = {
            _ARG_SRC: keep("memory", _memory(library, src, None)),
            _ARG_WEIGHTS: weight_memory,
            _ARG_DST: keep("memory", _memory(library, dst, None)),
        }
        if bias is not None:
            memories[_ARG_BIAS] = keep("memory", _memory(library, bias_desc, self._bias))
        self._execution = _Execution(library, primitive, memories)
        self.x_shape, self.x_strides = tuple(x_shape), tuple(x_strides)

    def __call__(self, x, out) -> None:
        """`out`: the C-contiguous `[N, Ho, Wo, O]` (channel-last) array to write."""
        if tuple(x.shape) != self.x_shape or _plain_strides(x) != self.x_strides:
            raise ValueError(f"input {x.shape} / {x.strides} is not the one this was made for")
        if not out.flags.c_contiguous or out.dtype != np.float32:
            raise ValueError("the output must be a C-contiguous float32 [N, Ho, Wo, O] array")
        self._run(x, out)

    def _run(self, x, out) -> None:
        """`__call__` without the checks, for callers that matched `x` to this primitive (a
        single-sample MobileNetV2 makes 52 calls: microseconds count)."""
        self._execution.run({_ARG_SRC: x, _ARG_DST: out})


def _channel_last_strides(shape) -> tuple[int, ...]:
    """Element strides of an NCHW-shaped array in C-contiguous `[N, H, W, C]` memory."""
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


class TrainingConv2d:
    """One convolution's forward, input-gradient and weight-gradient primitives, for training:
    channel-last float32 images of one shape, a weight (`[O, C/groups, kh, kw]`) and bias that
    change every step (without a bias, the forward adds zeros). Each pass whose kernel is
    oneDNN's reference loop is None.

    oneDNN picks the weight layout of each pass; the weight is reordered into it on every call
    (a copy, small beside the convolution) and the weight gradient reordered back out.
    """

    def __init__(self, x_shape, weight_shape, geom: ConvGeometry) -> None:
        if not available():
            raise OneDNNError("oneDNN is not available")
        library = self._library = _library
        keep = self._owned = _Owned(self, library)
        lib = library.lib
        n, c, h, w = x_shape
        o = weight_shape[0]
        ho, wo = geom.out_size
        g = geom.groups
        weight_shape = (g, o // g, *weight_shape[1:]) if g > 1 else tuple(weight_shape)
        src = keep("desc", library.desc(x_shape, _channel_last_strides(x_shape)))
        dst_shape = (n, o, ho, wo)
        dst = keep("desc", library.desc(dst_shape, _channel_last_strides(dst_shape)))
        bias = keep("desc", library.desc((o,), (1,)))
        self._zeros = np.zeros(o, np.float32)
        plain = keep("desc", library.desc(weight_shape, _plain_strides_of(weight_shape)))
        chosen = keep("desc", library.desc(weight_shape))
        (top, bottom), (left, right) = geom.padding
        shape_args = (
            library.dims(*geom.stride),
            library.dims(*(d - 1 for d in geom.dilation)),
            library.dims(top, left),
            library.dims(bottom, right),
        )
        forward_pd = keep(
            "pd",
            library.make(
                "dnnl_convolution_forward_primitive_desc_create",
                library.engine, _FORWARD_TRAINING, _CONVOLUTION_DIRECT,
                src, chosen, bias, dst, *shape_args, None,
            ),
        )  # fmt: skip
        data_pd = keep(
            "pd",
            library.make(
                "dnnl_convolution_backward_data_primitive_desc_create",
                library.engine, _CONVOLUTION_DIRECT, src, chosen, dst, *shape_args,
                forward_pd, None,
            ),
        )  # fmt: skip
        weights_pd = keep(
            "pd",
            library.make(
                "dnnl_convolution_backward_weights_primitive_desc_create",
                library.engine, _CONVOLUTION_DIRECT, src, chosen, None, dst, *shape_args,
                forward_pd, None,
            ),
        )  # fmt: skip

        def layout(pd, query: int):
            """(oneDNN's weight desc for this pass, a buffer in it)."""
            desc = lib.dnnl_primitive_desc_query_md(pd, query, 0)  # owned by pd
            return desc, _aligned(lib.dnnl_memory_desc_get_size(desc) // 4)

        def reorder(source, target) -> _Execution:
            pd = keep(
                "pd",
                library.make(
                    "dnnl_reorder_primitive_desc_create",
                    source, library.engine, target, library.engine, None,
                ),
            )  # fmt: skip
            primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
            memories = {arg: keep("memory", _memory(library, d, None)) for arg, d in
                        ((_ARG_SRC, source), (_ARG_DST, target))}  # fmt: skip
            return _Execution(library, primitive, memories)

        def execution(pd, args: dict[int, Any]) -> _Execution | None:
            try:
                _implementation(library, pd, "convolution")
            except NoKernel:
                return None
            primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
            memories = {arg: keep("memory", _memory(library, d, None)) for arg, d in args.items()}
            return _Execution(library, primitive, memories)

        self.passes: dict[str, tuple | None] = {}
        for name, pd, query, args in (
            ("forward", forward_pd, _QUERY_WEIGHTS_MD,
             {_ARG_SRC: src, _ARG_BIAS: bias, _ARG_DST: dst}),
            ("input_grad", data_pd, _QUERY_WEIGHTS_MD, {_ARG_DIFF_SRC: src, _ARG_DIFF_DST: dst}),
            ("weight_grad", weights_pd, _QUERY_DIFF_WEIGHTS_MD,
             {_ARG_SRC: src, _ARG_DIFF_DST: dst}),
        ):  # fmt: skip
            desc, buffer = layout(pd, query)
            weight_arg = _ARG_DIFF_WEIGHTS if name == "weight_grad" else _ARG_WEIGHTS
            run = execution(pd, args | {weight_arg: desc})
            if run is None:
                self.passes[name] = None
                continue
            # the weight goes in (forward, input grad) or its gradient comes out (weight grad)
            move = reorder(desc, plain) if name == "weight_grad" else reorder(plain, desc)
            self.passes[name] = (run, move, buffer, weight_arg)
        self._lock = threading.Lock()  # a pass's weight buffer is shared by its callers

    def forward(self, x, weight, bias, out) -> None:
        """`out` (`[N, Ho, Wo, O]`) = conv(x, weight) + bias."""
        run, move, buffer, arg = self.passes["forward"]
        with self._lock:
            move.run({_ARG_SRC: weight, _ARG_DST: buffer})
            bias = self._zeros if bias is None else bias
            run.run({_ARG_SRC: x, arg: buffer, _ARG_BIAS: bias, _ARG_DST: out})

    def input_grad(self, gy, weight, gx) -> None:
        """`gx` (`[N, H, W, C]`) from `gy` (`[N, Ho, Wo, O]`)."""
        run, move, buffer, arg = self.passes["input_grad"]
        with self._lock:
            move.run({_ARG_SRC: weight, _ARG_DST: buffer})
            run.run({_ARG_DIFF_DST: gy, arg: buffer, _ARG_DIFF_SRC: gx})

    def weight_grad(self, x, gy, gw) -> None:
        """`gw` (C-contiguous `[O, C/groups, kh, kw]`) from x and gy."""
        run, move, buffer, arg = self.passes["weight_grad"]
        with self._lock:
            run.run({_ARG_SRC: x, _ARG_DIFF_DST: gy, arg: buffer})
            move.run({_ARG_SRC: buffer, _ARG_DST: gw})


class BatchNorm:
    """Training-mode batch norm of C-contiguous float32 `[rows, channels]` arrays (channel-last
    memory, rows = N*H*W), with per-channel scale and shift: forward and backward primitives."""

    def __init__(self, rows: int, channels: int, eps: float) -> None:
        if not available():
            raise OneDNNError("oneDNN is not available")
        library = _library
        keep = self._owned = _Owned(self, library)
        data = keep("desc", library.desc((rows, channels), (channels, 1)))
        per_channel = keep("desc", library.desc((channels,), (1,)))
        flags, eps = _USE_SCALE | _USE_SHIFT, ctypes.c_float(eps)
        forward_pd = keep(
            "pd",
            library.make(
                "dnnl_batch_normalization_forward_primitive_desc_create",
                library.engine, _FORWARD_TRAINING, data, data, eps, flags, None,
            ),
        )  # fmt: skip
        backward_pd = keep(
            "pd",
            library.make(
                "dnnl_batch_normalization_backward_primitive_desc_create",
                library.engine, _BACKWARD, data, data, data, eps, flags, forward_pd, None,
            ),
        )  # fmt: skip
        for pd in (forward_pd, backward_pd):
            _implementation(library, pd, "batch norm")

        def execution(pd, data_args, channel_args):
            primitive = keep("primitive", library.make("dnnl_primitive_create", pd))
            memories = {arg: keep("memory", _memory(library, data, None)) for arg in data_args}
            for arg in channel_args:
                memories[arg] = keep("memory", _memory(library, per_channel, None))
            return _Execution(library, primitive, memories)

        self._forward = execution(
            forward_pd, (_ARG_SRC, _ARG_DST), (_ARG_SCALE, _ARG_SHIFT, _ARG_MEAN, _ARG_VARIANCE)
        )
        self._backward = execution(
            backward_pd,
            (_ARG_SRC, _ARG_DIFF_DST, _ARG_DIFF_SRC),
            (_ARG_SCALE, _ARG_MEAN, _ARG_VARIANCE, _ARG_DIFF_SCALE, _ARG_DIFF_SHIFT),
        )

    def forward(self, x, scale, shift, out, mean, variance) -> None:
        """`out` = batch norm of `x`; writes the batch's `mean` and biased `variance`."""
        self._forward.run(
            {_ARG_SRC: x, _ARG_DST: out, _ARG_SCALE: scale, _ARG_SHIFT: shift}
            | {_ARG_MEAN: mean, _ARG_VARIANCE: variance}
        )

    def backward(self, x, grad_out, scale, mean, variance, grad_x, grad_scale, grad_shift):
        """`grad_x`, `grad_scale` and `grad_shift` from the forward's statistics."""
        self._backward.run(
            {_ARG_SRC: x, _ARG_DIFF_DST: grad_out, _ARG_SCALE: scale}
            | {_ARG_MEAN: mean, _ARG_VARIANCE: variance, _ARG_DIFF_SRC: grad_x}
            | {_ARG_DIFF_SCALE: grad_scale, _ARG_DIFF_SHIFT: grad_shift}
        )


class _Owned:
    """The oneDNN objects made for `owner`, destroyed with it, newest first. Called with
    `(kind, handle)`, it keeps the handle and returns it."""

    def __init__(self, owner, library: _Library) -> None:
        self.made: list[tuple[str, Any]] = []
        self.finalizer = weakref.finalize(owner, _destroy, library, self.made)

    def __call__(self, kind: str, handle):
        self.made.append((kind, handle))
        return handle


class _Execution:
    """A primitive with one memory object per argument; `run` points the memories of the
    arguments it is given at those arrays' data and runs it on this thread's stream."""

    def __init__(self, library: _Library, primitive, memories: dict[int, Any]) -> None:
        self._library, self._primitive, self._memories = library, primitive, memories
        self._args, self._count = _pack(list(memories.items())), len(memories)
        self._lock = threading.Lock()  # the memory objects are shared by callers

    def run(self, arrays: dict[int, np.ndarray]) -> None:
        library = self._library
        lib, check = library.lib, library.check
        with self._lock:
            for arg, array in arrays.items():
                status = lib.dnnl_memory_set_data_handle(self._memories[arg], array.ctypes.data)
                check(status, "dnnl_memory_set_data_handle")
            stream = library.stream()
            status = lib.dnnl_primitive_execute(self._primitive, stream, self._count, self._args)
            check(status, "dnnl_primitive_execute")
            check(lib.dnnl_stream_wait(stream), "dnnl_stream_wait")


def _memory(library: _Library, desc, array):
    """A memory object of `desc` over `array`'s data (None: no data yet)."""
    handle = ctypes.c_void_p(None if array is None else array.ctypes.data)
    return library.make("dnnl_memory_create", desc, library.engine, handle)


def _implementation(library: _Library, pd, what: str) -> str:
    """The name of the kernel oneDNN chose for `pd`; NoKernel where it is a reference loop
    (far slower than our NumPy kernels)."""
    name = ctypes.c_char_p()
    status = library.lib.dnnl_primitive_desc_query(pd, _QUERY_IMPL_INFO, 0, ctypes.byref(name))
    library.check(status, "dnnl_primitive_desc_query")
    implementation = (name.value or b"").decode()
    if implementation.startswith("ref"):
        raise NoKernel(f"oneDNN has only its reference kernel for this {what}")
    return implementation


def _pack(args: list[tuple[int, Any]]):
    """`dnnl_exec_arg_t` array of `(argument, memory)` pairs (kept alive by the caller)."""
    return (_Arg * len(args))(*[_Arg(arg, memory) for arg, memory in args])


def _aligned(count: int) -> np.ndarray:
    """An uninitialised float32 array of `count` values starting on a 64-byte boundary."""
    buffer = np.empty(count + 16, np.float32)
    start = (-buffer.ctypes.data % 64) // 4
    return buffer[start : start + count]


def _destroy(library: _Library, made: list) -> None:
    """Free oneDNN objects, newest first."""
    destroy = {
        "post_ops": library.lib.dnnl_post_ops_destroy,
        "attr": library.lib.dnnl_primitive_attr_destroy,
        "desc": library.lib.dnnl_memory_desc_destroy,
        "pd": library.lib.dnnl_primitive_desc_destroy,
        "primitive": library.lib.dnnl_primitive_destroy,
        "memory": library.lib.dnnl_memory_destroy,
    }
    for kind, handle in reversed(made):
        destroy[kind](handle)


def conv2d(
    x, weight, bias, geom: ConvGeometry, out, cache: dict[Any, Conv2d | None], post_op=None
) -> bool:
    """`out` (C-contiguous `[N, Ho, Wo, O]`) = post_op(conv(x, weight) + bias) through oneDNN;
    False (nothing written) where oneDNN has no optimized kernel for it. What was found for
    each input shape and strides is kept in `cache`."""
    if not x.transpose(0, 2, 3, 1).flags.c_contiguous:
        # oneDNN's fast kernels read channel-last memory (for an NCHW input and a channel-last
        # output it has only its reference loops: 45 ms for CIFAR ResNet-18's stem at batch 1).
        # A copy costs little beside the convolution (ResNet-18's 224x224 stem: 3.0 -> 0.6 ms).
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    key = (x.shape, x.strides)
    if key not in cache:
        try:
            cache[key] = Conv2d(x.shape, _plain_strides(x), weight, bias, geom, post_op)
        except NoKernel:
            cache[key] = None
    primitive = cache[key]
    if primitive is None:
        return False
    if not out.flags.c_contiguous:
        raise ValueError("the output must be a C-contiguous float32 [N, Ho, Wo, O] array")
    primitive._run(x, out)  # x has the shape and strides of its key
    return True


class _Recent:
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


_batch_norms = _Recent(64)


def _batch_norm(x, eps: float) -> BatchNorm | None:
    """The `BatchNorm` for C-contiguous float32 `[rows, channels]` arrays like `x`, or None
    where oneDNN does not take them (not loaded, other arrays, no optimized kernel)."""
    if not (
        isinstance(x, np.ndarray)
        and x.dtype == np.float32
        and x.ndim == 2
        and x.size > 0
        and x.flags.c_contiguous
        and available()
    ):
        return None
    return _batch_norms.get((*x.shape, eps), lambda: BatchNorm(*x.shape, eps))


def _training_cores() -> int:
    """The OpenMP team for a training op on this thread: its cores, one inside shared work."""
    return 1 if threads.in_parallel_work() else threads.workers()


def batch_norm_forward(x, scale, shift, eps: float):
    """`(out, mean, variance)` of training-mode batch norm of a channel-last `[rows, channels]`
    array with float32 `[channels]` scale and shift, or None where oneDNN does not take it."""
    primitive = _batch_norm(x, eps)
    if primitive is None:
        return None
    channels = x.shape[1]
    out = np.empty_like(x)
    mean, variance = np.empty(channels, np.float32), np.empty(channels, np.float32)
    with cores(_training_cores()):
        primitive.forward(x, scale, shift, out, mean, variance)
    return out, mean, variance


def batch_norm_backward(x, grad_out, scale, mean, variance, eps: float, grad_x):
    """Writes `grad_x` of `batch_norm_forward`; returns `(grad_scale, grad_shift)`, or None
    (nothing written) where oneDNN does not take it. Arrays are laid out like `x`."""
    primitive = _batch_norm(x, eps)
    if primitive is None or not (grad_out.flags.c_contiguous and grad_x.flags.c_contiguous):
        return None
    channels = x.shape[1]
    grad_scale, grad_shift = np.empty(channels, np.float32), np.empty(channels, np.float32)
    with cores(_training_cores()):
        primitive.backward(x, grad_out, scale, mean, variance, grad_x, grad_scale, grad_shift)
    return grad_scale, grad_shift


# Training's convolutions, by input shape, weight shape and geometry (each holds its weight in
# three oneDNN layouts).
_training_convs = _Recent(128)


def _float32_images(*arrays) -> bool:
    """Whether oneDNN may take these arrays: loaded, NumPy float32, 4-D, not empty."""
    return (
        all(
            isinstance(a, np.ndarray) and a.dtype == np.float32 and a.ndim == 4 and a.size > 0
            for a in arrays
        )
        and available()
    )


def _training_conv(x_shape, weight_shape, geom: ConvGeometry, step: str):
    """The `TrainingConv2d` for these shapes, or None where oneDNN has no optimized kernel for
    this `step` of it."""
    key = (tuple(x_shape), tuple(weight_shape), geom.stride, geom.padding, geom.dilation)
    key += (geom.groups,)
    found = _training_convs.get(key, lambda: TrainingConv2d(x_shape, weight_shape, geom))
    return found if found is not None and found.passes[step] is not None else None


def _channel_last(array):
    """An NCHW-shaped array in C-contiguous channel-last memory (copied if it is not)."""
    if array.transpose(0, 2, 3, 1).flags.c_contiguous:
        return array
    return np.ascontiguousarray(array.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


def conv_forward(x, weight, bias, geom: ConvGeometry):
    """C-contiguous `[N, Ho, Wo, O]` conv(x, weight) + bias for training, where x is `[N, C, H,
    W]` and the weight and bias are this step's; None where oneDNN does not take it."""
    if not _float32_images(x, weight) or (bias is not None and bias.dtype != np.float32):
        return None
    conv = _training_conv(x.shape, weight.shape, geom, "forward")
    if conv is None:
        return None
    n, o, (ho, wo) = x.shape[0], weight.shape[0], geom.out_size
    out = np.empty((n, ho, wo, o), np.float32)
    bias = None if bias is None else np.ascontiguousarray(bias)
    with cores(_training_cores()):
        conv.forward(_channel_last(x), np.ascontiguousarray(weight), bias, out)
    return out


def conv_input_grad(gy, weight, geom: ConvGeometry):
    """C-contiguous `[N, H, W, C]` gradient of `conv_forward` in x from `gy` (`[N, O, Ho, Wo]`),
    or None where oneDNN does not take it."""
    if not _float32_images(gy, weight):
        return None
    n, c = gy.shape[0], weight.shape[1] * geom.groups
    conv = _training_conv((n, c, *geom.in_size), weight.shape, geom, "input_grad")
    if conv is None:
        return None
    gx = np.empty((n, *geom.in_size, c), np.float32)
    with cores(_training_cores()):
        conv.input_grad(_channel_last(gy), np.ascontiguousarray(weight), gx)
    return gx


def conv_weight_grad(x, gy, geom: ConvGeometry, weight_shape):
    """The `[O, C/groups, kh, kw]` gradient of `conv_forward` in its weight, or None where
    oneDNN does not take it."""
    if not _float32_images(x, gy):
        return None
    conv = _training_conv(x.shape, weight_shape, geom, "weight_grad")
    if conv is None:
        return None
    gw = np.empty(weight_shape, np.float32)
    with cores(_training_cores()):
        conv.weight_grad(_channel_last(x), _channel_last(gy), gw)
    return gw
