"""One BLAS thread while these tests run: they check values, not speed, and a multi-threaded
BLAS on an oversubscribed CI box spins for up to 20x longer on the small GEMMs they do."""

from __future__ import annotations

import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True, scope="module")
def _single_blas_thread():
    with threadpool_limits(limits=1, user_api="blas"):
        yield
