"""Splitting elementwise array work over the CPU cores.

NumPy's elementwise loops run on one core, while BLAS uses all of them. NumPy releases the GIL
inside ufunc loops, so cutting a large array into row blocks and running them on a few threads
speeds up work such as batch norm and depthwise convolution. Two costs bound it: every ufunc
call takes the GIL back, and handing work to another thread costs about 0.1 ms
(`SHARE_MIN_ELEMENTS`), so only large arrays, in few long calls per thread, are worth sharing.
GPU arrays never come here: CuPy kernels are already parallel.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from framework.backends.cpu import blas_threads
from framework.backends.cpu.tuning import TUNING

CPU_WORKERS = max(1, min(len(os.sched_getaffinity(0)), TUNING.max_cpu_workers))

_pool: ThreadPoolExecutor | None = None


class _Inside(threading.local):
    busy = False  # this thread is running its own share of a parallel_for
    cap: int | None = None  # at most this many cores for work this thread shares out


_inside = _Inside()


def workers() -> int:
    """How many cores work started on this thread may use (`CPU_WORKERS`, or `at_most`'s cap)."""
    cap = _inside.cap
    return CPU_WORKERS if cap is None else max(1, min(CPU_WORKERS, cap))


class at_most:  # noqa: N801 - used as a context manager, like `no_grad`
    """Context: work this thread shares out uses at most `cores` cores (1: all of it runs here).

    A predictor set to one thread per request runs its whole graph under `at_most(1)`, so that
    kernels borrowed from training (grouped convolutions, pooling) do not reach for the other
    cores that concurrent requests are using. The cap is per thread.
    """

    def __init__(self, cores: int) -> None:
        self.cores = cores

    def __enter__(self) -> None:
        self.previous = _inside.cap
        _inside.cap = self.cores

    def __exit__(self, *exc: object) -> None:
        _inside.cap = self.previous


def _reset_after_fork() -> None:
    # A forked child inherits the executor object but none of its threads.
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_reset_after_fork)


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(CPU_WORKERS - 1, thread_name_prefix="framework-nn")
    return _pool


def split_ranges(n: int, parts: int) -> list[tuple[int, int]]:
    """`[0, n)` cut into at most `parts` contiguous, nearly equal, non-empty ranges."""
    parts = max(1, min(parts, n))
    step, extra = divmod(n, parts)
    ranges, start = [], 0
    for i in range(parts):
        stop = start + step + (1 if i < extra else 0)
        ranges.append((start, stop))
        start = stop
    return ranges


def parallel_for(work: Callable[[int, int], object], n: int, min_items: int = 1) -> list:
    """Run `work(start, stop)` over `[0, n)` split across the cores; returns results in order.

    `min_items` is the smallest range worth a thread of its own; below it everything runs here.
    """
    parts = min(workers(), n // max(1, min_items))
    # Nested calls (a convolution pads with parallel_assign inside its own parallel work) run
    # inline: a pool worker waiting on the pool deadlocks once every worker waits, and the
    # calling thread, while it runs its own share, would only queue behind the busy workers.
    if parts <= 1 or in_parallel_work():
        return [work(0, n)]
    ranges = split_ranges(n, parts)
    pool = _executor()
    futures: list[Future] = [pool.submit(work, a, b) for a, b in ranges[1:]]
    _inside.busy = True
    try:
        first = work(*ranges[0])
    except BaseException:
        for future in futures:  # the others' work ends before the error leaves
            future.exception()
        raise
    finally:
        _inside.busy = False
    return [first] + [f.result() for f in futures]


def in_parallel_work() -> bool:
    """Whether this thread is running a share of a `parallel_for` (nested calls run inline)."""
    return _inside.busy or threading.current_thread().name.startswith("framework-nn")


def parallel_gemms(xp, work: Callable[[int, int], object], n: int) -> list | None:
    """`parallel_for(work, n)` with BLAS held to one thread, or None where that cannot be done.

    For work made of many GEMM calls (convolution chunks): each core runs whole calls on its
    own, instead of a multi-threaded BLAS splitting and synchronising every small call. None
    (the caller runs the work itself, BLAS as it is) on GPU arrays, on one core, for a single
    item, inside other parallel work, and without threadpoolctl to switch the BLAS threads.
    """
    if (
        n < 2
        or workers() == 1
        or xp.__name__ != "numpy"
        or in_parallel_work()
        or not blas_threads.available()
    ):
        return None
    with blas_threads.single_threaded_blas():
        return parallel_for(work, n)


# Handing work to the pool and collecting it costs about as much as one core's pass over half
# a million float32 values (mostly the thread wake-ups). Elementwise work is shared out only
# from this many elements on; below, one core is faster (the measurements:
# `benchmarks/README.md`, "Recorded: CPU runtime thresholds").
SHARE_MIN_ELEMENTS = 1 << 20


def blockwise(xp, compute: Callable, out, *arrays) -> None:
    """`compute(*arrays, out=out)` for an elementwise `compute` on arrays of `out`'s shape, cut
    into blocks along the leading axis and shared over the cores when large (NumPy runs
    elementwise loops on one core)."""
    if (
        xp.__name__ != "numpy"
        or out.size < SHARE_MIN_ELEMENTS
        or workers() == 1
        or out.shape[0] < 2
    ):
        compute(*arrays, out=out)
        return

    def work(start: int, stop: int) -> None:
        compute(*(array[start:stop] for array in arrays), out=out[start:stop])

    parallel_for(work, out.shape[0])


def parallel_assign(xp, target, source) -> None:
    """`target[...] = source` (same shapes), split over the cores when it is large.

    Strided copies (im2col, padding, layout changes) run on one core in NumPy; cutting them
    along the leading axis (or the next one, for a single image) uses all of them.
    """
    if xp.__name__ != "numpy" or target.size < SHARE_MIN_ELEMENTS or workers() == 1:
        target[...] = source
        return
    axis = 0 if target.shape[0] >= workers() or target.ndim == 1 else 1

    def work(start: int, stop: int) -> None:
        index = (slice(None),) * axis + (slice(start, stop),)
        target[index] = source[index]

    parallel_for(work, target.shape[axis])
