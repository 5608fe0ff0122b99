"""multi_margin_loss, multi_label_margin_loss and triplet_margin_with_distance_loss, with their
layers: NumPy references, gradients of two orders, real Paddle parity of values and dtypes in
every reduction, and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((5, 4)).astype(np.float32)
Y = np.array([0, 3, 1, 1, 2])
W = rng.random(4).astype(np.float32)
LABELS = np.array([[3, 0, -1, 1], [1, -1, 2, 2], [-1, 0, 0, 0], [0, 1, 2, 3], [2, 2, -1, -1]])
A, P, N = (rng.standard_normal((6, 3)).astype(np.float32) for _ in range(3))


def _numpy_multi_margin(x, y, p, margin, weight):
    n, c = x.shape
    out = np.zeros(n)
    for i in range(n):
        for k in range(c):
            if k != y[i]:
                term = max(0.0, margin - x[i, y[i]] + x[i, k]) ** p
                out[i] += term * (1.0 if weight is None else weight[y[i]])
    return out / c


def _numpy_multi_label_margin(x, labels):
    n, c = x.shape
    out = np.zeros(n)
    for i in range(n):
        targets = []
        for label in labels[i]:
            if label == -1:
                break
            targets.append(label)
        others = [k for k in range(c) if k not in targets]
        out[i] = sum(max(0.0, 1 - (x[i, j] - x[i, k])) for j in targets for k in others) / c
    return out


def _same(ours, theirs, rtol=1e-5):
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("p, margin, weighted", [(1, 1.0, False), (2, 0.5, True), (3, 2.0, False)])
def test_multi_margin_loss_matches_numpy_and_has_gradients(p, margin, weighted):
    weight = W if weighted else None
    got = F.multi_margin_loss(
        framework.to_tensor(X),
        framework.to_tensor(Y),
        p,
        margin,
        None if weight is None else framework.to_tensor(weight),
        "none",
    )
    np.testing.assert_allclose(
        got.numpy(), _numpy_multi_margin(X, Y, p, margin, weight), rtol=1e-5, atol=1e-6
    )
    label = framework.to_tensor(Y)

    def loss(x, *w):
        return F.multi_margin_loss(x, label, p, margin, w[0] if w else None, "sum")

    inputs = [X.astype(np.float64)] + ([W.astype(np.float64)] if weighted else [])
    check_backward(loss, inputs)
    check_double_backward(loss, inputs)


def test_multi_label_margin_loss_matches_numpy_and_has_gradients():
    got = F.multi_label_margin_loss(framework.to_tensor(X), framework.to_tensor(LABELS), "none")
    np.testing.assert_allclose(got.numpy(), _numpy_multi_label_margin(X, LABELS), rtol=1e-5)
    label = framework.to_tensor(LABELS)
    check_backward(lambda x: F.multi_label_margin_loss(x, label, "mean"), [X.astype(np.float64)])
    check_double_backward(lambda x: F.multi_label_margin_loss(x * x, label), [X.astype(np.float64)])


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_multi_margin_losses_match_paddle(reduction, dtype):
    paddle = pytest.importorskip("paddle")
    x = X.astype(dtype)
    for p, margin, weight in [(1, 1.0, None), (2, 0.5, W.astype(dtype))]:
        ours = F.multi_margin_loss(
            framework.to_tensor(x),
            framework.to_tensor(Y),
            p,
            margin,
            None if weight is None else framework.to_tensor(weight),
            reduction,
        )
        theirs = paddle.nn.functional.multi_margin_loss(
            paddle.to_tensor(x),
            paddle.to_tensor(Y),
            p,
            margin,
            None if weight is None else paddle.to_tensor(weight),
            reduction,
        )
        _same(ours, theirs)
        layer = nn.MultiMarginLoss(
            p, margin, None if weight is None else framework.to_tensor(weight), reduction
        )
        _same(layer(framework.to_tensor(x), framework.to_tensor(Y)), theirs)
    ours = F.multi_label_margin_loss(framework.to_tensor(x), framework.to_tensor(LABELS), reduction)
    theirs = paddle.nn.functional.multi_label_margin_loss(
        paddle.to_tensor(x), paddle.to_tensor(LABELS), reduction
    )
    _same(ours, theirs)
    _same(
        nn.MultiLabelMarginLoss(reduction)(framework.to_tensor(x), framework.to_tensor(LABELS)),
        theirs,
    )


def test_triplet_margin_with_distance_loss_matches_numpy_and_has_gradients():
    def cosine_distance(a, b):
        return 1.0 - F.cosine_similarity(a, b)

    got = F.triplet_margin_with_distance_loss(
        *(framework.to_tensor(t) for t in (A, P, N)), cosine_distance, margin=0.3, reduction="none"
    )

    def numpy_cosine(a, b):
        return 1 - (a * b).sum(1) / np.maximum(
            np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-8
        )

    want = np.maximum(numpy_cosine(A, P) - numpy_cosine(A, N) + 0.3, 0)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)
    inputs = [t.astype(np.float64) for t in (A, P, N)]
    check_backward(lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, swap=True), inputs)
    check_double_backward(
        lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, cosine_distance, 0.3), inputs
    )


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_triplet_margin_with_distance_loss_matches_paddle(swap, reduction):
    paddle = pytest.importorskip("paddle")
    ours = F.triplet_margin_with_distance_loss(
        *(framework.to_tensor(t) for t in (A, P, N)), margin=0.8, swap=swap, reduction=reduction
    )
    theirs = paddle.nn.functional.triplet_margin_with_distance_loss(
        *(paddle.to_tensor(t) for t in (A, P, N)), margin=0.8, swap=swap, reduction=reduction
    )
    _same(ours, theirs)
    layer = nn.TripletMarginWithDistanceLoss(margin=0.8, swap=swap, reduction=reduction)
    _same(layer(*(framework.to_tensor(t) for t in (A, P, N))), theirs)


def test_the_distance_layer_uses_its_distance_function():
    layer = nn.TripletMarginWithDistanceLoss(
        lambda a, b: (a - b).abs().sum(1), margin=0.0, reduction="none"
    )
    got = layer(*(framework.to_tensor(t) for t in (A, P, N)))
    want = np.maximum(np.abs(A - P).sum(1) - np.abs(A - N).sum(1), 0)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_they_reject_bad_arguments():
    x = framework.to_tensor(X)
    with pytest.raises(ValueError, match="label values must lie in"):
        F.multi_margin_loss(x, framework.to_tensor([0, 1, 2, 3, 4]))
    with pytest.raises(ValueError, match="weight's shape"):
        F.multi_margin_loss(x, framework.to_tensor(Y), weight=framework.ones([3]))
    with pytest.raises(TypeError, match="label must be an integer tensor"):
        F.multi_label_margin_loss(x, framework.to_tensor(LABELS.astype(np.float32)))
    with pytest.raises(ValueError, match="Expected 2D label tensor"):
        F.multi_label_margin_loss(x, framework.to_tensor(Y))
    with pytest.raises(ValueError, match="reduction"):
        nn.MultiLabelMarginLoss("avg")
    with pytest.raises(ValueError, match="negative distance"):
        F.triplet_margin_with_distance_loss(x, x, x, lambda a, b: (a - b).sum(1) - 1.0)
