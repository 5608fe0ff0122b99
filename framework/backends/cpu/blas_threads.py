"""Who uses the CPU cores during convolutions and predictor runs: our workers, not BLAS.

Convolutions (training kernels and the predictor) cut their work into cache-sized chunks and
give whole chunks to the cores (`framework.backends.cpu.threads.parallel_for`), so every GEMM call
runs on one core with its operands in that core's cache. A multi-threaded BLAS would instead
split every small GEMM call across the cores and synchronise them each time: slower on a
quiet machine, and much slower on a busy one, where the partner thread is often not
scheduled. So while such work is in progress, the BLAS library is switched to one thread
(process-wide: BLAS libraries have only a global setting) and switched back when the last
concurrent user ends. A switch costs a few microseconds. Work too small to cut into chunks
(a predictor run on a single sample) borrows BLAS's threads back with `lent_threads`.

This needs `threadpoolctl` to reach the BLAS library; without it `available()` is False and
callers leave BLAS as it is and run their chunks one after another.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_active = 0
_saved: list[tuple[Any, int]] = []
_lent = False  # a lent_threads context has given BLAS its threads back for a while
_libraries: list[Any] | None = None


def _blas_libraries() -> list[Any]:
    global _libraries
    if _libraries is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - threadpoolctl comes with the dev tools
            _libraries = []
        else:
            found = ThreadpoolController().select(user_api="blas").lib_controllers
            # MKL loaded sequential by `gemm` has no threads to switch.
            _libraries = [c for c in found if getattr(c, "threading_layer", "") != "sequential"]
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
                _limit_saved(1)
            elif _lent:  # a concurrent user borrowed the threads: this one needs one thread
                _take_back()
            _active += 1

    def __exit__(self, *exc: object) -> None:
        global _active, _lent
        with _lock:
            _active -= 1
            if _active == 0:
                _lent = False
                _limit_saved(None)
                _saved.clear()


class lent_threads:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context inside a single-threaded region: BLAS may use up to `threads` threads again.

    For a product too small to be worth cutting into chunks for our workers (a hand-off costs
    about 0.1 ms here), one multi-threaded GEMM is faster: OpenBLAS's threads spin between
    calls, ours sleep. Nothing changes when another single-threaded context is open at the same
    time (its chunks need one BLAS thread each), and one opening meanwhile takes the threads
    back.
    """

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.switched = False

    def __enter__(self) -> None:
        global _lent
        with _lock:
            self.switched = _active == 1 and not _lent and self.threads > 1
            if self.switched:
                _limit_saved(self.threads)
                _lent = True

    def __exit__(self, *exc: object) -> None:
        with _lock:
            if self.switched and _lent:
                _take_back()


def lent() -> bool:
    """Whether a `lent_threads` context has BLAS running its threads now."""
    return _lent


def single_threaded() -> bool:
    """Whether BLAS is held to one thread now (a `single_threaded_blas` context is open and
    no threads are lent)."""
    return _active > 0 and not _lent


def _limit_saved(limit: int | None) -> None:
    """Each library's thread count as saved on entry, at most `limit` (None: as saved)."""
    for lib, saved in _saved:
        if saved != 1:
            lib.set_num_threads(saved if limit is None else min(saved, limit))


def _take_back() -> None:
    """Back to one BLAS thread after `lent_threads` (the caller holds the lock)."""
    global _lent
    _lent = False
    _limit_saved(1)


def set_blas_threads(threads: int) -> None:
    """Set the BLAS thread count for the process (outside single-threaded contexts)."""
    for lib in _blas_libraries():
        lib.set_num_threads(max(1, int(threads)))
