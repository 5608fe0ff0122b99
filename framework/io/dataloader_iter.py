"""The iterators behind `DataLoader`: one that loads in the main process, one that drives
worker processes.

Multi-process design: one index queue per worker and one shared result queue. Batches are
dealt to workers round-robin, `prefetch_factor` per worker in flight, and handed out in
sampler order whatever order they finish in, so the output equals that of `num_workers=0`
for a deterministic dataset. While it waits, the main process checks every
`STATUS_CHECK_INTERVAL` seconds that its workers are alive, so a killed worker is an error,
not a hang. Workers, queues and shared-memory files are released when the epoch ends, when
the iterator is dropped (a `break`), on an error, and at interpreter exit.
"""

from __future__ import annotations

import atexit
import itertools
import multiprocessing
import os
import pickle
import queue
import signal
import time
import weakref
from typing import TYPE_CHECKING, Any

from framework.core.random import get_rng
from framework.io.batch_transfer import (
    discard_packet,
    remove_shared_memory,
    restore_batch,
    shared_memory_available,
    shared_memory_prefix,
    unpack_arrays,
)
from framework.io.collate import arrays_to_tensors, collate_arrays
from framework.io.fetcher import make_fetcher
from framework.io.worker import (
    RESUME,
    STATUS_CHECK_INTERVAL,
    IterationEnd,
    WorkerFailure,
    WorkerProgress,
    worker_loop,
    worker_seed,
)

if TYPE_CHECKING:
    from framework.io.dataloader import DataLoader

_WORKER_JOIN_TIMEOUT = 2.0
_live_iterators: weakref.WeakSet = weakref.WeakSet()


