"""The DataLoader worker process: its loop, its seeding, `get_worker_info()`, and how its
errors travel to the main process."""

from __future__ import annotations

import functools
import os
import pickle
import queue
import random
import sys
import traceback
from typing import Any

import numpy as np

from framework.core import backend
from framework.core import random as framework_random
from framework.io.batch_transfer import DeferredStack, SharedMemoryWriter, flatten_batch
from framework.io.collate import collate_arrays
from framework.io.fetcher import make_fetcher

# How often a waiting worker checks that its parent is still alive, and how often the main
# process checks its workers while it waits for a batch.
STATUS_CHECK_INTERVAL = 1.0


class WorkerInfo:
    """What a DataLoader worker knows about itself, as `paddle.io.get_worker_info()` returns.

    What a worker knows about itself: `id`, `num_workers`, `seed` (this worker's seed,
    already applied to the framework, NumPy and `random` generators) and `dataset` (its copy).

    Args:
        id (int): this worker's index, in `[0, num_workers)`.
        num_workers (int): the DataLoader's worker count.
        seed (int): this worker's seed.
        dataset (Dataset): this worker's copy of the dataset.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import WorkerInfo
        >>> info = WorkerInfo(id=1, num_workers=4, seed=7, dataset=None)
        >>> info.id, info.num_workers
        (1, 4)
    """

    __slots__ = ("id", "num_workers", "seed", "dataset")

    def __init__(self, id: int, num_workers: int, seed: int, dataset: Any) -> None:  # noqa: A002
        self.id = id
        self.num_workers = num_workers
        self.seed = seed
        self.dataset = dataset

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The current DataLoader worker's `WorkerInfo`, as `paddle.io.get_worker_info`.

    Inside a DataLoader worker process, its `WorkerInfo`; in the main process, None.

    Use it in an `IterableDataset.__iter__` to give each worker its own shard, as the
    example does.

    Returns:
        WorkerInfo|None: the worker's `WorkerInfo`, or None in the main process.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import get_worker_info
        >>> print(get_worker_info())
        None
        >>> class Shard(paddle.io.IterableDataset):
        ...     def __iter__(self):
        ...         info = get_worker_info()
        ...         start, step = (info.id, info.num_workers) if info else (0, 1)
        ...         return iter(range(start, 6, step))
        ...
        >>> sorted(int(b) for b in paddle.io.DataLoader(Shard(), batch_size=None, num_workers=2))
        [0, 1, 2, 3, 4, 5]
    """
    return _worker_info


def worker_seed(base_seed: int, worker_id: int) -> int:
    return (base_seed + worker_id) % (1 << 63)


def seed_worker(seed: int) -> None:
    """Seed every generator a transform may draw from, so augmentation is repeatable."""
    framework_random.seed(seed)
    random.seed(seed)
    np.random.seed(np.random.SeedSequence(seed).generate_state(4))


class WorkerFailure:
    """An exception raised in a worker, carried to the main process and raised there with the
    sample index and the worker's traceback text."""

    def __init__(
        self, worker_id: int, batch_index: int, indices: Any, sample_index: Any, during: str
    ) -> None:
        exc_type, exc, tb = sys.exc_info()
        self.worker_id = worker_id
        self.batch_index = batch_index
        self.indices = indices
        self.sample_index = sample_index
        self.during = during
        self.exc_type = _picklable_exception_type(exc_type)
        self.exc_type_name = exc_type.__name__
        self.traceback_text = "".join(traceback.format_exception(exc_type, exc, tb))

    def describe(self) -> str:
        if self.during == "init":
            return "while running worker_init_fn / starting up"
        if self.sample_index is not None:
            return f"on sample index {self.sample_index} (batch {self.batch_index})"
        if self.during == "transfer":
            return f"while sending batch {self.batch_index} (sample indices {self.indices})"
        return f"while collating batch {self.batch_index} (sample indices {self.indices})"

    def reraise(self) -> None:
        message = (
            f"DataLoader worker {self.worker_id} raised {self.exc_type_name} "
            f"{self.describe()}.\nOriginal traceback in the worker process:\n"
            f"{self.traceback_text}"
        )
        if self.exc_type is KeyError:
            message = _PlainMessage(message)
        try:
            error = self.exc_type(message)
        except Exception:
            error = RuntimeError(message)
        try:
            error.sample_index = self.sample_index
        except AttributeError:  # an exception type without instance attributes
            pass
        raise error


class _PlainMessage(str):
    """KeyError shows repr(message); this keeps the traceback text readable."""

    def __repr__(self) -> str:
        return str(self)


