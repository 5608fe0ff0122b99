"""Interop tests run torch with one thread: on a shared 2-core box, torch's OpenMP threads
spin against other processes and a ResNet-18 forward goes from ~0.05 s to over a second."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread() -> Iterator[None]:
    torch = sys.modules.get("torch")  # imported by the test module itself, if it needs torch
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)
