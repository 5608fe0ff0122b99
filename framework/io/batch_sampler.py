"""Batch samplers: group indices into mini-batches, on one process or split across ranks."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sized

import numpy as np

from framework.io.dataset import IterableDataset
from framework.io.sampler import RandomSampler, Sampler, SequenceSampler


class BatchSampler(Sampler[list[int]]):
    """Batches of indices, as `paddle.io.BatchSampler`.

    Yield lists of `batch_size` indices, from `dataset` (sequential or shuffled) or from
    a given `sampler`.

    Args:
        dataset (Dataset|Sized, optional): sampled in order, or shuffled; excludes `sampler`.
            Default: None.
        sampler (Sampler|Iterable, optional): the indices batched; excludes `dataset`. Default:
            None.
        shuffle (bool, optional): shuffle `dataset`'s indices. Default: False.
        batch_size (int, optional): indices per batch. Default: 1.
        drop_last (bool, optional): drop a last, smaller batch. Default: False.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import BatchSampler
        >>> list(BatchSampler(dataset=range(5), batch_size=2))
        [[0, 1], [2, 3], [4]]
        >>> list(BatchSampler(sampler=range(5), batch_size=2, drop_last=True))
        [[0, 1], [2, 3]]
    """

    def __init__(
        self,
        dataset: Sized | None = None,
        sampler: Sampler | Iterable[int] | None = None,
        shuffle: bool = False,
        batch_size: int = 1,
        drop_last: bool = False,
    ) -> None:
        if dataset is None:
            if sampler is None:
                raise ValueError("either dataset or sampler should be set")
            if shuffle:
                raise ValueError("shuffle should be False when sampler is set")
            self.sampler = sampler
        else:
            if isinstance(dataset, IterableDataset):
                raise TypeError("dataset should not be a framework.io.IterableDataset")
            if sampler is not None:
                raise ValueError("should not set both dataset and sampler")
            if not isinstance(shuffle, bool):
                raise TypeError(f"shuffle should be a boolean value, but got {type(shuffle)}")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer, but got {batch_size}")
        if not isinstance(drop_last, bool):
            raise TypeError(f"drop_last should be a boolean value, but got {type(drop_last)}")
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        yield from _batched(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def _batched(indices: Iterator[int], batch_size: int, drop_last: bool) -> Iterator[list[int]]:
    batch: list[int] = []
    for idx in indices:
        batch.append(idx)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class _InfiniteIterableSampler(Sampler[list[None]]):
    """Batch 'indices' for an iterable dataset: the fetcher just pulls `batch_size` samples."""

    def __init__(self, dataset: IterableDataset, batch_size: int = 1) -> None:
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[list[None]]:
        while True:
            yield [None] * self.batch_size


class DistributedBatchSampler(BatchSampler):
    """One data-parallel rank's batches, as `paddle.io.DistributedBatchSampler`.

    The share of the batches that belongs to one rank of `num_replicas` data-parallel ranks.

    The dataset is padded (by repeating indices) to a multiple of `num_replicas`; each rank
    gets `ceil(len(dataset) / num_replicas)` samples. With `shuffle=True` the order is
    permuted by a seed equal to the epoch: call `set_epoch(epoch)` so every rank draws the
    same permutation and each epoch a new one. Matches `paddle.io.DistributedBatchSampler`
    index for index.

    `num_replicas` and `rank` default to the launcher's environment (`PADDLE_TRAINERS_NUM`,
    `PADDLE_TRAINER_ID`), or 1 and 0.

    Args:
        dataset (Dataset|Sized): the dataset, padded by repeating indices to a multiple of
            `num_replicas`.
        batch_size (int): indices per batch on each rank.
        num_replicas (int, optional): the data-parallel ranks; None reads the launcher's
            environment. Default: None.
        rank (int, optional): this rank; None reads the launcher's environment. Default: None.
        shuffle (bool, optional): permute by a seed equal to the epoch. Default: False.
        drop_last (bool, optional): drop a last, smaller batch. Default: False.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import DistributedBatchSampler
        >>> list(DistributedBatchSampler(range(5), batch_size=2, num_replicas=2, rank=0))
        [[0, 1], [4]]
        >>> list(DistributedBatchSampler(range(5), batch_size=2, num_replicas=2, rank=1))
        [[2, 3], [0]]
    """

    def __init__(
        self,
        dataset: Sized,
        batch_size: int,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = False,
        drop_last: bool = False,
    ) -> None:
        self.dataset = dataset
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer")
        if not isinstance(shuffle, bool):
            raise TypeError("shuffle should be a boolean value")
        if not isinstance(drop_last, bool):
            raise TypeError("drop_last should be a boolean value")
        if num_replicas is None:
            num_replicas = int(os.environ.get("PADDLE_TRAINERS_NUM", "1"))
        if rank is None:
            rank = int(os.environ.get("PADDLE_TRAINER_ID", "0"))
        if not isinstance(num_replicas, int) or num_replicas <= 0:
            raise ValueError("num_replicas should be a positive integer")
        if not isinstance(rank, int) or not 0 <= rank < num_replicas:
            raise ValueError(f"rank should be an integer in [0, {num_replicas}), got {rank}")
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = num_replicas
        self.local_rank = rank
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def __iter__(self) -> Iterator[list[int]]:
        n = len(self.dataset)
        indices = list(range(n))
        padding = self.total_size - n
        indices += (
            (indices * math.ceil(padding / n))[:padding]
            if padding > len(indices)
            else (indices[:padding])
        )
        if self.shuffle:
            # Paddle's exact permutation, so ranks and frameworks agree on the order.
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._rank_share(indices)
        yield from _batched(iter(indices), self.batch_size, self.drop_last)

    def _rank_share(self, indices: list[int]) -> list[int]:
        # Whole batches go to ranks round-robin; the short tail is split evenly.
        stride = self.batch_size * self.nranks
        tail = self.total_size % stride
        start = self.local_rank * self.batch_size
        share: list[int] = []
        for i in range(start, len(indices) - tail, stride):
            share.extend(indices[i : i + self.batch_size])
        tail_per_rank = tail // self.nranks
        tail_indices = indices[len(indices) - tail :]
        share.extend(
            tail_indices[self.local_rank * tail_per_rank : (self.local_rank + 1) * tail_per_rank]
        )
        return share

    def __len__(self) -> int:
        n = self.num_samples
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def set_epoch(self, epoch: int) -> None:
        """Seed the next shuffle with `epoch` (call once per epoch on every rank)."""
        self.epoch = epoch
