"""`framework.base.unique_name`, as `paddle.base.unique_name`: the names layers and parameters
get (`fc_0`, `fc_1`, ...), and `guard()` to start the counters afresh inside a block."""

from __future__ import annotations

import contextlib
import itertools
from collections import defaultdict
from collections.abc import Iterator

from framework.nn.layer import naming


def generate(key: str) -> str:
    """`key_0`, `key_1`, ...: the next unique name for `key` (the counter layers use)."""
    return naming.unique_name(key)


@contextlib.contextmanager
def guard(new_generator: str | None = None) -> Iterator[None]:
    """Inside the block, names count from 0 again, with `new_generator` (a string) prepended
    to every name as Paddle's prefix; the previous counters come back on exit."""
    saved = naming._counters, naming._name_prefix
    naming._counters = defaultdict(itertools.count)
    naming._name_prefix = str(new_generator) if new_generator else ""
    try:
        yield
    finally:
        naming._counters, naming._name_prefix = saved


__all__ = ["generate", "guard"]
