"""One BLAS thread while these tests run: they check values, not speed, and a multi-threaded
BLAS on an oversubscribed CI box spins for up to 20x longer on the small GEMMs they do."""

from __future__ import annotations

import contextlib

import pytest


@pytest.fixture(autouse=True, scope="module")
def _single_blas_thread():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # without it the tests only run slower
        limits = contextlib.nullcontext()
    else:
        limits = threadpool_limits(limits=1, user_api="blas")
    with limits:
        yield
