"""F.fractional_max_pool2d/3d and FractionalMaxPool2D/3D: a NumPy loop over Paddle's window
rule, real Paddle parity of values, masks and dtypes for disjoint and overlapping windows,
gradients of two orders, reprs and errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X2 = rng.standard_normal((2, 3, 7, 7)).astype(np.float32)
X3 = rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)


def _numpy_windows(size, out, u):
    """The disjoint-window rule of Paddle's kernel for one axis, written out as a loop."""
    alpha = np.float32(size) / np.float32(out)
    base = size // out
    scale = min(np.float32(base + 2) / alpha - 1, np.float32(size + 1 - base) / alpha - (out - 1))
    u = np.float32(u) * scale
    return [
        (
            int((i + u) * alpha) - int(u * alpha),
            min(int((i + 1 + u) * alpha) - int(u * alpha), size),
        )
        for i in range(out)
    ]


def test_fractional_max_pool2d_matches_a_numpy_loop():
    got = F.fractional_max_pool2d(framework.to_tensor(X2), [3, 4], random_u=0.3)
    want = np.empty((2, 3, 3, 4), np.float32)
    for i, (h0, h1) in enumerate(_numpy_windows(7, 3, 0.3)):
        for j, (w0, w1) in enumerate(_numpy_windows(7, 4, 0.3)):
            want[:, :, i, j] = X2[:, :, h0:h1, w0:w1].max((2, 3))
    np.testing.assert_array_equal(got.numpy(), want)


CASES_2D = [([3, 4], None, 0.3), ([5, 5], None, 0.77), ([None, 3], None, 0.1), ([3, 3], 2, 0.5)]
CASES_2D += [([2, 4], [2, 3], 0.99), (1, 1, 0.5)]
CASES_3D = [([3, 3, 3], None, 0.3), ([2, 4, 5], None, 0.6), ([3, 3, 1], [1, 2, 2], 0.2)]


@pytest.mark.parametrize("output_size, kernel_size, u", CASES_2D)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fractional_max_pool2d_matches_paddle(output_size, kernel_size, u, dtype):
    paddle = pytest.importorskip("paddle")
    x = X2.astype(dtype)
    ours = F.fractional_max_pool2d(framework.to_tensor(x), output_size, kernel_size, u, True)
    theirs = paddle.nn.functional.fractional_max_pool2d(
        paddle.to_tensor(x), output_size, kernel_size, u, True
    )
    _same(ours, theirs)


@pytest.mark.parametrize("output_size, kernel_size, u", CASES_3D)
def test_fractional_max_pool3d_matches_paddle(output_size, kernel_size, u):
    paddle = pytest.importorskip("paddle")
    ours = F.fractional_max_pool3d(framework.to_tensor(X3), output_size, kernel_size, u, True)
    theirs = paddle.nn.functional.fractional_max_pool3d(
        paddle.to_tensor(X3), output_size, kernel_size, u, True
    )
    _same(ours, theirs)


def _same(ours, theirs):
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == list(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_gradients_of_two_orders_reach_the_winners():
    x2 = X2[:1, :2].astype(np.float64)
    check_backward(lambda t: F.fractional_max_pool2d(t, [3, 4], random_u=0.4), [x2])
    check_backward(lambda t: F.fractional_max_pool2d(t, 3, kernel_size=3, random_u=0.6), [x2])
    check_double_backward(lambda t: F.fractional_max_pool2d(t * t, [3, 4], random_u=0.4), [x2])
    x3 = X3[:, :1, :4, :4, :4].astype(np.float64)
    check_backward(lambda t: F.fractional_max_pool3d(t, [2, 3, 2], random_u=0.7), [x3])


def test_the_gradient_matches_paddle():
    paddle = pytest.importorskip("paddle")
    ours = framework.to_tensor(X2, stop_gradient=False)
    theirs = paddle.to_tensor(X2, stop_gradient=False)
    g = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    (F.fractional_max_pool2d(ours, 3, 2, 0.5) * framework.to_tensor(g)).sum().backward()
    (
        paddle.nn.functional.fractional_max_pool2d(theirs, 3, 2, 0.5) * paddle.to_tensor(g)
    ).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-6)


def test_layers_match_paddle_and_an_unset_u_draws_valid_windows():
    paddle = pytest.importorskip("paddle")
    ours = nn.FractionalMaxPool2D([3, 4], random_u=0.3, return_mask=True)
    theirs = paddle.nn.FractionalMaxPool2D([3, 4], random_u=0.3, return_mask=True)
    _same(ours(framework.to_tensor(X2)), theirs(paddle.to_tensor(X2)))
    assert repr(ours) == repr(theirs)
    layer3 = nn.FractionalMaxPool3D(3, random_u=0.5)
    _same(
        [layer3(framework.to_tensor(X3))],
        [paddle.nn.FractionalMaxPool3D(3, random_u=0.5)(paddle.to_tensor(X3))],
    )
    y, mask = F.fractional_max_pool2d(framework.to_tensor(X2), [3, 4], return_mask=True)
    flat = X2.reshape(2, 3, -1)
    np.testing.assert_array_equal(
        y.numpy(), np.take_along_axis(flat, mask.numpy().reshape(2, 3, -1), 2).reshape(2, 3, 3, 4)
    )


def test_it_rejects_bad_arguments():
    x = framework.to_tensor(X2)
    with pytest.raises(ValueError, match="random_u must be a float in"):
        F.fractional_max_pool2d(x, 3, random_u=1.0)
    with pytest.raises(ValueError, match="does not fit the input"):
        F.fractional_max_pool2d(x, 6, kernel_size=3, random_u=0.5)
    with pytest.raises(ValueError, match="4-D"):
        F.fractional_max_pool2d(framework.to_tensor(X3), 3)
