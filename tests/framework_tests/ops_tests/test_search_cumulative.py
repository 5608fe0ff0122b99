"""cumsum and cumprod: NumPy reference, gradients of two orders, PyTorch parity, zeros."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def _rand(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize(
    "shape,axis", [((5,), 0), ((2, 3), 1), ((2, 3, 2), -2), ((2, 3), None), ((0, 3), 1)]
)
def test_cumsum(shape, axis):
    x = _rand(shape)
    got = framework.cumsum(framework.to_tensor(x), axis=axis)
    np.testing.assert_allclose(got.numpy(), np.cumsum(x, axis=axis))
    assert got.dtype == np.float64
    check_backward(lambda t: framework.cumsum(t, axis), [x])
    check_double_backward(lambda t: framework.cumsum(t * t, axis), [x])


def test_cumsum_dtypes_follow_paddle():
    assert framework.cumsum(framework.to_tensor([1, 2], dtype="int32")).dtype == np.int64
    assert framework.cumsum(framework.to_tensor([True, True])).numpy().tolist() == [1, 2]
    out = framework.cumsum(framework.to_tensor([1, 2], dtype="int32"), dtype="float64")
    assert out.dtype == np.float64
    assert framework.cumsum(framework.to_tensor([1.0], dtype="float16")).dtype == np.float16


@pytest.mark.parametrize("axis", [0, 1])
def test_cumsum_and_cumprod_match_torch(axis):
    torch = pytest.importorskip("torch")
    x = _rand((3, 4), dtype=np.float32)
    for ours_op, torch_op in ((framework.cumsum, torch.cumsum), (framework.cumprod, torch.cumprod)):
        ours = framework.to_tensor(x, stop_gradient=False)
        theirs = torch.tensor(x, requires_grad=True)
        y, yt = ours_op(ours, axis), torch_op(theirs, axis)
        g = _rand((3, 4), seed=1, dtype=np.float32)
        y.backward(framework.to_tensor(g))
        yt.backward(torch.tensor(g))
        np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape,dim", [((5,), 0), ((2, 3), 1), ((3, 2), 0), ((2, 3), None)])
def test_cumprod(shape, dim):
    x = _rand(shape) + 2.0
    got = framework.cumprod(framework.to_tensor(x), dim=dim)
    np.testing.assert_allclose(got.numpy(), np.cumprod(x, axis=dim))
    check_backward(lambda t: framework.cumprod(t, dim), [x])
    check_double_backward(lambda t: framework.cumprod(t, dim), [x])


@pytest.mark.parametrize(
    "row",
    [[2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 3.0, 0.5], [1.5, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
)
def test_cumprod_gradient_through_zeros_matches_torch(row):
    torch = pytest.importorskip("torch")
    x = np.array([row, [1.0, 2.0, 3.0, 4.0]])
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    g = _rand((2, 4), seed=3)
    framework.cumprod(ours, dim=1).backward(framework.to_tensor(g))
    torch.cumprod(theirs, 1).backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-12, atol=1e-12)
    check_backward(lambda t: framework.cumprod(t, 1), [x])


def test_cumprod_keeps_int_dtype():
    out = framework.cumprod(framework.to_tensor([1, 2, 3], dtype="int32"), dim=0)
    assert out.dtype == np.int32 and out.numpy().tolist() == [1, 2, 6]


ROWS_WITH_ZEROS = [
    [2.0, 0.0, 3.0, 4.0],
    [0.0, 2.0, 0.0, 0.5],
    [1.5, 2.0, 0.0, 0.0],
    [1.5, 0.0, 2.0, 0.0, 3.0],
]


@pytest.mark.parametrize("row", ROWS_WITH_ZEROS)
def test_cumprod_double_backward_through_zeros(row):
    x = np.array([row, np.arange(1.0, len(row) + 1)])
    check_double_backward(lambda t: framework.cumprod(t, 1), [x])
    check_double_backward(lambda t: framework.cumprod(t, 0), [x.T.copy()])


@pytest.mark.parametrize("row", ROWS_WITH_ZEROS)
def test_cumprod_double_backward_through_zeros_matches_torch(row):
    torch = pytest.importorskip("torch")
    x = np.array([row, np.arange(1.0, len(row) + 1)])
    g, v = _rand(x.shape, seed=4), _rand(x.shape, seed=5)
    ours = framework.to_tensor(x, stop_gradient=False)
    (gx,) = framework.grad(
        framework.cumprod(ours, dim=1), ours, framework.to_tensor(g), create_graph=True
    )
    (hv,) = framework.grad(gx, ours, framework.to_tensor(v))
    theirs = torch.tensor(x, requires_grad=True)
    (gxt,) = torch.autograd.grad(
        torch.cumprod(theirs, 1), theirs, torch.tensor(g), create_graph=True
    )
    (hvt,) = torch.autograd.grad(gxt, theirs, torch.tensor(v))
    np.testing.assert_allclose(gx.numpy(), gxt.detach().numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hv.numpy(), hvt.numpy(), rtol=1e-10, atol=1e-12)


def test_cumprod_complex_double_backward_through_zeros():
    x = np.array([[1.0 + 1.0j, 0.0, 2.0 - 1.0j, 0.0, 0.5j]])
    check_double_backward(lambda t: framework.cumprod(t, 1), [x])


def test_cumprod_double_backward_with_many_zeros_matches_torch():
    # Hundreds of zeros in a line (torch's double backward is quadratic in the length, ours a
    # fixed number of passes).
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 400)) * (rng.random((2, 400)) < 0.5)
    x[:, :3] = [0.5, 0.0, 2.0]
    g, v = rng.standard_normal(x.shape), rng.standard_normal(x.shape)
    ours = framework.to_tensor(x, stop_gradient=False)
    (gx,) = framework.grad(
        framework.cumprod(ours, dim=1), ours, framework.to_tensor(g), create_graph=True
    )
    (hv,) = framework.grad(gx, ours, framework.to_tensor(v))
    theirs = torch.tensor(x, requires_grad=True)
    (gxt,) = torch.autograd.grad(
        torch.cumprod(theirs, 1), theirs, torch.tensor(g), create_graph=True
    )
    (hvt,) = torch.autograd.grad(gxt, theirs, torch.tensor(v))
    np.testing.assert_allclose(gx.numpy(), gxt.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hv.numpy(), hvt.numpy(), rtol=1e-10, atol=1e-12)
