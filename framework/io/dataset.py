"""Datasets: the map-style `Dataset`, `IterableDataset`, and the ways to combine and split them.

A map-style dataset answers `dataset[i]` and `len(dataset)`; an iterable dataset only yields
samples. Both mirror `paddle.io`.

    class Squares(framework.io.Dataset):
        def __len__(self):
            return 10

        def __getitem__(self, i):
            return np.float32(i * i), i

    train, val = framework.io.random_split(Squares(), [8, 2])
"""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from framework.core.random import get_rng
from framework.core.tensor import Tensor

_T = TypeVar("_T")


class Dataset(Generic[_T]):
    """A map-style dataset, as `paddle.io.Dataset`.

    A map-style dataset: subclasses implement `__getitem__(idx)` and `__len__()`.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> class Squares(Dataset):
        ...     def __len__(self):
        ...         return 4
        ...     def __getitem__(self, i):
        ...         return i * i
        ...
        >>> ds = Squares()
        >>> len(ds), ds[3]
        (4, 9)
        >>> [batch.tolist() for batch in DataLoader(ds, batch_size=2)]
        [[0, 1], [4, 9]]
    """

    def __getitem__(self, idx: int) -> _T:
        raise NotImplementedError(f"'__getitem__' is not implemented in {type(self).__name__}")

    def __len__(self) -> int:
        raise NotImplementedError(f"'__len__' is not implemented in {type(self).__name__}")


