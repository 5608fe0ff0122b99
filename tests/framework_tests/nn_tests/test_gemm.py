"""`gemm.matmul`: the product of every operand layout BLAS reads in place (and of the ones it
cannot), through MKL inside single-threaded BLAS regions when MKL is installed, through NumPy
everywhere else; the same numbers either way."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from framework.backends.cpu import blas_threads, gemm

RNG = np.random.default_rng(3)


def _operand(rows: int, cols: int, transposed: bool, pad: int, dtype):
    """A `[rows, cols]` operand stored row-major (padded rows) or as a transposed view."""
    if transposed:
        return RNG.standard_normal((cols, rows + pad)).astype(dtype)[:, :rows].T
    return RNG.standard_normal((rows, cols + pad)).astype(dtype)[:, :cols]


@pytest.fixture
def counted_mkl(monkeypatch):
    """MKL's GEMM functions wrapped to count their calls (skips when MKL is not installed)."""
    if not gemm.available():
        pytest.skip("MKL (the mkl wheel) is not installed")
    calls = []

    def counting(function):
        return lambda *args: calls.append(args) or function(*args)

    monkeypatch.setattr(gemm, "_library", {k: counting(f) for k, f in gemm._library.items()})
    return calls


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("a_transposed, b_transposed", itertools.product([False, True], repeat=2))
@pytest.mark.parametrize("pad", [0, 3])
def test_every_in_place_layout_gives_the_product(
    counted_mkl, dtype, a_transposed, b_transposed, pad
):
    m, k, n = 150, 130, 120
    a = _operand(m, k, a_transposed, pad, dtype)
    b = _operand(k, n, b_transposed, pad, dtype)
    out = np.full((m, n + pad), np.nan, dtype)[:, :n]  # rows of `out` padded too
    with blas_threads.single_threaded_blas():
        gemm.matmul(np, a, b, out)
    assert len(counted_mkl) == 1
    want = a.astype(np.float64) @ b.astype(np.float64)
    tolerance = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, want, rtol=tolerance, atol=tolerance * np.abs(want).max())


def test_stacks_run_one_product_per_matrix(counted_mkl) -> None:
    a = RNG.standard_normal((4, 140, 130)).astype(np.float32)
    shared = RNG.standard_normal((130, 120)).astype(np.float32)
    out = np.empty((4, 140, 120), np.float32)
    flipped = np.empty((4, 120, 140), np.float32)
    with blas_threads.single_threaded_blas():
        gemm.matmul(np, a, shared, out)  # 3-D @ 2-D
        gemm.matmul(np, shared.T, a.transpose(0, 2, 1), flipped)  # 2-D @ 3-D (transposed views)
    assert len(counted_mkl) == 8
    np.testing.assert_allclose(out, a @ shared, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(flipped, out.transpose(0, 2, 1), rtol=1e-5, atol=1e-4)
    small = np.empty((4, 140, 8), np.float32)  # matrices below the MKL threshold: NumPy
    with blas_threads.single_threaded_blas():
        gemm.matmul(np, a, shared[:, :8], small)
    assert len(counted_mkl) == 8
    np.testing.assert_allclose(small, a @ shared[:, :8], rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize(
    "case",
    ["strided columns", "aliased output", "too small", "a vector", "mixed dtypes", "int64"],
)
def test_what_blas_cannot_read_in_place_goes_to_numpy(counted_mkl, case) -> None:
    a = RNG.standard_normal((160, 140)).astype(np.float32)
    b = RNG.standard_normal((140, 130)).astype(np.float32)
    out = np.empty((160, 130), np.float32)
    if case == "strided columns":
        a = RNG.standard_normal((160, 280)).astype(np.float32)[:, ::2]
    elif case == "aliased output":
        a = RNG.standard_normal((160, 160)).astype(np.float32)
        b = RNG.standard_normal((160, 160)).astype(np.float32)
        out = a
    elif case == "too small":
        a, b, out = a[:8, :8], b[:8, :8], out[:8, :8].copy()
    elif case == "a vector":
        b, out = b[:, :1], np.empty((160, 1), np.float32)
    elif case == "mixed dtypes":
        b = b.astype(np.float64)
    else:
        a, b = (RNG.integers(-5, 5, (160, 140)), RNG.integers(-5, 5, (140, 130)))
        out = np.empty((160, 130), np.int64)
    want = a @ b
    with blas_threads.single_threaded_blas():
        gemm.matmul(np, a, b, out)
    assert counted_mkl == []
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-4)


def test_mkl_only_where_blas_runs_one_thread(counted_mkl) -> None:
    a = RNG.standard_normal((200, 180)).astype(np.float32)
    b = RNG.standard_normal((180, 160)).astype(np.float32)
    out = np.empty((200, 160), np.float32)
    gemm.matmul(np, a, b, out)  # outside: NumPy's BLAS with its own threads
    assert counted_mkl == []
    with blas_threads.single_threaded_blas():
        with blas_threads.lent_threads(2):  # a single sample: BLAS has its threads back
            gemm.matmul(np, a, b, out)
        lent = len(counted_mkl)
        gemm.matmul(np, a, b, out)
    assert len(counted_mkl) == 1 + lent
    if [lib for lib in blas_threads._blas_libraries() if lib.get_num_threads() > 1]:
        assert lent == 0  # the lend took effect, so the product stayed with OpenBLAS
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-4)


