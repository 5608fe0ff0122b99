"""F.lp_pool1d / F.lp_pool2d and LPPool1D / LPPool2D: NumPy reference, gradients of two
orders, real Paddle parity (padding, ceil_mode, channel-last, p = 1, 2, 3, 1.5, inf), reprs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X2 = rng.standard_normal((2, 3, 5, 6)).astype(np.float32)
POSITIVE = (np.abs(X2) + 0.5).astype(np.float64)


def _numpy_lp_pool2d(x: np.ndarray, p: float, k: int, s: int) -> np.ndarray:
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = x[:, :, i * s : i * s + k, j * s : j * s + k]
            out[:, :, i, j] = (window**p).sum((2, 3)) ** (1 / p)
    return out


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, 1.5])
def test_lp_pool2d_matches_numpy_and_has_gradients(p):
    got = F.lp_pool2d(framework.to_tensor(POSITIVE), p, 2, stride=1)
    np.testing.assert_allclose(got.numpy(), _numpy_lp_pool2d(POSITIVE, p, 2, 1), rtol=1e-12)
    small = POSITIVE[:1, :2, :4, :4]
    check_backward(lambda t: F.lp_pool2d(t, p, 2, stride=1, padding=1), [small])
    check_double_backward(lambda t: F.lp_pool2d(t, p, 3, stride=2, ceil_mode=True), [small])


def test_lp_pool1d_has_gradients_and_inf_is_max_pooling():
    x = POSITIVE[:, :, 0]
    check_backward(lambda t: F.lp_pool1d(t, 2, 3, stride=2, padding=1), [x])
    check_double_backward(lambda t: F.lp_pool1d(t, 3, 2), [x[:1]])
    np.testing.assert_array_equal(
        F.lp_pool1d(framework.to_tensor(x), float("inf"), 2).numpy(),
        F.max_pool1d(framework.to_tensor(x), 2).numpy(),
    )


CASES = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=[2, 3], stride=1, padding="SAME"),
    dict(kernel_size=2, stride=1, padding=[1, 0], data_format="NHWC"),
]


@pytest.mark.parametrize("p", [1, 2, 3, 1.5, float("inf")])
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lp_pool_matches_paddle(p, case, dtype):
    paddle = pytest.importorskip("paddle")
    kwargs = CASES[case]
    x = X2.astype(dtype)
    ours = F.lp_pool2d(framework.to_tensor(x), p, **kwargs)
    theirs = paddle.nn.functional.lp_pool2d(paddle.to_tensor(x), p, **kwargs)
    _assert_same(ours, theirs)
    one_d = {
        k: (v[0] if k == "kernel_size" and isinstance(v, list) else v) for k, v in kwargs.items()
    }
    one_d["data_format"] = "NLC" if "data_format" in kwargs else "NCL"
    x1 = np.ascontiguousarray(x[:, :, 0])
    ours = F.lp_pool1d(framework.to_tensor(x1), p, **one_d)
    theirs = paddle.nn.functional.lp_pool1d(paddle.to_tensor(x1), p, **one_d)
    _assert_same(ours, theirs)


def _assert_same(ours, theirs):
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    # an odd power over negative inputs gives NaN windows in both
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-5, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize(
    "build",
    [
        lambda m: m.LPPool2D(2, 3),
        lambda m: m.LPPool2D(3.0, [2, 3], stride=1, padding=1, ceil_mode=True),
        lambda m: m.LPPool1D(2, 3, padding=1),
        lambda m: m.LPPool1D(1.5, 2, stride=1, data_format="NLC"),
    ],
)
def test_layers_match_paddle_with_equal_reprs(build):
    paddle = pytest.importorskip("paddle")
    ours, theirs = build(nn), build(paddle.nn)
    x = X2 if isinstance(ours, nn.LPPool2D) else np.ascontiguousarray(X2[:, :, 0])
    _assert_same(ours(framework.to_tensor(x)), theirs(paddle.to_tensor(x)))
    assert repr(ours) == repr(theirs)
    assert nn.LPPool1d is nn.LPPool1D and nn.LPPool2d is nn.LPPool2D


def test_it_rejects_bad_arguments():
    x = framework.to_tensor(X2)
    with pytest.raises(ValueError, match="norm_type must be positive"):
        F.lp_pool2d(x, 0, 2)
    with pytest.raises(ValueError, match="data_format"):
        F.lp_pool2d(x, 2, 2, data_format="NCL")
    with pytest.raises(ValueError, match="3-D input"):
        F.lp_pool1d(x, 2, 2)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_the_gradient_matches_paddle(p):
    paddle = pytest.importorskip("paddle")
    x = POSITIVE.astype(np.float32)
    g = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = paddle.to_tensor(x, stop_gradient=False)
    (F.lp_pool2d(ours, p, 3, stride=2, padding=1) * framework.to_tensor(g)).sum().backward()
    pooled = paddle.nn.functional.lp_pool2d(theirs, p, 3, stride=2, padding=1)
    (pooled * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-6)
