"""F.bilinear: NumPy einsum reference, gradients of two orders in every input, PyTorch and
PaddlePaddle parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)
X1 = RNG.standard_normal((4, 5)).astype(np.float32)
X2 = RNG.standard_normal((4, 6)).astype(np.float32)
W = RNG.standard_normal((3, 5, 6)).astype(np.float32)
B = RNG.standard_normal((1, 3)).astype(np.float32)


def _t(a):
    return framework.to_tensor(np.asarray(a))


@pytest.mark.parametrize("bias_shape", [None, (1, 3), (3,)])
def test_bilinear_matches_einsum_and_has_gradients(bias_shape):
    x1, x2, w = (a.astype(np.float64) for a in (X1, X2, W))
    bias = None if bias_shape is None else B.astype(np.float64).reshape(bias_shape)
    got = F.bilinear(_t(x1), _t(x2), _t(w), None if bias is None else _t(bias))
    want = np.einsum("bi,oij,bj->bo", x1, w, x2) + (0 if bias is None else bias.reshape(1, 3))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    assert got.shape == [4, 3] and got.dtype == np.float64
    inputs = [x1, x2, w] + ([] if bias is None else [bias])
    check_backward(lambda *ts: F.bilinear(*ts), inputs)
    check_double_backward(lambda *ts: F.bilinear(*ts), inputs)


def test_bilinear_matches_torch_values_and_gradients():
    torch = pytest.importorskip("torch")
    ours = [framework.to_tensor(a, stop_gradient=False) for a in (X1, X2, W, B[0])]
    theirs = [torch.tensor(a, requires_grad=True) for a in (X1, X2, W, B[0])]
    y, yt = F.bilinear(*ours), torch.nn.functional.bilinear(*theirs)
    y.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-5, atol=1e-5)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("with_bias", [False, True])
def test_bilinear_matches_paddle(with_bias):
    paddle = pytest.importorskip("paddle")

    def run(f, m):
        return f.bilinear(
            m.to_tensor(X1), m.to_tensor(X2), m.to_tensor(W), m.to_tensor(B) if with_bias else None
        )

    ours, theirs = run(F, framework), run(paddle.nn.functional, paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-5)


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match=r"x1 \[B, in1\]"):
        F.bilinear(_t(X1[0]), _t(X2), _t(W))
    with pytest.raises(ValueError, match="do not fit weight"):
        F.bilinear(_t(X2), _t(X1), _t(W))
    with pytest.raises(ValueError, match="do not fit weight"):
        F.bilinear(_t(X1[:3]), _t(X2), _t(W))
    with pytest.raises(ValueError, match="bias must have 3"):
        F.bilinear(_t(X1), _t(X2), _t(W), _t(np.ones(4, np.float32)))
