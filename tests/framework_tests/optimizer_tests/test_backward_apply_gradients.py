"""`Optimizer.backward` and `Optimizer.apply_gradients`, the two halves of `minimize`, as
Paddle's dynamic mode has them: backward collects the gradients already computed,
apply_gradients clips, decays and applies the pairs it is given."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.nn import ClipGradByGlobalNorm
from framework.optimizer import SGD, Adam

X = np.arange(6, dtype=np.float32).reshape(2, 3) / 6


def model_and_loss():
    framework.seed(1)
    linear = framework.nn.Linear(3, 2)
    loss = linear(framework.to_tensor(X)).mean()
    return linear, loss


def test_it_runs_no_autograd_and_collects_the_gradients_already_there():
    linear, loss = model_and_loss()
    opt = SGD(0.1, parameters=linear.parameters())
    assert opt.backward(loss) == []
    loss.backward()
    pairs = opt.backward(loss)
    assert [p for p, _ in pairs] == [linear.weight, linear.bias]
    assert all(g is p.grad for p, g in pairs)


def test_it_takes_parameters_by_tensor_or_name_and_honours_no_grad_set():
    linear, loss = model_and_loss()
    loss.backward()
    opt = SGD(0.1, parameters=linear.parameters())
    assert [p for p, _ in opt.backward(loss, parameters=[linear.bias])] == [linear.bias]
    assert [p for p, _ in opt.backward(loss, parameters=[linear.weight.name])] == [linear.weight]
    assert [p for p, _ in opt.backward(loss, no_grad_set={linear.weight})] == [linear.bias]
    assert [p for p, _ in opt.backward(loss, no_grad_set={linear.bias.name})] == [linear.weight]


def test_apply_gradients_uses_the_given_gradients_not_the_parameters_own():
    linear, loss = model_and_loss()
    loss.backward()
    opt = SGD(0.5, parameters=linear.parameters())
    before = linear.weight.numpy().copy()
    pairs = opt.backward(loss)
    assert opt.apply_gradients([(p, g * 2.0) for p, g in pairs]) == []
    expected = before - 0.5 * 2.0 * linear.weight.grad.numpy()
    np.testing.assert_allclose(linear.weight.numpy(), expected, rtol=1e-6)


def test_apply_gradients_follows_each_parameters_group():
    linear, loss = model_and_loss()
    loss.backward()
    groups = [{"params": [linear.weight]}, {"params": [linear.bias], "learning_rate": 0.1}]
    opt = SGD(1.0, parameters=groups)
    bias = linear.bias.numpy().copy()
    opt.apply_gradients(opt.backward(loss))
    np.testing.assert_allclose(linear.bias.numpy(), bias - 0.1 * linear.bias.grad.numpy())


def test_backward_then_apply_gradients_equals_paddle_with_clip_and_decay():
    paddle = pytest.importorskip("paddle")
    ours, loss = model_and_loss()
    theirs = paddle.nn.Linear(3, 2)
    theirs.weight.set_value(ours.weight.numpy())
    theirs.bias.set_value(ours.bias.numpy())
    their_loss = theirs(paddle.to_tensor(X)).mean()
    opt = Adam(
        0.1, parameters=ours.parameters(), weight_decay=0.01, grad_clip=ClipGradByGlobalNorm(0.05)
    )
    their_opt = paddle.optimizer.Adam(
        0.1,
        parameters=theirs.parameters(),
        weight_decay=0.01,
        grad_clip=paddle.nn.ClipGradByGlobalNorm(0.05),
    )
    loss.backward()
    their_loss.backward()
    assert opt.apply_gradients(opt.backward(loss)) == []
    assert their_opt.apply_gradients(their_opt.backward(their_loss)) == []
    np.testing.assert_allclose(ours.weight.numpy(), theirs.weight.numpy(), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ours.bias.numpy(), theirs.bias.numpy(), rtol=1e-5, atol=1e-7)
