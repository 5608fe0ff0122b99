"""Convolutions shared out over the cores with single-threaded BLAS (`parallel_gemms`): the same
numbers as one share doing everything and as PyTorch, and BLAS threads always restored.

These are our NumPy kernels: oneDNN, which takes float32 convolutions where it is installed, is
held off here (`test_onednn` covers it)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu import blas_threads, threads
from framework.backends.cpu.onednn import library as onednn
from framework.backends.cpu.tuning import TUNING
from framework.ops.nn import conv_channel_first, conv_kernels, im2col

threadpoolctl = pytest.importorskip("threadpoolctl")


def _blas_thread_counts() -> list[int]:
    """Thread counts of the BLAS libraries NumPy's GEMMs use (torch or paddle, imported by other
    tests in the same process, may bring BLAS libraries of their own that we leave alone)."""
    ours = {lib.filepath for lib in blas_threads._blas_libraries()}
    return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["filepath"] in ours]


@pytest.fixture(autouse=True)
def _numpy_kernels(monkeypatch):
    monkeypatch.setattr(onednn, "available", lambda: False)  # the policy's NumPy routes


@pytest.fixture
def three_workers(monkeypatch):
    """Three cores' worth of shares (uneven splits of odd batches), whatever the machine has."""
    pool = ThreadPoolExecutor(2, thread_name_prefix="framework-nn")
    monkeypatch.setattr(threads, "CPU_WORKERS", 3)
    monkeypatch.setattr(threads, "_pool", pool)
    yield
    pool.shutdown()


@pytest.fixture
def shares(monkeypatch):
    """Counts the shared-out calls that ran, so a test knows the threaded path was taken."""
    calls = []
    real = threads.parallel_gemms

    def spy(xp, work, n):
        result = real(xp, work, n)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(im2col, "parallel_gemms", spy)
    monkeypatch.setattr(conv_kernels, "parallel_gemms", spy)
    monkeypatch.setattr(conv_channel_first, "parallel_gemms", spy)
    monkeypatch.setattr(TUNING, "channel_first_share_macs", 0)  # share even these small ones
    return calls


def _conv_and_grads(x, w, kwargs, channel_last=True):
    if channel_last:
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    xs = [framework.Tensor(x, stop_gradient=False), framework.Parameter(w)]
    y = F.conv2d(*xs, **kwargs)
    gy = np.random.default_rng(1).standard_normal(y.shape).astype(x.dtype)
    gx, gw = framework.grad(y, xs, framework.to_tensor(gy))
    return y.numpy(), gx.numpy(), gw.numpy(), gy


CASES = [
    ((5, 8, 12, 12), (16, 8, 3, 3), {"padding": 1}),
    ((7, 8, 12, 12), (12, 8, 3, 3), {"padding": 1, "stride": 2}),
    ((3, 8, 11, 11), (8, 8, 3, 3), {"padding": 1, "stride": 2}),
    ((7, 8, 10, 10), (12, 4, 3, 3), {"padding": 1, "groups": 2}),
    ((6, 6, 12, 12), (9, 2, 3, 3), {"padding": 2, "dilation": 2, "groups": 3}),
    ((5, 8, 9, 9), (16, 8, 5, 5), {"padding": 1}),
    ((2, 16, 8, 8), (32, 16, 3, 3), {"padding": 1}),
    ((5, 12, 7, 7), (20, 12, 1, 1), {}),
    ((3, 12, 9, 9), (16, 12, 1, 1), {"stride": 2}),
    ((5, 12, 6, 6), (9, 4, 1, 1), {"groups": 3}),
]
IDS = [
    "3x3_odd_batch",
    "stride2",
    "stride2_odd_size",
    "groups",
    "dilated_groups",
    "5x5",
    "batch2",
    "1x1",
    "1x1_stride2",
    "1x1_groups",
]


