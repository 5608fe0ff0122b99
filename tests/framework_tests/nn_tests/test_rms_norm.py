"""rms_norm: NumPy reference, PyTorch parity (Paddle 3.3's kernel is CUDA-only, so the CPU
oracle is torch.nn.functional.rms_norm), Paddle's `(out, invvar)` return, float64 gradient
checks of first and second order."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 3, 4))
W = rng.standard_normal(4)
W2 = rng.standard_normal((3, 4))


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


@pytest.mark.parametrize(("shape", "weight"), [([4], W), ([3, 4], W2), ([4], None), (4, None)])
def test_rms_norm_matches_numpy(shape, weight):
    out, invvar = F.rms_norm(tensor(X), shape, None if weight is None else tensor(weight))
    axes = (-1,) if shape in ([4], 4) else (-2, -1)
    expected_inv = 1.0 / np.sqrt((X * X).mean(axis=axes, keepdims=True) + 1e-5)
    expected = X * expected_inv * (1.0 if weight is None else weight)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(invvar.numpy(), expected_inv.reshape(invvar.shape), rtol=1e-12)
    assert invvar.shape == list(X.shape[: X.ndim - len(axes)])


def test_rms_norm_matches_pytorch_values_and_gradients():
    torch = pytest.importorskip("torch")
    ours = [tensor(X, stop_gradient=False), tensor(W2, stop_gradient=False)]
    theirs = [torch.tensor(X, requires_grad=True), torch.tensor(W2, requires_grad=True)]
    out, _ = F.rms_norm(ours[0], [3, 4], ours[1], eps=1e-6)
    expected = torch.nn.functional.rms_norm(theirs[0], [3, 4], theirs[1], eps=1e-6)
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-12)
    g = rng.standard_normal(X.shape)
    out.backward(tensor(g))
    expected.backward(torch.tensor(g))
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_rms_norm_float32_keeps_the_dtype_and_matches_paddles_signature():
    paddle = pytest.importorskip("paddle")
    import inspect

    ours = list(inspect.signature(F.rms_norm).parameters)
    assert ours == list(inspect.signature(paddle.nn.functional.rms_norm).parameters)
    out, invvar = F.rms_norm(tensor(X.astype(np.float32)), [4], tensor(W.astype(np.float32)))
    assert out.dtype == invvar.dtype == framework.float32


def test_rms_norm_gradients_in_float64():
    def fn(x, w):
        return F.rms_norm(x, [4], w)[0]

    check_backward(fn, [X, W])
    check_double_backward(fn, [X, W])


def test_rms_norm_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match="normalized_shape"):
        F.rms_norm(tensor(X), [5])
    with pytest.raises(ValueError, match="weight"):
        F.rms_norm(tensor(X), [4], tensor(W2))
