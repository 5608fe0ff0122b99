"""`DataLoader`: batches from a dataset, optionally loaded by worker processes."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from framework.core import backend
from framework.io.batch_sampler import BatchSampler, _InfiniteIterableSampler
from framework.io.dataloader_iter import MultiProcessIter, SingleProcessIter
from framework.io.dataset import Dataset, IterableDataset


class DataLoader:
    """Iterate over a dataset in mini-batches of Tensors.

    Args:
        dataset: a map-style `Dataset` or an `IterableDataset`.
        feed_list, return_list: accepted for Paddle compatibility; in dynamic mode (the only
            mode here) every batch is returned as a (nested) list/dict of Tensors.
        places: where the batch Tensors go (default: the current device).
        batch_sampler: yields lists of indices; excludes batch_size/shuffle/drop_last.
        batch_size: samples per batch; None returns samples one by one, uncollated.
        shuffle: visit a map-style dataset in random order (seeded by `framework.seed`).
        drop_last: drop the last batch when it is smaller than batch_size.
        collate_fn: makes a batch from a list of samples (default `default_collate_fn`).
        num_workers: 0 loads in the main process; N > 0 starts N worker processes.
        use_buffer_reader, reader_buffer_size: accepted for Paddle compatibility. With
            num_workers > 0, workers always prefetch; with 0, loading is synchronous so that
            random augmentation stays repeatable.
        prefetch_factor: batches in flight per worker.
        use_shared_memory: pass large batches from workers through shared memory.
        timeout: seconds to wait for a batch from the workers before raising (0: no limit;
            a dead worker is detected either way).
        worker_init_fn: called as `worker_init_fn(worker_id)` in each worker, after seeding.
        persistent_workers: keep the worker processes alive between epochs.

    A sample that raises in a worker raises in the main process, with the same exception
    type, the sample index and the worker's traceback in the message.

        loader = DataLoader(ds, batch_size=32, shuffle=True, num_workers=2)
        for images, labels in loader:
            ...
    """

    def __init__(
        self,
        dataset: Dataset,
        feed_list: Sequence[Any] | None = None,
        places: Any = None,
        return_list: bool = True,
        batch_sampler: Any = None,
        batch_size: int | None = 1,
        shuffle: bool = False,
        drop_last: bool = False,
        collate_fn: Callable[[list], Any] | None = None,
        num_workers: int = 0,
        use_buffer_reader: bool = True,
        reader_buffer_size: int = 2,
        prefetch_factor: int = 2,
        use_shared_memory: bool = True,
        timeout: int = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        persistent_workers: bool = False,
    ) -> None:
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"num_workers should be a non-negative integer, got {num_workers}")
        if prefetch_factor <= 0:
            raise ValueError("prefetch_factor should be a positive value")
        if timeout < 0:
            raise ValueError("timeout should be a non-negative value")
        self.dataset = dataset
        self.feed_list = feed_list
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.num_workers = num_workers
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = prefetch_factor
        self.use_shared_memory = use_shared_memory and num_workers > 0
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers and num_workers > 0
        self.places = places
        self.place = _first_place(places)
        self.is_iterable = isinstance(dataset, IterableDataset)
        if self.is_iterable:
            if shuffle:
                raise ValueError(f"IterableDataset not support shuffle, but got shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("IterableDataset expect unspecified batch_sampler")

        if batch_sampler is not None:
            if batch_size != 1 or shuffle or drop_last:
                raise ValueError(
                    "batch_size/shuffle/drop_last should not be set when batch_sampler is given"
                )
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            if batch_size <= 0:
                raise ValueError("batch_size should be None or a positive value")
            self.batch_size = batch_size
            if self.is_iterable:
                self.batch_sampler = _InfiniteIterableSampler(dataset, batch_size)
            else:
                self.batch_sampler = BatchSampler(
                    dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
                )
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self._iterator: MultiProcessIter | None = None

    def __len__(self) -> int:
        if self.is_iterable:
            raise ValueError("length of IterableDataset not supported")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self) -> SingleProcessIter | MultiProcessIter:
        if self.num_workers == 0:
            return SingleProcessIter(self)
        if self.persistent_workers:
            if self._iterator is None or self._iterator._is_shut_down:
                self._iterator = MultiProcessIter(self)
            else:
                self._iterator._reset()
            return self._iterator
        return MultiProcessIter(self)

    def __call__(self) -> SingleProcessIter | MultiProcessIter:
        return self.__iter__()


def _first_place(places: Any) -> backend.Place | None:
    if places is None:
        return None
    if isinstance(places, list | tuple):
        if len(places) > 1:
            warnings.warn(
                "DataLoader places a batch on one device; using the first of the given places",
                stacklevel=3,
            )
        places = places[0]
    return backend._parse_device(places)
