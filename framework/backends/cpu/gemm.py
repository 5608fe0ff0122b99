"""GEMMs through Intel MKL when the `mkl` wheel is installed; NumPy otherwise.

Convolutions (training kernels and the predictor) cut their work into cache-sized chunks and run
each chunk's GEMM on one core (see `blas_threads`). On the Intel CPUs we deploy on, NumPy's
OpenBLAS runs older kernels, and MKL's sgemm is faster on our conv and linear shapes, on one
thread and on a team (the measurements: `benchmarks/README.md`, `gemm.py` and
`linear_products.py`). Arrays stay NumPy arrays; only the product goes through `cblas_?gemm`.

MKL runs on GNU OpenMP, the runtime oneDNN's teams use too (`openmp`), held to one thread
by default: `matmul` uses it where BLAS is meant to run one thread anyway, inside
`blas_threads.single_threaded_blas` (not while threads are lent to a single sample);
`threaded_matmul` gives one call a team. Without GNU OpenMP, MKL is loaded sequential and
`threaded_matmul` declines. `SAMPAN_MKL=0` (or `off`) turns MKL off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from typing import Any

import numpy as np

from framework.backends.cpu import blas_threads, openmp, switches
from framework.backends.cpu.tuning import TUNING

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_SEQUENTIAL, _GNU_OPENMP = 1, 3  # MKL_THREADING_SEQUENTIAL, MKL_THREADING_GNU
_INT_MAX = 2**31 - 1

_library: Any = None
_loaded = False
# MKL_Set_Num_Threads_Local (the calling thread's team size for its next calls), or None
# where MKL runs sequential.
_set_local_threads: Any = None
_vector_routines: dict[tuple[str, np.dtype], Any] = {}  # MKL's scal and axpy, when threaded


def _load():
    """`{dtype: cblas_?gemm}` from MKL's runtime library, or None when it is not usable."""
    global _set_local_threads
    if not switches.mkl_enabled():
        return None
    folder = os.path.join(sys.prefix, "lib")  # where the mkl wheel puts its libraries
    names = ("libmkl_rt.so.3", "libmkl_rt.so.2", "libmkl_rt.so")
    paths = [os.path.join(folder, n) for n in names if os.path.exists(os.path.join(folder, n))]
    found = ctypes.util.find_library("mkl_rt")
    paths += [found] if found else []
    # MKL exits the process when its threading layer cannot load the runtime: check first.
    layer = _GNU_OPENMP if openmp.runtime() is not None else _SEQUENTIAL
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        # Returns the layer in force: another one means MKL was set up by someone else.
        if lib.MKL_Set_Threading_Layer(layer) != layer:
            return None
        functions = {}
        for dtype, name, scalar in (
            (np.dtype(np.float32), "cblas_sgemm", ctypes.c_float),
            (np.dtype(np.float64), "cblas_dgemm", ctypes.c_double),
        ):
            function = getattr(lib, name)
            function.restype = None
            i, p = ctypes.c_int, ctypes.c_void_p
            function.argtypes = [i, i, i, i, i, i, scalar, p, i, p, i, scalar, p, i]
            functions[dtype] = function
        if layer == _GNU_OPENMP:
            lib.MKL_Set_Num_Threads.argtypes = [ctypes.c_int]
            lib.MKL_Set_Num_Threads(1)  # one thread unless a call asks for its team
            _set_local_threads = lib.MKL_Set_Num_Threads_Local
            _set_local_threads.argtypes, _set_local_threads.restype = [ctypes.c_int], ctypes.c_int
            _vector_routines.update(_vector_functions(lib))
        return functions
    return None


def _vector_functions(lib) -> dict[tuple[str, np.dtype], Any]:
    """MKL's `cblas_?scal` (n, alpha, x, incx) and `cblas_?axpy` (n, alpha, x, incx, y, incy)."""
    routines = {}
    i, p = ctypes.c_int, ctypes.c_void_p
    for dtype, letter, scalar in (
        (np.dtype(np.float32), "s", ctypes.c_float),
        (np.dtype(np.float64), "d", ctypes.c_double),
    ):
        scal, axpy = getattr(lib, f"cblas_{letter}scal"), getattr(lib, f"cblas_{letter}axpy")
        scal.argtypes, scal.restype = [i, scalar, p, i], None
        axpy.argtypes, axpy.restype = [i, scalar, p, i, p, i], None
        routines[("scal", dtype)], routines[("axpy", dtype)] = scal, axpy
    return routines


