"""`clear_grad(set_to_zero=True)` zeroes the gradient buffer in place and the next backward adds
into it, with the same values as fresh gradients; gradients it did not make are never written."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.optimizer import SGD


def _loss(w, x):
    return ((w * x).sum() ** 2) * 0.5


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradients_cleared_to_zero_are_reused_and_exact(dtype):
    rng = np.random.default_rng(0)
    w = framework.create_parameter([3, 4], dtype, default_initializer=None)
    w.set_value(rng.standard_normal((3, 4)).astype(dtype))
    x = framework.to_tensor(rng.standard_normal((3, 4)).astype(dtype))
    opt = SGD(0.0, parameters=[w])
    _loss(w, x).backward()
    first = w.grad.numpy().copy()
    opt.clear_grad()  # Paddle's default: zeros
    buffer = w.grad
    assert buffer._data.dtype == np.dtype(dtype) and not buffer.numpy().any()
    for _ in range(2):
        _loss(w, x).backward()
        assert w.grad is buffer  # accumulated in place, not a new array
        np.testing.assert_allclose(w.grad.numpy(), first, rtol=1e-6)
        opt.clear_grad()
        assert w.grad is buffer and not buffer.numpy().any()
    _loss(w, x).backward()
    _loss(w, x).backward()  # without clearing: the two add up
    np.testing.assert_allclose(w.grad.numpy(), 2 * first, rtol=1e-6)


def test_a_gradient_set_by_the_user_is_not_written_in_place():
    w = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    mine = framework.to_tensor([5.0, 5.0])
    w.grad = mine
    (w * 3.0).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [8.0, 8.0])
    np.testing.assert_allclose(mine.numpy(), [5.0, 5.0])
    w.grad = mine
    w.clear_grad(set_to_zero=True)
    np.testing.assert_allclose(mine.numpy(), [5.0, 5.0])
    assert w.grad is not mine and not w.grad.numpy().any()


def test_hooks_retain_graph_and_double_backward_with_zeroed_gradients():
    x = framework.to_tensor([1.0, -2.0], stop_gradient=False)
    x.register_hook(lambda g: g * 2.0)
    y = (x * x * x).sum()
    y.backward(retain_graph=True)
    x.clear_grad(set_to_zero=True)
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), 2 * 3 * np.array([1.0, 4.0]))
    x.clear_grad(set_to_zero=True)
    (gx,) = framework.grad(y, [x], create_graph=True)
    gx.sum().backward()  # d/dx of 2 * 3x^2 summed: 12x, into the zeroed buffer
    np.testing.assert_allclose(x.grad.numpy(), 2 * 12 * np.array([1.0, -2.0]))


def test_a_replaced_gradient_array_is_not_reused():
    w = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    (w * 2.0).sum().backward()
    w.clear_grad(set_to_zero=True)
    grad = w.grad
    outside = np.ones(2, dtype=np.float32)
    grad._data = outside  # the Tensor now wraps someone else's array
    (w * 2.0).sum().backward()
    np.testing.assert_allclose(outside, [1.0, 1.0])
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 3.0])
