"""BLAS thread switching for predictor runs: the shared implementation lives with the kernels
that use it too (`framework.ops.nn.blas_threads`); this module keeps the predictor's import."""

from __future__ import annotations

from framework.ops.nn.blas_threads import available, set_blas_threads, single_threaded_blas

__all__ = ["available", "set_blas_threads", "single_threaded_blas"]
