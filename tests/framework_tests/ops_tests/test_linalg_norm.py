"""norm: vector p-norms over any axes, matrix norms over two axes, gradients, PyTorch parity."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

VECTOR = [
    (None, None, False),
    ("fro", 1, False),
    (2, -1, True),
    (1, 0, False),
    (math.inf, 1, False),
    (-math.inf, None, False),
    (3, [0, 1, 2], True),
    (0.5, 2, False),
    (0, 1, False),
]


def _rand(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _numpy_vector_norm(x, p, axis, keepdim):
    p = 2 if p in (None, "fro") else p
    axes = tuple(range(x.ndim)) if axis is None else tuple(np.atleast_1d(axis))
    a = np.abs(x)
    if p == math.inf:
        out = a.max(axis=axes, keepdims=keepdim)
    elif p == -math.inf:
        out = a.min(axis=axes, keepdims=keepdim)
    elif p == 0:
        out = (a != 0).sum(axis=axes, keepdims=keepdim).astype(x.dtype)
    else:
        out = (a**p).sum(axis=axes, keepdims=keepdim) ** (1 / p)
    return out


@pytest.mark.parametrize("p,axis,keepdim", VECTOR)
def test_vector_norm_matches_numpy_with_gradients(p, axis, keepdim):
    x = _rand((2, 3, 4))
    got = framework.linalg.norm(framework.to_tensor(x), p=p, axis=axis, keepdim=keepdim)
    expected = _numpy_vector_norm(x, p, axis, keepdim)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    assert got.dtype == np.float64
    small = _rand((2, 3))
    small_axis = axis if axis is None or axis in (0, 1, -1) else 1
    check_backward(lambda t: framework.norm(t, p, small_axis, keepdim), [small])
    if p != 0:
        check_double_backward(lambda t: framework.norm(t, p, small_axis, keepdim), [small])


@pytest.mark.parametrize("p", [2, 1, math.inf, 3])
def test_vector_norm_matches_torch(p):
    torch = pytest.importorskip("torch")
    x = _rand((3, 5), dtype=np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    y = framework.norm(ours, p=p, axis=1)
    yt = torch.linalg.vector_norm(theirs, ord=p, dim=1)
    y.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("p", ["fro", 1, -1, math.inf, -math.inf])
@pytest.mark.parametrize("axis", [[0, 1], [2, 0]])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norms_match_torch(p, axis, keepdim):
    torch = pytest.importorskip("torch")
    x = _rand((3, 2, 4))
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    y = framework.norm(ours, p=p, axis=axis, keepdim=keepdim)
    yt = torch.linalg.matrix_norm(theirs, ord=p, dim=tuple(axis), keepdim=keepdim)
    g = _rand(tuple(yt.shape), seed=1)
    y.backward(framework.to_tensor(g))
    yt.backward(torch.tensor(g))
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-10)
    check_backward(lambda t: framework.norm(t, p=p, axis=axis, keepdim=keepdim), [x[:2, :2, :3]])


def test_norm_of_zeros_has_a_zero_gradient():
    x = framework.to_tensor(np.zeros((2, 3)), stop_gradient=False)
    framework.norm(x, axis=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3)))


def test_inf_norm_shares_the_gradient_among_ties():
    x = framework.to_tensor([3.0, -3.0, 1.0], stop_gradient=False)
    framework.norm(x, p=math.inf).backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.5, -0.5, 0.0])


def test_norm_rejects_unsupported_matrix_norms_and_int_inputs():
    with pytest.raises(ValueError, match="not supported"):
        framework.norm(framework.ones([2, 2]), p=3, axis=[0, 1])
    with pytest.raises(TypeError, match="floating point"):
        framework.norm(framework.to_tensor([1, 2]))
    assert framework.norm(framework.to_tensor([3, 4]), dtype="float32").item() == 5.0


def test_norm_method_and_float32():
    x = framework.to_tensor([[3.0, 4.0]])
    assert x.norm().dtype == np.float32 and x.norm().item() == pytest.approx(5.0)