class IterableDataset(Dataset[_T]):
    """A dataset that yields its samples, as `paddle.io.IterableDataset`.

    A dataset that yields samples. Subclasses implement `__iter__()`.

    With `num_workers > 0` every worker process iterates its own copy; shard the stream with
    `framework.io.get_worker_info()` (its `id` and `num_workers`) so samples are not repeated.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> class Stream(IterableDataset):
        ...     def __iter__(self):
        ...         yield from range(5)
        ...
        >>> [b.tolist() for b in DataLoader(Stream(), batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    def __iter__(self) -> Iterator[_T]:
        raise NotImplementedError(f"'__iter__' is not implemented in {type(self).__name__}")

    def __getitem__(self, idx: int) -> _T:
        raise RuntimeError(f"'__getitem__' should not be called on {type(self).__name__}")

    def __len__(self) -> int:
        # TypeError, not Paddle's RuntimeError, so that list(dataset) works.
        raise TypeError(f"'__len__' should not be called on {type(self).__name__}")


class TensorDataset(Dataset[tuple]):
    """The rows of several tensors as samples, as `paddle.io.TensorDataset`.

    Samples are the rows of several tensors (or arrays) with the same first dimension.

    ds = TensorDataset([framework.to_tensor(x), framework.to_tensor(y)])
    ds[3]   # (x[3], y[3])

    Args:
        tensors (list|tuple): Tensors or NumPy arrays with the same first dimension N.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> x = paddle.arange(6, dtype='float32').reshape([3, 2])
        >>> ds = TensorDataset([x, paddle.to_tensor([0, 1, 0])])
        >>> len(ds)
        3
        >>> x, y = ds[1]
        >>> print(x)
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [2., 3.])
        >>> print(y)
        Tensor(shape=[], dtype=int64, place=Place(cpu), stop_gradient=True,
               1)
    """

    def __init__(self, tensors: Sequence[Tensor | np.ndarray]) -> None:
        if len(tensors) == 0:
            raise ValueError("TensorDataset needs at least one tensor")
        lengths = {int(t.shape[0]) for t in tensors}
        if len(lengths) != 1:
            raise ValueError(
                "tensors do not have the same size in the first dimension: "
                f"{[list(t.shape) for t in tensors]}"
            )
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple:
        return tuple(_take_row(tensor, index) for tensor in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].shape[0])


def _take_row(tensor: Tensor | np.ndarray, index: int) -> Tensor | np.ndarray:
    # A data row needs no autograd history, so index the array itself (a view, no copy).
    if isinstance(tensor, Tensor):
        return Tensor(tensor._data[index])
    return tensor[index]


class ComposeDataset(Dataset[tuple]):
    """Zip map-style datasets field-wise, as `paddle.io.ComposeDataset`.

    Zip map-style datasets of equal length: sample i concatenates the fields of each one.

    Args:
        datasets (list|tuple): map-style datasets of one length, whose samples are tuples (or single
            fields).

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> a = TensorDataset([paddle.to_tensor([1, 2])])
        >>> b = TensorDataset([paddle.to_tensor([10, 20])])
        >>> ds = ComposeDataset([a, b])
        >>> [int(field) for field in ds[1]]
        [2, 20]
    """

    def __init__(self, datasets: Sequence[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("input datasets should not be empty")
        for i, dataset in enumerate(self.datasets):
            if not isinstance(dataset, Dataset) or isinstance(dataset, IterableDataset):
                raise TypeError("each input dataset should be a map-style framework.io.Dataset")
            if i > 0 and len(dataset) != len(self.datasets[i - 1]):
                raise ValueError("lengths of datasets should be the same")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple:
        sample: list = []
        for dataset in self.datasets:
            fields = dataset[idx]
            sample.extend(fields if isinstance(fields, list | tuple) else [fields])
        return tuple(sample)


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, as `paddle.io.ChainDataset`.

    Iterate several iterable datasets one after another.

    Args:
        datasets (list|tuple): iterable datasets, iterated in order.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> class Count(IterableDataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         yield from range(self.n)
        ...
        >>> list(ChainDataset([Count(2), Count(3)]))
        [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets: Sequence[IterableDataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("input datasets should not be empty")
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise TypeError("ChainDataset only supports framework.io.IterableDataset")

    def __iter__(self) -> Iterator:
        for dataset in self.datasets:
            yield from dataset


class ConcatDataset(Dataset[_T]):
    """Map-style datasets end to end, as `paddle.io.ConcatDataset`.

    Concatenate map-style datasets end to end.

    Args:
        datasets (iterable): map-style datasets; sample i is found in the one it falls into.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> a = TensorDataset([paddle.to_tensor([1, 2])])
        >>> b = TensorDataset([paddle.to_tensor([3, 4, 5])])
        >>> ds = ConcatDataset([a, b])
        >>> len(ds), int(ds[3][0])
        (5, 4)
    """

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("datasets should not be an empty iterable")
        for dataset in self.datasets:
            if isinstance(dataset, IterableDataset):
                raise TypeError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = np.cumsum([len(d) for d in self.datasets]).tolist()

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> _T:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        offset = 0 if which == 0 else self.cumulative_sizes[which - 1]
        return self.datasets[which][idx - offset]


class Subset(Dataset[_T]):
    """Part of a dataset, as `paddle.io.Subset`.

    The samples of `dataset` at `indices`, in that order.

    Args:
        dataset (Dataset): the map-style dataset picked from.
        indices (list|tuple): the indices kept, in order.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> x = paddle.arange(6, dtype='float32').reshape([3, 2])
        >>> ds = TensorDataset([x, paddle.to_tensor([0, 1, 0])])
        >>> sub = Subset(ds, [2, 0])
        >>> len(sub), int(sub[0][1])
        (2, 0)
    """

    def __init__(self, dataset: Dataset[_T], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: int) -> _T:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(
    dataset: Dataset[_T],
    lengths: Sequence[int | float],
    generator: Any = None,
) -> list[Subset[_T]]:
    """Random disjoint subsets of a dataset, as `paddle.io.random_split`.

    Split `dataset` into non-overlapping random subsets of the given lengths.

    `lengths` are sample counts summing to `len(dataset)`, or fractions summing to 1 (the
    remainder is dealt round-robin, as Paddle does). The permutation is drawn from `generator`
    (a `numpy.random.Generator` or an int seed) or else from the framework's seeded generator,
    so `framework.seed(n)` makes the split repeatable.

    Args:
        dataset (Dataset): the map-style dataset split.
        lengths (list|tuple): sample counts summing to `len(dataset)`, or fractions summing to 1.
        generator (numpy.random.Generator|int, optional): the permutation's source; None is the
            framework's seeded generator. Default: None.

    Returns:
        list: one `Subset` per length, disjoint.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import *
        >>> _ = paddle.seed(1)
        >>> train, val = random_split(TensorDataset([paddle.arange(10)]), [0.8, 0.2])
        >>> len(train), len(val)
        (8, 2)
        >>> train.indices, val.indices
        ([8, 4, 7, 0, 1, 2, 5, 9], [6, 3])
    """
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, fraction in enumerate(lengths):
            if not 0 <= fraction <= 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(n * fraction)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, count in enumerate(counts):
            if count == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2,
                )
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    if isinstance(generator, np.random.Generator):
        rng = generator
    elif isinstance(generator, int):
        rng = np.random.default_rng(generator)
    else:
        rng = get_rng()
    indices = rng.permutation(n).tolist()
    ends = np.cumsum(lengths).tolist()
    return [
        Subset(dataset, indices[end - length : end])
        for end, length in zip(ends, lengths, strict=True)
    ]
