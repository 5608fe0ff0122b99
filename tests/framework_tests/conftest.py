"""Shared fixtures for framework tests: a fixed seed, and GPU tests skipped without a GPU."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import framework

# PaddlePaddle, an oracle here, ships its own newer `libdnnl.so.3`: imported after our oneDNN
# has loaded, it binds to ours and fails (see `framework.backends.cpu.onednn.library._open`).
# It loads first.
with contextlib.suppress(ImportError):
    import paddle  # noqa: F401


@pytest.fixture(autouse=True)
def _seeded() -> None:
    framework.seed(0)
    np.random.seed(0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if framework.is_compiled_with_cuda():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run `make gpu-check` on a GPU machine)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
