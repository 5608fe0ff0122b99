"""F.rnnt_loss and nn.RNNTLoss: a brute-force NumPy sum over every lattice path, the exact
gradient (fastemit_lambda = 0) by central differences, FastEmit's (1 + lambda) emission
gradient, and real Paddle parity of values, dtypes and gradients in every reduction."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward

rng = np.random.default_rng(0)
B, T, U, V = 2, 4, 3, 5
LABELS = np.array([[1, 2, 3], [4, 1, 0]], dtype=np.int32)
FRAMES = np.array([4, 3], dtype=np.int32)
COUNTS = np.array([3, 2], dtype=np.int32)


def _log_probs(dtype=np.float32):
    x = rng.standard_normal((B, T, U + 1, V))
    return (x - np.log(np.exp(x).sum(-1, keepdims=True))).astype(dtype)


def _brute_force(lp, label, steps, length, blank=0):
    """-log of the sum over every order of `steps - 1` blanks and `length` labels, then the
    final blank."""
    total = 0.0
    for emits in itertools.combinations(range(steps - 1 + length), length):
        t = u = 0
        logp = 0.0
        for move in range(steps - 1 + length):
            if move in emits:
                logp += lp[t, u, label[u]]
                u += 1
            else:
                logp += lp[t, u, blank]
                t += 1
        total += np.exp(logp + lp[t, u, blank])
    return -np.log(total)


def _args(lp, module=framework):
    return (module.to_tensor(lp), *(module.to_tensor(a) for a in (LABELS, FRAMES, COUNTS)))


def test_it_matches_a_brute_force_sum_over_paths():
    lp = _log_probs(np.float64)
    got = F.rnnt_loss(*_args(lp), fastemit_lambda=0.0, reduction="none").numpy()
    for b in range(B):
        np.testing.assert_allclose(
            got[b], _brute_force(lp[b], LABELS[b], FRAMES[b], COUNTS[b]), rtol=1e-10
        )
    other_blank = F.rnnt_loss(*_args(lp), blank=2, fastemit_lambda=0.0, reduction="none").numpy()
    np.testing.assert_allclose(
        other_blank[1], _brute_force(lp[1], LABELS[1], 3, 2, blank=2), rtol=1e-10
    )


def test_the_gradient_is_exact_without_fastemit_and_scaled_with_it():
    lp = _log_probs(np.float64)
    rest = [framework.to_tensor(a) for a in (LABELS, FRAMES, COUNTS)]
    check_backward(lambda t: F.rnnt_loss(t, *rest, fastemit_lambda=0.0, reduction="sum"), [lp])
    plain, fast = (framework.to_tensor(lp, stop_gradient=False) for _ in range(2))
    F.rnnt_loss(plain, *rest, fastemit_lambda=0.0).backward()
    F.rnnt_loss(fast, *rest, fastemit_lambda=0.5).backward()
    blank = plain.grad.numpy()[..., 0]
    np.testing.assert_allclose(fast.grad.numpy()[..., 0], blank)  # blank steps unchanged
    emit_plain = plain.grad.numpy()[..., 1:].sum()
    np.testing.assert_allclose(fast.grad.numpy()[..., 1:].sum(), 1.5 * emit_plain, rtol=1e-10)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("fastemit", [0.0, 0.001, 0.5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_it_matches_paddle(reduction, fastemit, dtype):
    paddle = pytest.importorskip("paddle")
    lp = _log_probs(dtype)
    ours_in, theirs_in = (
        framework.to_tensor(lp, stop_gradient=False),
        paddle.to_tensor(lp, stop_gradient=False),
    )
    ours = F.rnnt_loss(ours_in, *_args(lp)[1:], fastemit_lambda=fastemit, reduction=reduction)
    theirs = paddle.nn.functional.rnnt_loss(
        theirs_in, *_args(lp, paddle)[1:], fastemit_lambda=fastemit, reduction=reduction
    )
    assert ours.shape == list(theirs.shape) and str(ours.dtype).split(".")[-1] == dtype
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    ours.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(ours_in.grad.numpy(), theirs_in.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_the_layer_matches_paddle():
    paddle = pytest.importorskip("paddle")
    lp = _log_probs()
    got = nn.RNNTLoss(blank=0, fastemit_lambda=0.0)(*_args(lp))
    want = paddle.nn.RNNTLoss(blank=0, fastemit_lambda=0.0)(*_args(lp, paddle))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)


def test_it_rejects_bad_arguments():
    lp = _log_probs()
    with pytest.raises(ValueError, match="4-D input"):
        F.rnnt_loss(framework.to_tensor(lp[0]), *_args(lp)[1:])
    with pytest.raises(ValueError, match="blank must be in"):
        F.rnnt_loss(*_args(lp), blank=V)
    with pytest.raises(ValueError, match="input_lengths must lie in"):
        F.rnnt_loss(
            framework.to_tensor(lp),
            framework.to_tensor(LABELS),
            framework.to_tensor(FRAMES + 1),
            framework.to_tensor(COUNTS),
        )
    with pytest.raises(ValueError, match="reduction"):
        nn.RNNTLoss(reduction="avg")
