"""`framework.batch`, as `paddle.batch`: the legacy reader decorator that groups samples."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TypeVar

_T = TypeVar("_T")


def batch(
    reader: Callable[[], Generator[_T, None, None]], batch_size: int, drop_last: bool = False
) -> Callable[[], Generator[list[_T], None, None]]:
    """A reader that yields lists of `batch_size` samples from `reader()`; the last, shorter
    list is dropped when `drop_last`. (New code uses `framework.io.DataLoader`.)

        batched = framework.batch(lambda: iter(range(5)), 2)
        list(batched())   # [[0, 1], [2, 3], [4]]
    """
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(f"batch_size should be a positive integer value, but got {batch_size}")

    def batch_reader() -> Generator[list[_T], None, None]:
        group: list[_T] = []
        for sample in reader():
            group.append(sample)
            if len(group) == batch_size:
                yield group
                group = []
        if group and not drop_last:
            yield group

    return batch_reader
