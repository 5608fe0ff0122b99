"""parallel_for called from inside parallel work runs inline instead of deadlocking the pool."""

from __future__ import annotations

import numpy as np
import pytest

from framework.backends.cpu import threads


@pytest.mark.timeout(60)
def test_nested_parallel_work_completes():
    def outer(start: int, stop: int) -> float:
        target = np.zeros((4096, 128))
        threads.parallel_assign(np, target, np.ones((4096, 128)))  # parallel_for inside
        return float(target.sum()) * (stop - start)

    results = threads.parallel_for(outer, 8)
    assert sum(results) == 4096 * 128 * 8


@pytest.mark.timeout(120)
def test_depthwise_conv_at_a_realistic_size_finishes():
    import framework
    import framework.nn.functional as F

    x = framework.randn([1, 64, 160, 320])
    weight = framework.randn([64, 1, 3, 3])
    out = F.conv2d(x, weight, padding=1, groups=64)
    assert out.shape == [1, 64, 160, 320]
