"""oneDNN's shared library: finding and loading it, its C signatures, the calling thread's
OpenMP team (`cores`), and the handles the primitives are built from (`Owned`, `Execution`).

The library comes from the `onednn-cpu-gomp` wheel (oneDNN 3.2, GNU OpenMP runtime, CPU only;
it needs the system's `libgomp.so.1`). Without it, or with `SAMPAN_ONEDNN=0` (or `off`),
`available()` is False and callers keep their NumPy kernels. It is used only inside `cores(n)`,
which also sets the calling thread's OpenMP team size. Arrays stay NumPy arrays: every call
hands oneDNN their data pointers (`Execution`); a stream per thread runs the calls.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
import warnings
import weakref
from typing import Any

import numpy as np

from framework.backends.cpu import openmp, switches
from framework.backends.cpu.onednn import build as builds

# oneDNN C API constants (dnnl_types.h, v3)
_F32 = 3
_FORMAT_ANY = 1
_ENGINE_CPU = 1
_STREAM_IN_ORDER = 1
FORWARD_TRAINING, FORWARD_INFERENCE, BACKWARD = 64, 96, 128
CONVOLUTION_DIRECT = 1
QUERY_IMPL_INFO = 8
QUERY_WEIGHTS_MD, QUERY_DIFF_WEIGHTS_MD = 131, 132
ARG_SRC, ARG_DST, ARG_WEIGHTS, ARG_BIAS = 1, 17, 33, 41
ARG_MEAN, ARG_VARIANCE, ARG_SCALE, ARG_SHIFT = 49, 50, 51, 52
ARG_DIFF_SRC, ARG_DIFF_DST, ARG_DIFF_WEIGHTS = 129, 145, 161
ARG_DIFF_SCALE, ARG_DIFF_SHIFT = 255, 256
USE_SCALE, USE_SHIFT = 0x2, 0x4  # dnnl_normalization_flags_t
# Activations oneDNN applies to a convolution's output while it is still in registers
# (post-ops): dnnl_eltwise_relu (alpha: negative slope) and dnnl_eltwise_clip (alpha, beta:
# the bounds).
ELTWISE_RELU, ELTWISE_CLIP = 0x20, 0x2E


class OneDNNError(RuntimeError):
    """A oneDNN call returned an error status."""


class NoKernel(OneDNNError):
    """oneDNN has no optimized kernel for this convolution."""


class _Arg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class Library:
    """The loaded library, its CPU engine and one stream per calling thread. `openmp` is the
    GNU OpenMP runtime oneDNN was linked against, from the same link-map namespace; `build`
    which oneDNN it is (`build.Build`: version, runtime, file)."""

    def __init__(self, lib, openmp_runtime, build: builds.Build) -> None:
        self.lib = lib
        self.build = build
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


_library: Library | None = None
_loaded = False
_refused: str | None = None  # why a libdnnl that loaded was not used (`refusal`)
_load_lock = threading.Lock()
_given = threading.local()  # .cores: how many cores this thread's oneDNN calls may use


class cores:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: this thread's oneDNN calls may run an OpenMP team of `count` threads.

    Outside it oneDNN is not used (`given()` is 0). The caller keeps other thread pools quiet
    meanwhile: OpenBLAS's threads spinning after a multi-threaded GEMM and an OpenMP team
    fighting over the same cores slow both down many times (`benchmarks/onednn_conv.py`).
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
    barriers for threads the scheduler has put aside (`benchmarks/predictor.py`)."""
    if _library is not None and _library.openmp is not None:
        _library.openmp.omp_set_num_threads(max(1, min(count, _openmp_limit())))


def _openmp_limit() -> int:
    """The team size `OMP_NUM_THREADS` allows (its first entry; unset: no limit)."""
    try:
        return int(os.environ.get("OMP_NUM_THREADS", "").split(",")[0])
    except ValueError:
        return 1 << 16


def _load() -> Library | None:
    global _refused
    if not switches.onednn_enabled():
        return None
    folder = os.path.join(sys.prefix, "lib")  # where the onednn-cpu-gomp wheel puts it
    paths = [os.path.join(folder, "libdnnl.so.3")]
    found = ctypes.util.find_library("dnnl")
    paths += [found] if found else []
    for path in paths:
        try:
            return Library(*_open(path))
        except builds.Refused as refused:
            _refused = str(refused)
            warnings.warn(f"oneDNN is not used: {refused}", RuntimeWarning, stacklevel=3)
        except (OSError, AttributeError, OneDNNError):  # missing libgomp, old version, no CPU
            continue
    return None


