"""Single-threaded GEMMs through Intel MKL when the `mkl` wheel is installed; NumPy otherwise.

Convolutions (training kernels and the predictor) cut their work into cache-sized chunks and run
each chunk's GEMM on one core (see `blas_threads`). NumPy's OpenBLAS runs its SkylakeX kernels
on the Sapphire Rapids CPUs we deploy on; MKL's sequential sgemm is 1.2-1.3x faster on our conv
shapes, one thread each (measured: 3136x576 @ 576x64 124 -> 156 GFLOP/s, 256x4608 @ 4608x512
135 -> 167, 4096x1152 @ 1152x128 145 -> 173). Arrays stay NumPy arrays; only the product
goes through `cblas_?gemm`.

MKL is loaded with its sequential threading layer, so it brings no OpenMP runtime into the
process, and it is used only where BLAS is meant to run one thread anyway: inside
`blas_threads.single_threaded_blas` (not while threads are lent to a single sample), where
OpenBLAS keeps its own multi-threaded role everywhere else. `SAMPAN_MKL=0` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from typing import Any

import numpy as np

from framework.ops.nn import blas_threads

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_SEQUENTIAL = 1  # MKL_THREADING_SEQUENTIAL
# Below this many multiply-adds the ~5 us of a ctypes call costs more than MKL saves.
MIN_MACS = 1 << 21
_INT_MAX = 2**31 - 1

_library: Any = None
_loaded = False


def _load():
    """`{dtype: cblas_?gemm}` from MKL's runtime library, or None when it is not usable."""
    if os.environ.get("SAMPAN_MKL", "1") == "0":
        return None
    folder = os.path.join(sys.prefix, "lib")  # where the mkl wheel puts its libraries
    names = ("libmkl_rt.so.3", "libmkl_rt.so.2", "libmkl_rt.so")
    paths = [os.path.join(folder, n) for n in names if os.path.exists(os.path.join(folder, n))]
    found = ctypes.util.find_library("mkl_rt")
    paths += [found] if found else []
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        # Returns the layer in force: another one means MKL was set up with threads already.
        if lib.MKL_Set_Threading_Layer(_SEQUENTIAL) != _SEQUENTIAL:
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
        return functions
    return None


def available() -> bool:
    """Whether MKL's sequential GEMM is loaded (loading it on first ask)."""
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


def _gemm_call(a, b, out):
    """(cblas_?gemm, its arguments) computing the 2-D `out = a @ b` in place, or None."""
    gemm = _library.get(a.dtype) if a.ndim == b.ndim == out.ndim == 2 else None
    if gemm is None or not (a.dtype == b.dtype == out.dtype):
        return None
    m, k = a.shape
    n = b.shape[1]
    if b.shape[0] != k or out.shape != (m, n) or m * n * k < MIN_MACS:
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
