"""Samplers: the order in which a map-style dataset's indices are visited.

Random samplers draw from the framework's seeded generator (`framework.seed(n)` makes them
repeatable) unless given their own `generator`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Sized
from typing import Any, Generic, TypeVar

import numpy as np

from framework.core.random import get_rng
from framework.core.tensor import Tensor

_T = TypeVar("_T")


class Sampler(Generic[_T]):
    """The base of index samplers, as `paddle.io.Sampler`.

    Base class: subclasses implement `__iter__` (and `__len__` when the length is known).

    Args:
        data_source (Dataset|Sized, optional): the dataset sampled. Default: None.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import Sampler
        >>> class EvenFirst(Sampler):
        ...     def __iter__(self):
        ...         n = len(self.data_source)
        ...         return iter([*range(0, n, 2), *range(1, n, 2)])
        ...
        >>> list(EvenFirst(range(5)))
        [0, 2, 4, 1, 3]
    """

    def __init__(self, data_source: Sized | None = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[_T]:
        raise NotImplementedError


class SequenceSampler(Sampler[int]):
    """Indices in order, as `paddle.io.SequenceSampler`.

    0, 1, ..., len(data_source) - 1.

    Args:
        data_source (Dataset|Sized): the dataset, or anything with `len`.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import SequenceSampler
        >>> list(SequenceSampler(range(4)))
        [0, 1, 2, 3]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Indices in random order, as `paddle.io.RandomSampler`.

    Args:
        data_source (Dataset|Sized): the dataset, or anything with `len`.
        replacement (bool, optional): draw with replacement; then `num_samples` may exceed the
            dataset's size. Default: False.
        num_samples (int, optional): how many indices to yield; None is `len(data_source)`.
            Default: None.
        generator (Iterator|numpy.random.Generator, optional): as in Paddle, an iterator that
            yields the indices itself, or a NumPy generator to draw from; None is the
            framework's seeded generator. Default: None.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import RandomSampler
        >>> _ = paddle.seed(1)
        >>> list(RandomSampler(range(5)))
        [4, 0, 1, 2, 3]
        >>> len(RandomSampler(range(5), replacement=True, num_samples=8))
        8
    """

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"expect boolean value for replacement, but got replacement={replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer, but got num_samples={num_samples}"
            )
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(
                "num_samples should be smaller than or equal to length of data_source when "
                f"replacement is False, but got num_samples: {self.num_samples} > "
                f"data_source: {len(data_source)}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        if self.generator is not None and not isinstance(self.generator, np.random.Generator):
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        rng = self.generator if self.generator is not None else get_rng()
        n = len(self.data_source)
        if self.replacement:
            indices = rng.integers(0, n, size=self.num_samples)
        else:
            indices = rng.permutation(n)[: self.num_samples]
        yield from indices.tolist()

    def __len__(self) -> int:
        return self.num_samples


class WeightedRandomSampler(Sampler[int]):
    """Indices drawn in proportion to weights, as `paddle.io.WeightedRandomSampler`.

    Indices drawn with probability proportional to `weights`.

    `weights` is 1-D (one weight per index) or 2-D (one row per draw set; the rows' draws are
    concatenated), as in Paddle.

    Args:
        weights (list|numpy.ndarray|Tensor): one non-negative weight per index (1-D), or one row per
            draw set (2-D).
        num_samples (int): how many indices to draw.
        replacement (bool, optional): draw with replacement. Default: True.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import WeightedRandomSampler
        >>> _ = paddle.seed(1)
        >>> list(WeightedRandomSampler([0.0, 0.0, 1.0, 1.0], num_samples=6))
        [3, 3, 2, 3, 2, 2]
    """

    def __init__(
        self,
        weights: np.ndarray | Tensor | Sequence[float],
        num_samples: int,
        replacement: bool = True,
    ) -> None:
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def _weight_rows(self) -> np.ndarray:
        weights = np.asarray(self.weights, dtype=np.float64)
        if weights.ndim not in (1, 2):
            raise ValueError("weights should be a 1-D or 2-D array")
        weights = weights.reshape(-1, weights.shape[-1])
        if not np.all(np.isfinite(weights)):
            raise ValueError("weights should not be INF or NaN")
        if np.any(weights < 0):
            raise ValueError("weights should be non-negative")
        positive = np.sum(weights > 0, axis=1)
        if np.any(positive == 0):
            raise ValueError("weights should have positive values")
        if not self.replacement and np.any(positive < self.num_samples):
            raise ValueError(
                "weights positive value number should not be less than num_samples "
                "when replacement=False"
            )
        return weights / weights.sum(axis=1, keepdims=True)

    def __iter__(self) -> Iterator[int]:
        rng = get_rng()
        rows = self._weight_rows()
        draws = [
            rng.choice(rows.shape[1], self.num_samples, replace=self.replacement, p=row)
            for row in rows
        ]
        return iter(np.concatenate(draws).tolist())

    def __len__(self) -> int:
        shape = np.shape(self.weights)
        return self.num_samples * int(np.prod(shape[:-1], dtype=np.int64))


class SubsetRandomSampler(Sampler[int]):
    """Given indices in random order, as `paddle.io.SubsetRandomSampler`.

    The given indices, in random order.

    Args:
        indices (list|tuple): the indices yielded, in a random order each epoch.

    Examples:
        >>> import framework as paddle
        >>> from framework.io import SubsetRandomSampler
        >>> _ = paddle.seed(1)
        >>> sorted(SubsetRandomSampler([7, 3, 5])), len(SubsetRandomSampler([7, 3, 5]))
        ([3, 5, 7], 3)
    """

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise ValueError(
                "The length of `indices` in SubsetRandomSampler should be greater than 0."
            )
        self.indices = indices

    def __iter__(self) -> Iterator[int]:
        for i in get_rng().permutation(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)