NCHW_CASES = [
    ((5, 1, 12, 12), (6, 1, 5, 5), {}),  # LeNet-like: channel-first columns
    ((7, 3, 20, 20), (8, 3, 3, 3), {"padding": 1, "stride": 2}),
    ((5, 8, 7, 7), (10, 8, 1, 1), {}),  # NCHW 1x1: batched GEMMs over the images
    ((4, 2, 11, 11), (7, 2, 3, 3), {"padding": 2, "dilation": 2}),  # wide input gradient
    ((3, 1, 7, 7), (4, 1, 3, 3), {"padding": 3}),  # padding wider than the kernel reaches
]


@pytest.mark.parametrize(
    "x_shape, w_shape, kwargs, channel_last",
    [(*case, True) for case in CASES] + [(*case, False) for case in NCHW_CASES],
    ids=IDS + ["nchw_1_channel", "nchw_stem_stride2", "nchw_1x1", "nchw_dilated", "nchw_wide_pad"],
)
def test_shared_out_conv_equals_one_share_and_torch(
    x_shape, w_shape, kwargs, channel_last, three_workers, shares, monkeypatch
):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = (rng.standard_normal(w_shape) * 0.3).astype(np.float32)
    shared = _conv_and_grads(x, w, kwargs, channel_last)
    assert shares and all(shares), "the convolution did not share its work out"
    monkeypatch.setattr(im2col, "parallel_gemms", lambda xp, work, n: None)
    monkeypatch.setattr(conv_kernels, "parallel_gemms", lambda xp, work, n: None)
    monkeypatch.setattr(conv_channel_first, "parallel_gemms", lambda xp, work, n: None)
    alone = _conv_and_grads(x, w, kwargs, channel_last)
    for got, want in zip(shared[:3], alone[:3], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)  # summed in another order
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    ty = torch.nn.functional.conv2d(tx, tw, **kwargs)
    ty.backward(torch.tensor(shared[3]))
    np.testing.assert_allclose(shared[0], ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(shared[1], tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(shared[2], tw.grad.numpy(), rtol=1e-4, atol=1e-3)


def test_channel_first_products_are_shared_out_from_share_min_macs_on(three_workers, shares):
    rng = np.random.default_rng(0)
    w = rng.standard_normal((6, 1, 3, 3)).astype(np.float32)
    small = rng.standard_normal((8, 1, 28, 28)).astype(np.float32)  # 0.3M multiply-adds
    y_small = F.conv2d(framework.to_tensor(small), framework.to_tensor(w), padding=1)
    assert shares == [True]  # the threshold is 0 under the `shares` fixture
    shares.clear()
    TUNING.channel_first_share_macs = 1_000_000  # the fixture's monkeypatch restores it
    F.conv2d(framework.to_tensor(small), framework.to_tensor(w), padding=1)
    assert shares == []  # below the threshold: done here, without a hand-off
    large = np.concatenate([small] * 4)  # 1.4M
    y_large = F.conv2d(framework.to_tensor(large), framework.to_tensor(w), padding=1)
    assert shares == [True]
    np.testing.assert_array_equal(y_large.numpy()[:8], y_small.numpy())


def test_shared_out_conv_gradients_are_exact_in_float64(three_workers, shares):
    from framework.testing import check_backward

    rng = np.random.default_rng(2)
    x = framework.to_tensor(rng.standard_normal((3, 4, 6, 6)), stop_gradient=False)
    w = framework.to_tensor(rng.standard_normal((6, 4, 3, 3)), stop_gradient=False)
    check_backward(lambda a, b: F.conv2d(a, b, stride=2, padding=1), [x, w])
    assert any(shares)
    few = framework.to_tensor(rng.standard_normal((3, 2, 9, 9)), stop_gradient=False)
    w = framework.to_tensor(rng.standard_normal((5, 2, 3, 3)), stop_gradient=False)
    check_backward(lambda a, b: F.conv2d(a, b, padding=2, dilation=2), [few, w])  # channel first


def test_blas_is_single_threaded_inside_shares_and_restored_after(three_workers):
    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")
    seen = []

    def work(start: int, stop: int) -> int:
        seen.append(_blas_thread_counts())
        return stop - start

    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        assert threads.parallel_gemms(np, work, 7) == [3, 2, 2]
        after = _blas_thread_counts()
    assert len(seen) == 3 and all(counts and set(counts) == {1} for counts in seen)
    assert set(after) == {2}


def test_blas_threads_are_restored_when_a_share_raises(three_workers):
    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")

    def work(start: int, stop: int) -> None:
        if start:
            raise ValueError("share failed")
        with pytest.raises(ValueError):
            raise ValueError("the calling thread's own share fails too")

    def failing_first(start: int, stop: int) -> None:
        if start == 0:
            raise RuntimeError("first share failed")

    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        with pytest.raises(ValueError, match="share failed"):
            threads.parallel_gemms(np, work, 6)
        assert set(_blas_thread_counts()) == {2}
        with pytest.raises(RuntimeError, match="first share failed"):
            threads.parallel_gemms(np, failing_first, 6)
        assert set(_blas_thread_counts()) == {2}
        assert not threads.in_parallel_work()


def test_nested_work_in_the_calling_threads_share_runs_inline(three_workers):
    inner_threads = []

    def inner(start: int, stop: int) -> None:
        import threading

        inner_threads.append(threading.current_thread().name)

    def outer(start: int, stop: int) -> bool:
        nested = threads.in_parallel_work()
        threads.parallel_for(inner, 8)  # must not queue behind the busy pool workers
        return nested

    assert threads.parallel_for(outer, 3) == [True, True, True]
    assert len(inner_threads) == 3 and not threads.in_parallel_work()


def test_nothing_is_shared_out_for_one_image_or_inside_parallel_work(three_workers):
    assert threads.parallel_gemms(np, lambda a, b: None, 1) is None
    results = threads.parallel_for(lambda a, b: threads.parallel_gemms(np, lambda c, d: 1, 4), 3)
    assert results == [None, None, None]


def test_small_linear_products_run_on_one_blas_thread(monkeypatch):
    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")
    seen = []

    class Recording(blas_threads.single_threaded_blas):
        def __enter__(self) -> None:
            super().__enter__()
            seen.append(_blas_thread_counts())

    monkeypatch.setattr(blas_threads, "single_threaded_blas", Recording)
    rng = np.random.default_rng(0)
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        x = framework.to_tensor(rng.standard_normal((32, 64)).astype(np.float32))
        x.stop_gradient = False
        layer = framework.nn.Linear(64, 10)
        layer(x).sum().backward()
        assert len(seen) == 3 and all(set(counts) == {1} for counts in seen)  # fwd, gx, gw
        np.testing.assert_allclose(
            x.grad.numpy(), np.tile(layer.weight.numpy().sum(axis=1), (32, 1)), atol=1e-5
        )
        big = framework.nn.Linear(512, 256)
        big(framework.to_tensor(rng.standard_normal((256, 512)).astype(np.float32)))
        assert len(seen) == 3  # 33M multiply-adds: BLAS keeps its threads
        assert set(_blas_thread_counts()) == {2}


def test_lent_threads_give_blas_its_threads_only_while_no_one_else_needs_one():
    if not blas_threads.available():
        pytest.skip("no BLAS library reachable through threadpoolctl")
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        with blas_threads.single_threaded_blas():
            assert set(_blas_thread_counts()) == {1}
            with blas_threads.lent_threads(2):
                assert set(_blas_thread_counts()) == {2}
                with blas_threads.single_threaded_blas():  # another user takes them back
                    assert set(_blas_thread_counts()) == {1}
                assert set(_blas_thread_counts()) == {1}
            assert set(_blas_thread_counts()) == {1}
            with blas_threads.single_threaded_blas(), blas_threads.lent_threads(2):
                assert set(_blas_thread_counts()) == {1}  # two users open: nothing lent
            with blas_threads.lent_threads(8):
                assert set(_blas_thread_counts()) == {2}  # never more than BLAS had before
            with pytest.raises(RuntimeError), blas_threads.lent_threads(2):
                raise RuntimeError("a failing kernel")
            assert set(_blas_thread_counts()) == {1}
        assert set(_blas_thread_counts()) == {2}
        with blas_threads.lent_threads(2):  # outside any single-threaded region: no change
            assert set(_blas_thread_counts()) == {2}
        assert set(_blas_thread_counts()) == {2}