def _open(path: str) -> tuple[Any, Any, builds.Build]:
    """(oneDNN, the GNU OpenMP runtime it was linked against or None, which build it is);
    `build.Refused` where the file that answered is not one the binding may use.

    oneDNN is found by its name, `libdnnl.so.3`, by libraries loaded after it: PaddlePaddle,
    which ships a newer oneDNN of that name, fails to import in a process that loaded ours
    first (a missing symbol). Import it before. (Loading ours into a link-map namespace of its
    own with glibc's `dlmopen` avoided that, but OpenSSL then crashed in `hashlib`.) The other
    way round, a bare `libdnnl.so.3` would be Paddle's copy: `build.check` refuses it.
    """
    before = builds.mapped_copies()
    with openmp.spin_limit():  # oneDNN loads the runtime, if nothing has yet
        lib = ctypes.CDLL(path)
    build = builds.check(lib, before)
    return lib, openmp.runtime(), build


def refusal() -> str | None:
    """Why a oneDNN library that loaded is not used (another package's copy, an unsupported
    version or runtime), or None; asks `available()` first."""
    available()
    return _refused


def available() -> bool:
    """Whether oneDNN is loaded (loading it on first ask) and may run here: a child forked
    after its parent ran an OpenMP team keeps to the NumPy kernels (see `openmp`)."""
    global _library, _loaded
    if not _loaded:
        with _load_lock:
            if not _loaded:
                _library, _loaded = _load(), True
    return _library is not None and openmp.teams_usable()


def loaded() -> Library:
    """The loaded library, for making primitives; OneDNNError where it is not available."""
    if not available() or _library is None:
        raise OneDNNError("oneDNN is not available")
    return _library


class Owned:
    """The oneDNN objects made for `owner`, destroyed with it, newest first. Called with
    `(kind, handle)`, it keeps the handle and returns it."""

    def __init__(self, owner, library: Library) -> None:
        self.made: list[tuple[str, Any]] = []
        self.finalizer = weakref.finalize(owner, _destroy, library, self.made)

    def __call__(self, kind: str, handle):
        self.made.append((kind, handle))
        return handle


class Execution:
    """A primitive with one memory object per argument; `run` points the memories of the
    arguments it is given at those arrays' data and runs it on this thread's stream."""

    def __init__(self, library: Library, primitive, memories: dict[int, Any]) -> None:
        self._library, self._primitive, self._memories = library, primitive, memories
        self._args, self._count = pack(list(memories.items())), len(memories)
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


def memory(library: Library, desc, array):
    """A memory object of `desc` over `array`'s data (None: no data yet)."""
    handle = ctypes.c_void_p(None if array is None else array.ctypes.data)
    return library.make("dnnl_memory_create", desc, library.engine, handle)


def implementation(library: Library, pd, what: str) -> str:
    """The name of the kernel oneDNN chose for `pd`; NoKernel where it is a reference loop
    (far slower than our NumPy kernels)."""
    name = ctypes.c_char_p()
    status = library.lib.dnnl_primitive_desc_query(pd, QUERY_IMPL_INFO, 0, ctypes.byref(name))
    library.check(status, "dnnl_primitive_desc_query")
    chosen = (name.value or b"").decode()
    if chosen.startswith("ref"):
        raise NoKernel(f"oneDNN has only its reference kernel for this {what}")
    return chosen


def pack(args: list[tuple[int, Any]]):
    """`dnnl_exec_arg_t` array of `(argument, memory)` pairs (kept alive by the caller)."""
    return (_Arg * len(args))(*[_Arg(arg, memory) for arg, memory in args])


def aligned(count: int) -> np.ndarray:
    """An uninitialised float32 array of `count` values starting on a 64-byte boundary."""
    buffer = np.empty(count + 16, np.float32)
    start = (-buffer.ctypes.data % 64) // 4
    return buffer[start : start + count]


def _destroy(library: Library, made: list) -> None:
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
