"""The timing loop the single-process benchmarks share: warm-up calls, then the median of
`repeats` timed calls."""

from __future__ import annotations

import statistics
import time


def median_seconds(run, repeats: int, warmup: int = 5) -> float:
    """Median wall seconds of one `run()` call, after `warmup` untimed calls."""
    for _ in range(warmup):
        run()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)
