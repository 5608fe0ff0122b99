"""These tests run with one BLAS thread (see tests/framework_tests/single_blas.py)."""

from tests.framework_tests.single_blas import single_blas_thread  # noqa: F401 (autouse fixture)
