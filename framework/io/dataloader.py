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
    """Iterate over a dataset in mini-batches of Tensors, as `paddle.io.DataLoader`.

    Args:
        dataset (Dataset|IterableDataset): where the samples come from.
        feed_list (list, optional): accepted for Paddle compatibility. Default: None.
        places (Place|list, optional): where the batch Tensors go; None is the current device.
            Default: None.
        return_list (bool, optional): accepted for Paddle compatibility; in dynamic mode (the
            only mode here) every batch is a (nested) list or dict of Tensors. Default: True.
        batch_sampler (BatchSampler, optional): yields lists of indices; excludes
            `batch_size`, `shuffle` and `drop_last`. Default: None.
        batch_size (int|None, optional): samples per batch; None returns samples one by one,
            uncollated. Default: 1.
        shuffle (bool, optional): visit a map-style dataset in random order (seeded by
            `framework.seed`). Default: False.
        drop_last (bool, optional): drop the last batch when it is smaller than `batch_size`.
            Default: False.
        collate_fn (callable, optional): makes a batch from a list of samples; None is
            `default_collate_fn`. Default: None.
        num_workers (int, optional): 0 loads in the main process; N > 0 starts N worker
            processes. Default: 0.
        use_buffer_reader (bool, optional): accepted for Paddle compatibility. Default: True.
        reader_buffer_size (int, optional): accepted for Paddle compatibility. With
            `num_workers > 0` workers always prefetch; with 0, loading is synchronous so that
            random augmentation stays repeatable. Default: 2.
        prefetch_factor (int, optional): batches in flight per worker. Default: 2.
        use_shared_memory (bool, optional): pass large batches from workers through shared
            memory. Default: True.
        timeout (int, optional): seconds to wait for a batch from the workers before raising;
            0 is no limit (a dead worker is detected either way). Default: 0.
        worker_init_fn (callable, optional): called as `worker_init_fn(worker_id)` in each
            worker, after seeding. Default: None.
        persistent_workers (bool, optional): keep the worker processes alive between epochs.
            Default: False.

    Returns:
        DataLoader: an iterable; each batch stacks the samples' fields into Tensors with a
        leading batch axis (`[batch_size, ...]`, the fields' dtypes).

    A sample that raises in a worker raises in the main process, with the same exception
    type, the sample index and the worker's traceback in the message.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import DataLoader, TensorDataset
        >>> images = paddle.arange(10, dtype='float32').reshape([5, 2])
        >>> labels = paddle.to_tensor([0, 1, 0, 1, 1])
        >>> loader = DataLoader(TensorDataset([images, labels]), batch_size=2, drop_last=True)
        >>> len(loader)
        2
        >>> for x, y in loader:
        ...     print(x.shape, y.tolist())
        paddle.Size([2, 2]) [0, 1]
        paddle.Size([2, 2]) [0, 1]
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
