"""logsigmoid, swiglu, tanh_ and gumbel_softmax: NumPy references, real Paddle parity (values
and dtypes), float64 gradient checks, and statistical tests of the Gumbel-softmax sampler."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 6))
Y = rng.standard_normal((3, 6))


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def silu(a):
    return a / (1.0 + np.exp(-a))


def test_logsigmoid_matches_numpy_and_paddle():
    paddle = pytest.importorskip("paddle")
    x = np.array([-1000.0, -3.0, 0.0, 2.5, 40.0], dtype=np.float32)
    out = F.logsigmoid(tensor(x))
    expected = paddle.nn.functional.logsigmoid(paddle.to_tensor(x)).numpy()
    assert out.numpy().dtype == expected.dtype == np.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(F.logsigmoid(tensor(X)).numpy(), -np.log1p(np.exp(-X)), rtol=1e-12)
    check_backward(F.logsigmoid, [X])
    check_double_backward(F.logsigmoid, [X])


def test_swiglu_matches_numpy_and_paddle_with_and_without_y():
    paddle = pytest.importorskip("paddle")
    np.testing.assert_allclose(F.swiglu(tensor(X), tensor(Y)).numpy(), silu(X) * Y, rtol=1e-12)
    halves = F.swiglu(tensor(X)).numpy()
    np.testing.assert_allclose(halves, silu(X[:, :3]) * X[:, 3:], rtol=1e-12)
    for args in ((X,), (X, Y)):
        args32 = [a.astype(np.float32) for a in args]
        ours = F.swiglu(*[tensor(a) for a in args32]).numpy()
        theirs = paddle.nn.functional.swiglu(*[paddle.to_tensor(a) for a in args32]).numpy()
        assert ours.dtype == theirs.dtype == np.float32
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("with_y", [False, True])
def test_swiglu_gradients_in_float64(with_y):
    if with_y:
        check_backward(F.swiglu, [X, Y])
        check_double_backward(F.swiglu, [X, Y])
    else:
        check_backward(F.swiglu, [X])
        check_double_backward(F.swiglu, [X])


def test_swiglu_rejects_an_odd_last_axis():
    with pytest.raises(ValueError, match="even"):
        F.swiglu(tensor(X[:, :5]))


def test_tanh_inplace_matches_paddle():
    paddle = pytest.importorskip("paddle")
    x32 = X.astype(np.float32)
    ours = tensor(x32)
    returned = F.tanh_(ours)
    assert returned is ours
    theirs = paddle.to_tensor(x32)
    paddle.nn.functional.tanh_(theirs)
    assert ours.numpy().dtype == theirs.numpy().dtype
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def _fixed_noise_gumbel(x, temperature, hard, axis, seed=3):
    framework.seed(seed)
    return F.gumbel_softmax(x, temperature, hard, axis)


@pytest.mark.parametrize("axis", [-1, 0])
def test_gumbel_softmax_is_the_softmax_of_noisy_logits(axis):
    framework.seed(7)
    out = F.gumbel_softmax(tensor(X), temperature=0.7, axis=axis).numpy()
    framework.seed(7)
    u = np.clip(framework.core.random.get_rng().random(X.shape), 1e-300, 1 - 1e-16)
    z = (X - np.log(-np.log(u))) / 0.7
    expected = np.exp(z - z.max(axis, keepdims=True))
    expected /= expected.sum(axis, keepdims=True)
    np.testing.assert_allclose(out, expected, rtol=1e-10)
    np.testing.assert_allclose(out.sum(axis), 1.0, rtol=1e-12)


def test_gumbel_softmax_samples_follow_softmax_of_the_logits():
    framework.seed(0)
    logits = np.log(np.array([0.1, 0.2, 0.3, 0.4]))
    draws = 20000
    out = F.gumbel_softmax(tensor(np.tile(logits, (draws, 1))), hard=True).numpy()
    assert set(np.unique(out)) == {0.0, 1.0}
    np.testing.assert_array_equal(out.sum(-1), 1.0)
    frequency = out.mean(0)
    # Binomial standard error is under 0.0035 per class: 5 sigma bounds.
    np.testing.assert_allclose(frequency, [0.1, 0.2, 0.3, 0.4], atol=0.018)
    soft = F.gumbel_softmax(tensor(np.tile(logits, (draws, 1))), temperature=0.1).numpy()
    np.testing.assert_allclose(soft.argmax(-1).__eq__(3).mean(), 0.4, atol=0.018)


def test_gumbel_softmax_low_temperature_approaches_one_hot():
    framework.seed(1)
    out = F.gumbel_softmax(tensor(X), temperature=1e-3).numpy()
    np.testing.assert_allclose(out.max(-1), 1.0, atol=1e-6)


def test_hard_gumbel_softmax_is_one_hot_with_the_soft_gradient():
    x_hard = tensor(X, stop_gradient=False)
    x_soft = tensor(X, stop_gradient=False)
    hard = _fixed_noise_gumbel(x_hard, 0.5, True, -1)
    soft = _fixed_noise_gumbel(x_soft, 0.5, False, -1)
    np.testing.assert_array_equal(hard.numpy(), np.eye(6)[soft.numpy().argmax(-1)])
    g = rng.standard_normal(X.shape)
    (hard * tensor(g)).sum().backward()
    (soft * tensor(g)).sum().backward()
    np.testing.assert_allclose(x_hard.grad.numpy(), x_soft.grad.numpy(), rtol=1e-12)
    s = soft.numpy()
    expected = s * (g - (g * s).sum(-1, keepdims=True)) / 0.5
    np.testing.assert_allclose(x_soft.grad.numpy(), expected, rtol=1e-10)


def test_gumbel_softmax_gradients_in_float64():
    def fn(x):
        return _fixed_noise_gumbel(x, 0.8, False, 1)

    check_backward(fn, [X])
    check_double_backward(fn, [X])


def test_hard_gumbel_softmax_second_order_gradient_is_the_soft_one():
    g = tensor(rng.standard_normal(X.shape))
    second = []
    for hard in (True, False):
        x = tensor(X, stop_gradient=False)
        out = _fixed_noise_gumbel(x, 0.8, hard, 1)
        (gx,) = framework.grad([(out * g).sum()], [x], create_graph=True)
        (ggx,) = framework.grad([(gx * gx).sum()], [x])
        second.append(ggx.numpy())
    np.testing.assert_allclose(second[0], second[1], rtol=1e-12)


def test_gumbel_softmax_keeps_paddle_shapes_and_dtypes():
    paddle = pytest.importorskip("paddle")
    x32 = X.astype(np.float32)
    for hard in (False, True):
        ours = F.gumbel_softmax(tensor(x32), hard=hard, axis=0).numpy()
        theirs = paddle.nn.functional.gumbel_softmax(
            paddle.to_tensor(x32), hard=hard, axis=0
        ).numpy()
        assert ours.dtype == theirs.dtype == np.float32
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours.sum(0), theirs.sum(0), rtol=1e-5)
    with pytest.raises(ValueError, match="temperature"):
        F.gumbel_softmax(tensor(X), temperature=0.0)
