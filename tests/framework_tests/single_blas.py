"""One BLAS thread while a test module runs: value tests, not speed tests, and a multi-threaded
BLAS on an oversubscribed CI box spins for up to 20x longer on the small GEMMs they do.
A conftest that imports `single_blas_thread` applies it to its folder."""

from __future__ import annotations

import contextlib

import pytest


@pytest.fixture(autouse=True, scope="module")
def single_blas_thread():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # without it the tests only run slower
        limits = contextlib.nullcontext()
    else:
        limits = threadpool_limits(limits=1, user_api="blas")
    with limits:
        yield
