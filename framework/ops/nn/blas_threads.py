"""Who uses the CPU cores during convolutions and predictor runs: our workers, not BLAS.

Convolutions (training kernels and the predictor) cut their work into cache-sized chunks and
give whole chunks to the cores (`framework.ops.nn.threads.parallel_for`), so every GEMM call
runs on one core with its operands in that core's cache. A multi-threaded BLAS would instead
split every small GEMM call across the cores and synchronise them each time: slower on a
quiet machine, and much slower on a busy one, where the partner thread is often not
scheduled. So while such work is in progress, the BLAS library is switched to one thread
(process-wide: BLAS libraries have only a global setting) and switched back when the last
concurrent user ends. A switch costs a few microseconds.

This needs `threadpoolctl` to reach the BLAS library; without it `available()` is False and
callers leave BLAS as it is and run their chunks one after another.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_active = 0
_saved: list[tuple[Any, int]] = []
_libraries: list[Any] | None = None


def _blas_libraries() -> list[Any]:
    global _libraries
    if _libraries is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - threadpoolctl comes with the dev tools
            _libraries = []
        else:
            _libraries = list(ThreadpoolController().select(user_api="blas").lib_controllers)
    return _libraries


def available() -> bool:
    """Whether BLAS threads can be switched (so callers may use their own workers)."""
    return bool(_blas_libraries())


class single_threaded_blas:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: BLAS runs one thread while any such context is open in the process.

    The previous thread counts come back when the last open context exits, also when it exits
    by an exception.
    """

    def __enter__(self) -> None:
        global _active
        with _lock:
            if _active == 0:
                _saved[:] = [(lib, lib.get_num_threads()) for lib in _blas_libraries()]
                for lib, threads in _saved:
                    if threads != 1:
                        lib.set_num_threads(1)
            _active += 1

    def __exit__(self, *exc: object) -> None:
        global _active
        with _lock:
            _active -= 1
            if _active == 0:
                for lib, threads in _saved:
                    if threads != 1:
                        lib.set_num_threads(threads)
                _saved.clear()


def set_blas_threads(threads: int) -> None:
    """Set the BLAS thread count for the process (outside single-threaded contexts)."""
    for lib in _blas_libraries():
        lib.set_num_threads(max(1, int(threads)))
