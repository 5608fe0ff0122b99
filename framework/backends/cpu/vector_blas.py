"""In-place vector updates (`x *= a`, `y += a * x`) through BLAS: MKL's or NumPy's own.

A Momentum update written with NumPy ufuncs is four passes per block (scale the velocity, add
the gradient, multiply into a temporary, subtract); as BLAS calls it is three (scal, axpy,
axpy) with no temporary, since axpy multiplies and adds in one pass (NumPy has no such ufunc),
and BLAS splits a long vector over its threads, so each core's cache holds its half
(the measurements: `benchmarks/README.md`, "Recorded: vector BLAS").

Where MKL runs on GNU OpenMP (`gemm.threaded()`), the routines are MKL's, run on a team of
the training thread's cores: the same runtime as the GEMMs and oneDNN's kernels, so no
OpenBLAS threads are left spinning to fight their next team. Otherwise the routines are looked
up in the BLAS library that NumPy loaded (found by `threadpoolctl`), under the symbol names of
the builds NumPy ships. Where none is found, or for arrays BLAS cannot take (not float32/float64,
not contiguous, short), the same update runs through NumPy. `SAMPAN_VECTOR_BLAS=0` (or `off`)
turns the BLAS route off.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from framework.backends.cpu import gemm, routing, switches, threads
from framework.backends.cpu.tuning import TUNING

# Vectors shorter than `TUNING.vector_blas_min_size` go through NumPy, whose ufuncs then run
# in cache.
_MAX_SIZE = 2**31 - 1  # MKL's LP64 routines take 32-bit lengths

_routines: dict[tuple[str, np.dtype], Any] | None = None


def _symbol_candidates(name: str) -> list[tuple[str, type]]:
    """`(symbol, integer type)` of `cblas_<name>` in the BLAS builds NumPy ships: scipy-openblas
    (NumPy 2, 64-bit integers, prefixed and suffixed), openblas64_ (NumPy 1) and plain CBLAS."""
    return [
        (f"scipy_cblas_{name}64_", ctypes.c_int64),
        (f"cblas_{name}64_", ctypes.c_int64),
        (f"scipy_cblas_{name}", ctypes.c_int),
        (f"cblas_{name}", ctypes.c_int),
    ]


def _load() -> dict[tuple[str, np.dtype], Any]:
    """`{(routine, dtype): function}` for scal and axpy, or an empty dict."""
    if not switches.vector_blas_enabled():
        return {}
    if gemm.vector_routines():
        return gemm.vector_routines()
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - threadpoolctl comes with the framework
        return {}
    controllers = ThreadpoolController().select(internal_api="openblas").lib_controllers
    # NumPy's own library first (SciPy or PyTorch may have loaded OpenBLAS builds of their own).
    controllers.sort(key=lambda c: "numpy" not in c.filepath)
    routines: dict[tuple[str, np.dtype], Any] = {}
    for controller in controllers:
        try:
            library = ctypes.CDLL(controller.filepath)
        except OSError:
            continue
        for dtype, letter, scalar in (
            (np.dtype(np.float32), "s", ctypes.c_float),
            (np.dtype(np.float64), "d", ctypes.c_double),
        ):
            for routine in ("scal", "axpy"):
                for symbol, integer in _symbol_candidates(letter + routine):
                    function = getattr(library, symbol, None)
                    if function is None:
                        continue
                    pointer = ctypes.c_void_p
                    if routine == "scal":  # (n, alpha, x, incx)
                        function.argtypes = [integer, scalar, pointer, integer]
                    else:  # (n, alpha, x, incx, y, incy)
                        function.argtypes = [integer, scalar, pointer, integer, pointer, integer]
                    function.restype = None
                    routines[(routine, dtype)] = function
                    break
        if len(routines) == 4:
            return routines
        routines.clear()
    return routines


def available() -> bool:
    """Whether the BLAS routines were found (looking them up on first ask)."""
    global _routines
    if _routines is None:
        _routines = _load()
    return bool(_routines)


def usable(*arrays) -> bool:
    """Whether updates among these arrays go through BLAS: NumPy float32 or float64 arrays of
    one dtype and size, C-contiguous, at least `TUNING.vector_blas_min_size` long, with the
    routines found."""
    first = arrays[0]
    return (
        available()
        and TUNING.vector_blas_min_size <= first.size <= _MAX_SIZE
        and all(
            isinstance(a, np.ndarray)
            and a.dtype == first.dtype
            and a.flags.c_contiguous
            and a.size == first.size
            for a in arrays
        )
        and ("axpy", first.dtype) in _routines
    )


def _routine(name: str, *arrays):
    """The BLAS routine for these arrays, or None where NumPy should do the update."""
    return _routines[(name, arrays[0].dtype)] if usable(*arrays) else None


def scale_(x, alpha: float) -> None:
    """`x *= alpha` in place."""
    function = _routine("scal", x)
    if function is None:
        x *= x.dtype.type(alpha)
        return
    with _team():
        function(x.size, alpha, x.ctypes.data, 1)


def axpy_(alpha: float, x, y) -> None:
    """`y += alpha * x` in place (`x` and `y` the same shape; they may not overlap)."""
    function = _routine("axpy", x, y)
    if function is None:
        if alpha == 1.0:
            y += x
        else:
            y += x * y.dtype.type(alpha)
        return
    with _team():
        function(x.size, alpha, x.ctypes.data, 1, y.ctypes.data, 1)


def _team():
    """MKL's team over the calling thread's cores (nothing changes for OpenBLAS's routines)."""
    return gemm.team(routing.team_cores(threads.in_parallel_work(), threads.workers()))