def _picklable_exception_type(exc_type: type) -> type:
    for candidate in exc_type.__mro__:
        try:
            if pickle.loads(pickle.dumps(candidate)) is candidate:
                return candidate
        except Exception:
            continue
    return RuntimeError


class IterationEnd:
    """A worker's iterable dataset is exhausted."""

    __slots__ = ("worker_id",)

    def __init__(self, worker_id: int) -> None:
        self.worker_id = worker_id

    def __reduce__(self):
        return (IterationEnd, (self.worker_id,))


RESUME = "resume"


class WorkerProgress:
    """Per worker, the batch and sample it is loading now (-1: none), in shared memory, so
    the main process can say what a worker that died was doing."""

    def __init__(self, ctx: Any, num_workers: int) -> None:
        self.array = ctx.RawArray("q", [-1] * (2 * num_workers))

    def start_batch(self, worker_id: int, batch_index: int) -> None:
        self.array[2 * worker_id] = batch_index
        self.array[2 * worker_id + 1] = -1

    def sample_hook(self, worker_id: int) -> Any:
        array, slot = self.array, 2 * worker_id + 1

        def mark(index: Any) -> None:
            array[slot] = int(index) if isinstance(index, int | np.integer) else -1

        return mark

    def loading(self, worker_id: int) -> tuple[int, int]:
        return self.array[2 * worker_id], self.array[2 * worker_id + 1]


def worker_loop(
    dataset: Any,
    is_iterable: bool,
    index_queue: Any,
    result_queue: Any,
    done_event: Any,
    auto_collate: bool,
    collate_fn: Any,
    drop_last: bool,
    init_fn: Any,
    worker_id: int,
    num_workers: int,
    seed: int,
    shm_prefix: str | None,
    parent_pid: int,
    progress: WorkerProgress,
) -> None:
    """Serve tasks `(epoch, batch_index, indices)` until told to stop (None), the main
    process sets `done_event`, or the parent dies. Each answer is
    `(epoch, batch_index, payload)`: packed arrays plus the pickled structure, a
    `WorkerFailure`, or `IterationEnd`."""
    global _worker_info
    if collate_fn is collate_arrays and shm_prefix is not None:
        # the default collate stacks each field straight into the shared-memory file
        collate_fn = functools.partial(collate_arrays, stack=DeferredStack)
    try:
        backend.set_device("cpu")  # workers never touch the GPU
        seed_worker(seed)
        _worker_info = WorkerInfo(worker_id, num_workers, seed, dataset)
        writer = SharedMemoryWriter(None if shm_prefix is None else f"{shm_prefix}w{worker_id}-")
        init_failure = None
        fetcher = None
        hook = progress.sample_hook(worker_id)
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(dataset, is_iterable, auto_collate, collate_fn, drop_last, hook)
        except Exception:
            init_failure = WorkerFailure(worker_id, -1, None, None, "init")
        drained = False
        while True:
            try:
                task = index_queue.get(timeout=STATUS_CHECK_INTERVAL)
            except queue.Empty:
                if os.getppid() != parent_pid:
                    break
                continue
            if task is None:
                break
            if done_event.is_set():
                continue
            epoch, batch_index, indices = task
            if indices == RESUME:
                # persistent workers: a new epoch restarts the iterable dataset's iterator
                if init_failure is None:
                    fetcher = make_fetcher(
                        dataset, is_iterable, auto_collate, collate_fn, drop_last, hook
                    )
                drained = False
                result_queue.put((epoch, batch_index, RESUME))
                continue
            if drained:
                continue
            if init_failure is not None:
                result_queue.put((epoch, batch_index, init_failure))
                continue
            progress.start_batch(worker_id, batch_index)
            payload = _run_task(fetcher, writer, worker_id, batch_index, indices)
            result_queue.put((epoch, batch_index, payload))
            progress.start_batch(worker_id, -1)
            drained = isinstance(payload, IterationEnd)
            del payload
    except KeyboardInterrupt:
        pass  # the main process handles Ctrl-C
    if done_event.is_set():
        result_queue.cancel_join_thread()
    result_queue.close()


def _run_task(
    fetcher: Any, writer: SharedMemoryWriter, worker_id: int, batch_index: int, indices: Any
) -> Any:
    try:
        batch = fetcher.fetch(indices)
    except StopIteration:
        return IterationEnd(worker_id)
    except Exception:
        during = "sample" if fetcher.failed_index is not None else "collate"
        return WorkerFailure(worker_id, batch_index, indices, fetcher.failed_index, during)
    try:
        structure, arrays = flatten_batch(batch)
        return (pickle.dumps(structure, protocol=pickle.HIGHEST_PROTOCOL), writer.pack(arrays))
    except Exception:
        return WorkerFailure(worker_id, batch_index, indices, None, "transfer")
