"""F.adaptive_log_softmax_with_loss and nn.AdaptiveLogSoftmaxWithLoss: NumPy reference of the
two-level log probabilities, gradients of two orders, and real Paddle parity (with Paddle's
head state dict and its tail weights copied in) of outputs, loss, log_prob and predict."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((7, 8)).astype(np.float32)
Y = np.array([0, 4, 9, 2, 5, 7, 1])
CUTOFFS = [3, 6, 10]


def _weights(dtype=np.float64):
    head_w = rng.standard_normal((8, 5)).astype(dtype)
    head_b = rng.standard_normal(5).astype(dtype)
    tails = [rng.standard_normal(s).astype(dtype) for s in [(8, 2), (2, 3), (8, 1), (1, 4)]]
    return head_w, head_b, tails


def _numpy_log_prob(x, head_w, head_b, tails):
    def log_softmax(z):
        z = z - z.max(1, keepdims=True)
        return z - np.log(np.exp(z).sum(1, keepdims=True))

    head = log_softmax(x @ head_w + head_b)
    parts = [head[:, :3]]
    for i in range(2):
        parts.append(log_softmax(x @ tails[2 * i] @ tails[2 * i + 1]) + head[:, 3 + i : 4 + i])
    return np.concatenate(parts, axis=1)


def _call(x, y, head_w, head_b, tails, module=framework):
    t = module.to_tensor
    pairs = [[t(tails[0]), t(tails[1])], [t(tails[2]), t(tails[3])]]
    functional = F if module is framework else module.nn.functional
    return functional.adaptive_log_softmax_with_loss(
        t(x), t(y), t(head_w), pairs, CUTOFFS, t(head_b)
    )


def test_it_matches_numpy():
    head_w, head_b, tails = _weights()
    x = X.astype(np.float64)
    output, loss = _call(x, Y, head_w, head_b, tails)
    want = _numpy_log_prob(x, head_w, head_b, tails)[np.arange(7), Y]
    np.testing.assert_allclose(output.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(loss.numpy(), -want.mean(), rtol=1e-10)


def test_it_has_gradients_of_two_orders():
    head_w, head_b, tails = _weights()
    label = framework.to_tensor(Y[:5])

    def loss(x, hw, hb, a, b, c, d):
        return F.adaptive_log_softmax_with_loss(x, label, hw, [[a, b], [c, d]], CUTOFFS, hb)

    inputs = [X[:5].astype(np.float64), head_w, head_b, *tails]
    check_backward(loss, inputs)
    rest = [framework.to_tensor(a) for a in inputs[2:]]
    check_double_backward(lambda x, hw: loss(x, hw, *rest)[1], inputs[:2])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_functional_matches_paddle(dtype):
    paddle = pytest.importorskip("paddle")
    head_w, head_b, tails = _weights(dtype)
    x = X.astype(dtype)
    ours, theirs = _call(x, Y, head_w, head_b, tails), _call(x, Y, head_w, head_b, tails, paddle)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == list(b.shape) and str(a.dtype).split(".")[-1] == dtype
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    single = F.adaptive_log_softmax_with_loss(
        framework.to_tensor(x[0]),
        framework.to_tensor(np.array(5)),
        framework.to_tensor(head_w),
        [
            [framework.to_tensor(tails[0]), framework.to_tensor(tails[1])],
            [framework.to_tensor(tails[2]), framework.to_tensor(tails[3])],
        ],
        CUTOFFS,
    )
    assert single[0].shape == []


def test_the_layer_matches_paddle_with_its_weights():
    paddle = pytest.importorskip("paddle")
    theirs = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], head_bias=True, div_value=2.0)
    ours = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], head_bias=True, div_value=2.0)
    missing, unexpected = ours.set_state_dict(
        {k: v.numpy() for k, v in theirs.state_dict().items()}
    )
    assert unexpected == [] and missing == [
        "tail_weights.0.0",
        "tail_weights.0.1",
        "tail_weights.1.0",
        "tail_weights.1.1",
    ]  # Paddle's state dict has no tails
    for i, pair in enumerate(theirs.tail_weights):
        for j, weight in enumerate(pair):
            ours.tail_weights[i][j].set_value(weight.numpy())
    x, y = framework.to_tensor(X), framework.to_tensor(Y)
    px, py = paddle.to_tensor(X), paddle.to_tensor(Y)
    for a, b in zip(ours(x, y), theirs(px, py), strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        ours.log_prob(x).numpy(), theirs.log_prob(px).numpy(), rtol=1e-5, atol=1e-6
    )
    got, want = ours.predict(x), theirs.predict(px)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert len(ours.parameters()) == 6  # the tails train here too


def test_it_rejects_bad_arguments():
    with pytest.raises(ValueError, match="cutoffs should be"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])
    layer = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])
    with pytest.raises(ValueError, match="label values should be in"):
        layer(framework.to_tensor(X), framework.to_tensor(Y + 1))
    with pytest.raises(ValueError, match="same batch size"):
        layer(framework.to_tensor(X), framework.to_tensor(Y[:3]))