def multiprocessing_context() -> Any:
    """'fork' where the platform has it (fast start, no pickling of the dataset), else
    'spawn' (the dataset, collate_fn and worker_init_fn must then be picklable)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _collate_for(loader: DataLoader) -> Any:
    if loader.auto_collate_batch:
        return loader.collate_fn or collate_arrays
    return loader.collate_fn


def _index_sampler(loader: DataLoader) -> Any:
    if loader.auto_collate_batch:
        return loader.batch_sampler
    if loader.is_iterable:
        return itertools.repeat(None)
    return range(len(loader.dataset))


class SingleProcessIter:
    """Loads each batch when asked, in the calling thread. (A background thread would draw
    random augmentations from the same generator as the training step, in an order that
    varies from run to run.)"""

    def __init__(self, loader: DataLoader) -> None:
        self._place = loader.place
        self._fetcher = make_fetcher(
            loader.dataset,
            loader.is_iterable,
            loader.auto_collate_batch,
            _collate_for(loader),
            loader.drop_last,
        )
        self._sampler_iter = iter(_index_sampler(loader))
        self._length = len(loader) if not loader.is_iterable else None

    def __iter__(self) -> SingleProcessIter:
        return self

    def __len__(self) -> int:
        if self._length is None:
            raise TypeError("length of an IterableDataset loader is not supported")
        return self._length

    def __next__(self) -> Any:
        indices = next(self._sampler_iter)
        try:
            batch = self._fetcher.fetch(indices)
        except StopIteration:
            raise
        except Exception as error:
            index = self._fetcher.failed_index
            if index is not None:
                error.add_note(f"(raised by the DataLoader while loading sample index {index})")
                try:
                    error.sample_index = index
                except AttributeError:  # an exception type without instance attributes
                    pass
            raise
        return arrays_to_tensors(batch, self._place)


class MultiProcessIter:
    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        self._place = loader.place
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor * loader.num_workers
        self._timeout = loader.timeout
        self._persistent = loader.persistent_workers
        self._is_iterable = loader.is_iterable
        self._epoch = 0
        self._is_shut_down = False
        self._workers: list[Any] = []
        self._index_queues: list[Any] = []
        self._results: dict[int, Any] = {}
        self._shm_prefix = None
        if loader.use_shared_memory and shared_memory_available():
            self._shm_prefix = shared_memory_prefix(f"{id(self):x}")
        ctx = multiprocessing_context()
        self._result_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._progress = WorkerProgress(ctx, self._num_workers)
        _live_iterators.add(self)
        try:
            for _ in range(self._num_workers):
                index_queue = ctx.Queue()
                index_queue.cancel_join_thread()
                self._index_queues.append(index_queue)
            # Deal the first tasks before drawing the workers' seed, so that a shuffling
            # sampler draws the same order as with num_workers=0 under the same seed.
            self._start_epoch()
            base_seed = int(get_rng().integers(0, 1 << 62))
            for worker_id in range(self._num_workers):
                self._start_worker(ctx, worker_id, base_seed)
        except BaseException:
            self._shutdown()
            raise

    def _start_worker(self, ctx: Any, worker_id: int, base_seed: int) -> None:
        loader = self._loader
        process = ctx.Process(
            target=worker_loop,
            args=(
                loader.dataset,
                self._is_iterable,
                self._index_queues[worker_id],
                self._result_queue,
                self._done_event,
                loader.auto_collate_batch,
                _collate_for(loader),
                loader.drop_last,
                loader.worker_init_fn,
                worker_id,
                self._num_workers,
                worker_seed(base_seed, worker_id),
                self._shm_prefix,
                os.getpid(),
                self._progress,
            ),
            daemon=True,
        )
        process.start()
        self._workers.append(process)

    def _start_epoch(self) -> None:
        self._sampler_iter = iter(_index_sampler(self._loader))
        self._send_idx = 0
        self._rcvd_idx = 0
        self._tasks: dict[int, tuple[int, Any]] = {}
        self._active = [True] * self._num_workers
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        for _ in range(self._prefetch):
            self._put_task()

    def _reset(self) -> None:
        """Persistent workers: start the next epoch with the same processes."""
        self._epoch += 1
        self._discard_results()
        if self._is_iterable:
            for index_queue in self._index_queues:
                index_queue.put((self._epoch, -1, RESUME))
            acknowledged = 0
            while acknowledged < self._num_workers:
                _, payload = self._get_result()
                acknowledged += payload == RESUME
        self._start_epoch()

    def __iter__(self) -> MultiProcessIter:
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def _put_task(self) -> None:
        if not any(self._active):
            return
        try:
            indices = next(self._sampler_iter)
        except StopIteration:
            return
        worker_id = next(self._worker_cycle)
        while not self._active[worker_id]:
            worker_id = next(self._worker_cycle)
        self._index_queues[worker_id].put((self._epoch, self._send_idx, indices))
        self._tasks[self._send_idx] = (worker_id, indices)
        self._send_idx += 1

    def __next__(self) -> Any:
        if self._is_shut_down:
            raise StopIteration
        while True:
            # Tasks dealt to a worker whose iterable dataset ran out will never be answered.
            while self._rcvd_idx < self._send_idx:
                worker_id, _ = self._tasks[self._rcvd_idx]
                if self._rcvd_idx in self._results or self._active[worker_id]:
                    break
                del self._tasks[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                self._end_epoch()
                raise StopIteration
            if self._rcvd_idx in self._results:
                payload = self._results.pop(self._rcvd_idx)
                del self._tasks[self._rcvd_idx]
                self._rcvd_idx += 1
                self._put_task()
                return self._to_batch(payload)
            batch_index, payload = self._get_result()
            if isinstance(payload, IterationEnd):
                self._active[payload.worker_id] = False
            else:
                self._results[batch_index] = payload

    def _to_batch(self, payload: Any) -> Any:
        if isinstance(payload, WorkerFailure):
            self._shutdown(graceful=False)
            payload.reraise()
        structure_bytes, packet = payload
        arrays = unpack_arrays(packet)
        return restore_batch(pickle.loads(structure_bytes), arrays, self._place)

    def _get_result(self) -> tuple[int, Any]:
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait = STATUS_CHECK_INTERVAL
            if deadline is not None:
                wait = max(0.0, min(wait, deadline - time.monotonic()))
            try:
                epoch, batch_index, payload = self._result_queue.get(timeout=wait)
            except queue.Empty:
                self._check_workers()
                if deadline is not None and time.monotonic() >= deadline:
                    self._shutdown(graceful=False)
                    raise RuntimeError(
                        f"DataLoader timed out after {self._timeout} s waiting for batch "
                        f"{self._rcvd_idx} from its workers"
                    ) from None
                continue
            except (OSError, EOFError) as error:
                self._check_workers()
                self._shutdown(graceful=False)
                raise RuntimeError(f"DataLoader lost its result queue: {error}") from error
            if epoch != self._epoch:
                _discard_payload(payload)
                continue
            return batch_index, payload

    def _check_workers(self) -> None:
        for worker_id, process in enumerate(self._workers):
            if not process.is_alive():
                where = self._what_worker_was_loading(worker_id)
                self._shutdown(graceful=False)
                raise RuntimeError(
                    f"DataLoader worker {worker_id} (pid {process.pid}) exited unexpectedly "
                    f"{_describe_exit(process.exitcode)}{where}"
                )

    def _what_worker_was_loading(self, worker_id: int) -> str:
        batch, sample = self._progress.loading(worker_id)
        if batch >= 0 and batch in self._tasks:
            indices = self._tasks[batch][1]
            if sample >= 0:
                return f" while loading sample index {sample} (batch {batch}, indices {indices})"
            return f" while collating or sending batch {batch} (sample indices {indices})"
        pending = [
            batch
            for batch, (owner, _) in sorted(self._tasks.items())
            if owner == worker_id and batch not in self._results
        ]
        return f"; its unfinished batches: {pending}" if pending else ""

    def _end_epoch(self) -> None:
        if not self._persistent:
            self._shutdown()

    def _discard_results(self) -> None:
        for payload in self._results.values():
            _discard_payload(payload)
        self._results.clear()

    def _shutdown(self, graceful: bool = True) -> None:
        """Stop the workers (waiting a little for them to finish the batch in hand unless
        this is an error), close the queues and free shared memory."""
        if self._is_shut_down:
            return
        self._is_shut_down = True
        _live_iterators.discard(self)
        try:
            self._done_event.set()
            for index_queue in self._index_queues:
                index_queue.put(None)
            deadline = time.monotonic() + (_WORKER_JOIN_TIMEOUT if graceful else 0.2)
            for process in self._workers:
                process.join(max(0.0, deadline - time.monotonic()))
            for process in self._workers:
                if process.is_alive():
                    process.terminate()
                    process.join(1.0)
        finally:
            for index_queue in self._index_queues:
                index_queue.cancel_join_thread()
                index_queue.close()
            self._drain_result_queue()
            self._discard_results()
            if self._shm_prefix is not None:
                remove_shared_memory(self._shm_prefix)

    def _drain_result_queue(self) -> None:
        while True:
            try:
                _, _, payload = self._result_queue.get_nowait()
            except Exception:
                break
            _discard_payload(payload)
        self._result_queue.cancel_join_thread()
        self._result_queue.close()

    def __del__(self) -> None:
        try:
            self._shutdown()
        except Exception:
            pass


def _discard_payload(payload: Any) -> None:
    if isinstance(payload, tuple):
        discard_packet(payload[1])


def _describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "(still running)"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (the system may have run out of memory)" if name == "SIGKILL" else ""
        return f"(killed by {name}){hint}"
    return f"with exit code {exitcode}"


@atexit.register
def _shutdown_live_iterators() -> None:
    for iterator in list(_live_iterators):
        iterator._shutdown()
