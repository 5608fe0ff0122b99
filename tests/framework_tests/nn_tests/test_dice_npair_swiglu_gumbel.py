"""F.dice_loss, F.npair_loss, F.swiglu, F.gumbel_softmax and the aliases F.tanh_ / F.logsigmoid:
NumPy references, gradients of two orders (for a fixed Gumbel draw), real Paddle parity of
values and dtypes (distributions only, for the random one)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
LOGITS = rng.standard_normal((2, 3, 3, 4))
PROBS = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
LABEL = rng.integers(0, 4, (2, 3, 3, 1))
A, P = rng.standard_normal((5, 6)), rng.standard_normal((5, 6))
PAIR_LABELS = np.array([0, 1, 2, 1, 0])


def _numpy_dice(p, label):
    target = np.eye(p.shape[-1])[label[..., 0]]
    axes = tuple(range(1, p.ndim))
    overlap = (p * target).sum(axes)
    return (1 - 2 * overlap / (p.sum(axes) + target.sum(axes) + 1e-5)).mean()


def _numpy_npair(a, p, labels, l2_reg=0.002):
    same = (labels[:, None] == labels[None, :]).astype(float)
    targets = same / same.sum(1, keepdims=True)
    sim = a @ p.T
    log_sm = (
        sim
        - np.log(np.exp(sim - sim.max(1, keepdims=True)).sum(1, keepdims=True))
        - sim.max(1, keepdims=True)
    )
    row_ce = -(targets * log_sm).sum(1, keepdims=True)
    l2 = (a**2).sum(1).mean() + (p**2).sum(1).mean()
    return l2 * 0.25 * l2_reg + (targets * row_ce).sum(0).mean()


def test_dice_loss_matches_numpy_and_has_gradients():
    label = framework.to_tensor(LABEL)
    got = F.dice_loss(framework.to_tensor(PROBS), label)
    np.testing.assert_allclose(got.numpy(), _numpy_dice(PROBS, LABEL), rtol=1e-10)
    check_backward(lambda t: F.dice_loss(t, label), [PROBS])
    check_double_backward(lambda t: F.dice_loss(t, label), [PROBS])


def test_npair_loss_matches_numpy_and_has_gradients():
    labels = framework.to_tensor(PAIR_LABELS)
    got = F.npair_loss(framework.to_tensor(A), framework.to_tensor(P), labels)
    np.testing.assert_allclose(got.numpy(), _numpy_npair(A, P, PAIR_LABELS), rtol=1e-10)
    check_backward(lambda a, p: F.npair_loss(a, p, labels, l2_reg=0.1), [A, P])
    check_double_backward(lambda a, p: F.npair_loss(a, p, labels), [A, P])


def test_swiglu_matches_numpy_and_has_gradients():
    x = rng.standard_normal((3, 8))
    silu = x[:, :4] / (1 + np.exp(-x[:, :4]))
    np.testing.assert_allclose(
        F.swiglu(framework.to_tensor(x)).numpy(), silu * x[:, 4:], rtol=1e-12
    )
    check_backward(lambda t: F.swiglu(t), [x])
    check_double_backward(lambda a, b: F.swiglu(a, b), [x, x[::-1].copy()])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_deterministic_ones_match_paddle(dtype):
    paddle = pytest.importorskip("paddle")
    pf = paddle.nn.functional
    cases = [
        (
            F.dice_loss(framework.to_tensor(PROBS.astype(dtype)), framework.to_tensor(LABEL)),
            pf.dice_loss(paddle.to_tensor(PROBS.astype(dtype)), paddle.to_tensor(LABEL)),
        ),
        (
            F.swiglu(framework.to_tensor(A.astype(dtype))),
            pf.swiglu(paddle.to_tensor(A.astype(dtype))),
        ),
        (
            F.swiglu(framework.to_tensor(A.astype(dtype)), framework.to_tensor(P.astype(dtype))),
            pf.swiglu(paddle.to_tensor(A.astype(dtype)), paddle.to_tensor(P.astype(dtype))),
        ),
        (
            F.logsigmoid(framework.to_tensor(A.astype(dtype))),
            pf.logsigmoid(paddle.to_tensor(A.astype(dtype))),
        ),
    ]
    if dtype == "float32":  # Paddle's npair_loss mixes in float32 and fails on float64
        ours = F.npair_loss(
            framework.to_tensor(A.astype(dtype)),
            framework.to_tensor(P.astype(dtype)),
            framework.to_tensor(PAIR_LABELS),
        )
        theirs = pf.npair_loss(
            paddle.to_tensor(A.astype(dtype)),
            paddle.to_tensor(P.astype(dtype)),
            paddle.to_tensor(PAIR_LABELS),
        )
        cases.append((ours, theirs))
    for ours, theirs in cases:
        assert ours.shape == list(theirs.shape)
        assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_tanh_inplace_writes_into_its_input():
    x = framework.to_tensor(A.copy())
    out = F.tanh_(x)
    np.testing.assert_allclose(x.numpy(), np.tanh(A), rtol=1e-12)
    assert out is x


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_samples_like_paddle(hard):
    paddle = pytest.importorskip("paddle")
    logits = np.log(np.array([[0.6, 0.3, 0.1]] * 4000, np.float32))
    ours = F.gumbel_softmax(framework.to_tensor(logits), temperature=0.5, hard=hard).numpy()
    theirs = paddle.nn.functional.gumbel_softmax(paddle.to_tensor(logits), 0.5, hard).numpy()
    np.testing.assert_allclose(ours.sum(1), 1.0, rtol=1e-5)
    if hard:
        assert set(np.unique(ours)) == {0.0, 1.0} == set(np.unique(theirs))
    # both pick class k with probability softmax(logits)[k] (hard) / average there (soft)
    np.testing.assert_allclose(ours.mean(0), [0.6, 0.3, 0.1], atol=0.04)
    np.testing.assert_allclose(theirs.mean(0), ours.mean(0), atol=0.05)


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_has_the_soft_samples_gradient(hard):
    def fixed(t):
        framework.seed(3)
        return F.gumbel_softmax(t, temperature=0.7, hard=hard)

    x = rng.standard_normal((3, 4))
    if hard:  # straight-through: the hard sample's gradient is the soft one's
        t1, t2 = (
            framework.to_tensor(x, stop_gradient=False),
            framework.to_tensor(x, stop_gradient=False),
        )
        g = framework.to_tensor(rng.standard_normal((3, 4)))
        (fixed(t1) * g).sum().backward()
        framework.seed(3)
        (F.gumbel_softmax(t2, 0.7) * g).sum().backward()
        np.testing.assert_allclose(t1.grad.numpy(), t2.grad.numpy(), rtol=1e-12)
    else:
        check_backward(fixed, [x])
        check_double_backward(fixed, [x])


def test_they_reject_bad_arguments():
    with pytest.raises(ValueError, match="rank of input and label"):
        F.dice_loss(framework.to_tensor(PROBS), framework.to_tensor(LABEL[..., 0]))
    with pytest.raises(ValueError, match="one \\[N, D\\] shape"):
        F.npair_loss(
            framework.to_tensor(A), framework.to_tensor(P[:3]), framework.to_tensor(PAIR_LABELS)
        )
    with pytest.raises(ValueError, match="even size on the last axis"):
        F.swiglu(framework.ones([2, 3]))
    with pytest.raises(ValueError, match="temperature must be positive"):
        F.gumbel_softmax(framework.ones([2, 3]), temperature=0.0)
