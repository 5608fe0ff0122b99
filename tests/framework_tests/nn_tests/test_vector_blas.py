"""`vector_blas`: in-place scal/axpy through MKL's threaded routines or NumPy's OpenBLAS, NumPy
where BLAS cannot take the arrays, and the Momentum and SGD updates built on them."""

from __future__ import annotations

import numpy as np
import pytest

from framework.backends.cpu import gemm, vector_blas
from framework.backends.cpu.tuning import TUNING
from framework.optimizer import SGD, Momentum
from tests.framework_tests.optimizer_tests.test_optimizer_parity import run_ours

threadpoolctl = pytest.importorskip("threadpoolctl")


def _numpy_uses_openblas() -> bool:
    return any(i["internal_api"] == "openblas" for i in threadpoolctl.threadpool_info())


def _openblas_routines(monkeypatch) -> dict:
    monkeypatch.setattr(gemm, "vector_routines", lambda: {})
    return vector_blas._load()


def test_the_routines_are_found_in_numpys_openblas(monkeypatch):
    if not _numpy_uses_openblas():
        pytest.skip("NumPy is not linked to OpenBLAS here")
    routines = _openblas_routines(monkeypatch)
    assert len(routines) == 4
    monkeypatch.setattr(vector_blas, "_routines", routines)
    for dtype in (np.float32, np.float64):
        assert vector_blas.usable(np.zeros(TUNING.vector_blas_min_size, dtype))


def test_mkl_routines_come_first_where_mkl_runs_openmp_teams():
    """The same runtime as the GEMMs and oneDNN: no OpenBLAS threads left spinning."""
    if not gemm.threaded():
        pytest.skip("MKL on GNU OpenMP is not installed here")
    assert vector_blas._load() == gemm.vector_routines()
    assert len(gemm.vector_routines()) == 4


@pytest.fixture(params=["mkl", "openblas"])
def route(request, monkeypatch):
    """Each BLAS route in turn (skipped where it is not installed)."""
    if request.param == "mkl":
        routines = gemm.vector_routines()
    else:
        routines = _openblas_routines(monkeypatch)
        monkeypatch.setattr(gemm, "vector_routines", lambda: {})
    if not routines:
        pytest.skip(f"no {request.param} routines here")
    monkeypatch.setattr(vector_blas, "_routines", routines)
    return request.param


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scale_and_axpy_equal_numpy(dtype, route):
    rng = np.random.default_rng(0)
    n = 3 * TUNING.vector_blas_min_size + 5
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    scaled = x.copy()
    vector_blas.scale_(scaled, 0.9)
    np.testing.assert_array_equal(scaled, x * dtype(0.9))  # one rounded product either way
    added = y.copy()
    vector_blas.axpy_(1.0, x, added)
    np.testing.assert_array_equal(added, y + x)
    moved = y.copy()
    vector_blas.axpy_(-0.01, x, moved)
    # BLAS may fuse the multiply-add: one rounding instead of two, an ulp of the operands apart.
    product = x * dtype(0.01)
    assert np.all(np.abs(moved - (y - product)) <= np.spacing(np.abs(y) + np.abs(product)))


@pytest.mark.parametrize(
    "make",
    [
        lambda rng: rng.standard_normal(100).astype(np.float32),  # short
        lambda rng: rng.standard_normal((600, 600)).astype(np.float32)[:, ::2],  # strided
        lambda rng: rng.standard_normal(200_000).astype(np.float16),  # no BLAS routine
    ],
    ids=["short", "strided", "float16"],
)
def test_arrays_blas_cannot_take_are_updated_by_numpy(make):
    rng = np.random.default_rng(1)
    x, y = make(rng), make(rng)
    assert not vector_blas.usable(x, y)
    expected_scaled = x * x.dtype.type(0.5)
    expected_added = y + x * y.dtype.type(-2.0)
    vector_blas.scale_(x_copy := x.copy(), 0.5)
    vector_blas.axpy_(-2.0, x, y)
    np.testing.assert_array_equal(x_copy, expected_scaled)
    np.testing.assert_array_equal(y, expected_added)


def test_mixed_dtypes_or_sizes_are_not_usable():
    a = np.zeros(TUNING.vector_blas_min_size, np.float32)
    assert not vector_blas.usable(a, a.astype(np.float64))
    assert not vector_blas.usable(a, np.zeros(TUNING.vector_blas_min_size + 1, np.float32))


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("SAMPAN_VECTOR_BLAS", "0")
    monkeypatch.setattr(vector_blas, "_routines", None)
    assert not vector_blas.available()
    assert not vector_blas.usable(np.zeros(TUNING.vector_blas_min_size, np.float32))
    monkeypatch.setattr(vector_blas, "_routines", None)  # looked up afresh after the test


@pytest.mark.parametrize(
    "build",
    [
        lambda ps: Momentum(0.1, momentum=0.9, parameters=ps),
        lambda ps: Momentum(0.1, momentum=0.9, parameters=ps, use_nesterov=True),
        lambda ps: SGD(0.1, parameters=ps, weight_decay=0.01),
    ],
    ids=["momentum", "nesterov", "sgd"],
)
def test_optimizer_updates_through_blas_match_numpy(build, route, monkeypatch):
    rng = np.random.default_rng(2)
    weights = [rng.standard_normal(s).astype(np.float32) for s in [(400, 400), (64,)]]
    grads = [[rng.standard_normal(w.shape).astype(np.float32) for w in weights] for _ in range(4)]
    calls = []
    real_axpy = vector_blas.axpy_

    def counting_axpy(alpha, x, y):
        calls.append(x.size)
        real_axpy(alpha, x, y)

    monkeypatch.setattr(vector_blas, "axpy_", counting_axpy)
    through_blas = run_ours(build, weights, grads)
    assert calls and set(calls) == {400 * 400}  # the big parameter only
    monkeypatch.setattr(vector_blas, "usable", lambda *arrays: False)
    through_numpy = run_ours(build, weights, grads)
    for a, b in zip(through_blas, through_numpy, strict=True):  # rounded in another order
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