def threaded() -> bool:
    """Whether MKL runs teams on GNU OpenMP here (loading it on first ask); not in a child
    forked after its parent ran a team (see `openmp`), where MKL keeps to one thread."""
    return available() and _set_local_threads is not None and openmp.teams_usable()


def vector_routines() -> dict[tuple[str, np.dtype], Any]:
    """`{(routine, dtype): function}` for MKL's scal and axpy when `threaded()`, else empty."""
    return _vector_routines if threaded() else {}


class team:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: this thread's MKL calls run a team of `threads` threads (as they were after)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def __enter__(self) -> None:
        self.previous = None
        if threaded():
            openmp.team_started()
            self.previous = _set_local_threads(self.threads)

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None and _set_local_threads is not None:
            _set_local_threads(self.previous)


def available() -> bool:
    """Whether MKL's GEMM is loaded (loading it on first ask)."""
    global _library, _loaded
    if not _loaded:
        _library, _loaded = _load(), True
    return _library is not None


def matmul(xp, a, b, out) -> None:
    """`out[...] = a @ b`, like `xp.matmul(a, b, out=out)`, for 2-D operands or stacks of them
    (`out` 3-D, either operand 2-D or 3-D). Through MKL when it is loaded, the arrays are NumPy
    float32 or float64 that BLAS can read in place, and BLAS runs one thread now; NumPy
    otherwise (a stack as one NumPy call, when its matrices are too small for MKL)."""
    if xp is not np or not blas_threads.single_threaded() or not available():
        xp.matmul(a, b, out=out)
        return
    if out.ndim == 2:
        pairs = [(a, b, out)]
    elif out.ndim == 3 and a.ndim in (2, 3) and b.ndim in (2, 3):
        pairs = [
            (a[k] if a.ndim == 3 else a, b[k] if b.ndim == 3 else b, out[k])
            for k in range(out.shape[0])
        ]
    else:
        pairs = []
    calls = [_gemm_call(*pair) for pair in pairs]
    if not calls or None in calls:
        np.matmul(a, b, out=out)
        return
    for gemm, arguments in calls:
        gemm(*arguments)


def threaded_matmul(a, b, out, threads: int) -> bool:
    """`out[...] = a @ b` for 2-D NumPy operands through MKL on a team of `threads` threads;
    False (nothing written) where MKL cannot: not loaded, sequential, other arrays, or too
    small a product."""
    if not threaded():
        return False
    call = _gemm_call(a, b, out) if isinstance(a, np.ndarray) and out.ndim == 2 else None
    if call is None:
        return False
    gemm, arguments = call
    with team(threads):
        gemm(*arguments)
    return True


def _gemm_call(a, b, out):
    """(cblas_?gemm, its arguments) computing the 2-D `out = a @ b` in place, or None."""
    gemm = _library.get(a.dtype) if a.ndim == b.ndim == out.ndim == 2 else None
    if gemm is None or not (a.dtype == b.dtype == out.dtype):
        return None
    m, k = a.shape
    n = b.shape[1]
    if b.shape[0] != k or out.shape != (m, n) or m * n * k < TUNING.mkl_min_macs:
        return None
    if np.may_share_memory(out, a) or np.may_share_memory(out, b):
        return None
    layouts = _layout(a), _layout(b), _layout(out)
    if None in layouts or layouts[2][0] != _NO_TRANS:
        return None
    (trans_a, lda), (trans_b, ldb), (_, ldc) = layouts
    return gemm, (
        _ROW_MAJOR, trans_a, trans_b, m, n, k, 1.0,
        a.ctypes.data, lda, b.ctypes.data, ldb, 0.0, out.ctypes.data, ldc,
    )  # fmt: skip


def _layout(a) -> tuple[int, int] | None:
    """(CBLAS transpose flag, leading dimension) under which BLAS reads the 2-D row-major
    `a` in place, or None (a copy would be needed, or a dimension is 1 or too large)."""
    rows, cols = a.shape
    size = a.itemsize
    row_step, col_step = a.strides
    if rows < 2 or cols < 2 or rows > _INT_MAX or cols > _INT_MAX:
        return None
    if col_step == size and row_step % size == 0 and cols <= row_step // size <= _INT_MAX:
        return _NO_TRANS, row_step // size
    if row_step == size and col_step % size == 0 and rows <= col_step // size <= _INT_MAX:
        return _TRANS, col_step // size
    return None