def test_without_mkl_everything_is_numpy(monkeypatch) -> None:
    monkeypatch.setenv("SAMPAN_MKL", "0")
    assert gemm._load() is None
    monkeypatch.setattr(gemm, "_library", None)
    monkeypatch.setattr(gemm, "_loaded", True)
    a = RNG.standard_normal((200, 180)).astype(np.float32)
    b = RNG.standard_normal((180, 160)).astype(np.float32)
    out = np.empty((200, 160), np.float32)
    with blas_threads.single_threaded_blas():
        assert not gemm.available()
        gemm.matmul(np, a, b, out)
    np.testing.assert_allclose(out, a @ b, rtol=1e-6, atol=1e-5)


needs_threaded_mkl = pytest.mark.skipif(
    not gemm.threaded(), reason="MKL on GNU OpenMP is not installed here"
)


@needs_threaded_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("a_transposed, b_transposed", itertools.product([False, True], repeat=2))
def test_threaded_products_equal_numpys(dtype, a_transposed, b_transposed) -> None:
    a = _operand(256, 300, a_transposed, 0, dtype)
    b = _operand(300, 200, b_transposed, 0, dtype)
    out = np.full((256, 200), np.nan, dtype)
    assert gemm.threaded_matmul(a, b, out, 2)
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-4)


@needs_threaded_mkl
def test_threaded_products_decline_what_blas_cannot_take() -> None:
    small = RNG.standard_normal((8, 8)).astype(np.float32)
    out = np.zeros((8, 8), np.float32)
    assert not gemm.threaded_matmul(small, small, out, 2)  # below TUNING.mkl_min_macs
    stack = RNG.standard_normal((2, 200, 200)).astype(np.float32)
    assert not gemm.threaded_matmul(stack, stack, np.zeros_like(stack), 2)
    assert not (out != 0).any()


def _product_in_child(queue) -> None:
    a = RNG.standard_normal((300, 300)).astype(np.float32)
    out = np.empty_like(a)
    threaded = gemm.threaded_matmul(a, a, out, 2)
    with blas_threads.single_threaded_blas():
        gemm.matmul(np, a, a, out)
    from framework.backends.cpu.onednn import library as onednn

    correct = bool(np.allclose(out, a @ a, rtol=1e-4, atol=1e-3))
    queue.put((threaded, correct, onednn.available()))


@needs_threaded_mkl
def test_a_child_forked_after_a_threaded_product_keeps_mkl_to_one_thread() -> None:
    """GNU OpenMP cannot run a team in such a child (it would wait forever for the parent's
    threads): the child's products run on one MKL thread instead, and oneDNN, whose teams
    share that runtime, keeps out too."""
    import multiprocessing

    a = RNG.standard_normal((300, 300)).astype(np.float32)
    assert gemm.threaded_matmul(a, a, np.empty_like(a), 2)  # the parent has run a team
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_product_in_child, args=(queue,))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert queue.get(timeout=5) == (False, True, False)
