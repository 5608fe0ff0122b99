"""Fetchers turn one batch of indices into one collated batch, for map and iterable datasets.

They remember which sample failed, so an error can name its index, and report each sample
they start to `sample_hook`, so that a worker that dies can be traced to its sample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any


class MapFetcher:
    def __init__(
        self,
        dataset: Any,
        auto_collate: bool,
        collate_fn: Callable | None,
        drop_last: bool,
        sample_hook: Callable[[Any], None] | None = None,
    ) -> None:
        self.dataset = dataset
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.sample_hook = sample_hook
        self.failed_index: Any = None

    def fetch(self, indices: Any) -> Any:
        self.failed_index = None
        hook = self.sample_hook
        if self.auto_collate:
            samples = []
            for idx in indices:
                if hook is not None:
                    hook(idx)
                try:
                    samples.append(self.dataset[idx])
                except Exception:
                    self.failed_index = idx
                    raise
        else:
            if hook is not None:
                hook(indices)
            try:
                samples = self.dataset[indices]
            except Exception:
                self.failed_index = indices
                raise
        return self.collate_fn(samples) if self.collate_fn is not None else samples


class IterableFetcher:
    """Pulls `len(indices)` samples from the dataset's iterator. Raises StopIteration when the
    iterator is exhausted (or, with `drop_last`, when only a partial batch is left)."""

    def __init__(
        self,
        dataset: Any,
        auto_collate: bool,
        collate_fn: Callable | None,
        drop_last: bool,
        sample_hook: Callable[[Any], None] | None = None,
    ) -> None:
        self.auto_collate = auto_collate
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.sample_hook = sample_hook
        self.failed_index: Any = None
        self._position = 0
        self._iterator: Iterator = iter(dataset)

    def fetch(self, indices: Sequence[Any]) -> Any:
        self.failed_index = None
        hook = self.sample_hook
        if self.auto_collate:
            samples = []
            for _ in indices:
                if hook is not None:
                    hook(self._position)
                try:
                    samples.append(next(self._iterator))
                except StopIteration:
                    break
                except Exception:
                    self.failed_index = self._position
                    raise
                self._position += 1
            if not samples or (self.drop_last and len(samples) < len(indices)):
                raise StopIteration
        else:
            if hook is not None:
                hook(self._position)
            try:
                samples = next(self._iterator)
            except StopIteration:
                raise
            except Exception:
                self.failed_index = self._position
                raise
            self._position += 1
        return self.collate_fn(samples) if self.collate_fn is not None else samples


def make_fetcher(
    dataset: Any,
    is_iterable: bool,
    auto_collate: bool,
    collate_fn: Callable | None,
    drop_last: bool,
    sample_hook: Callable[[Any], None] | None = None,
) -> MapFetcher | IterableFetcher:
    cls = IterableFetcher if is_iterable else MapFetcher
    return cls(dataset, auto_collate, collate_fn, drop_last, sample_hook)
