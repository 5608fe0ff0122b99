"""Cross-entropy corner cases checked against PaddlePaddle itself (skipped when absent): the
'mean' divisors with ignore_index and weights, label smoothing, soft labels, output shapes."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F

paddle = pytest.importorskip("paddle")

rng = np.random.default_rng(0)
LOGITS = rng.standard_normal((6, 4)).astype(np.float32)
WEIGHT = np.array([1.0, 2.0, 0.5, 3.0], np.float32)
SOFT = rng.uniform(0.1, 1.0, (6, 4)).astype(np.float32)
SOFT /= SOFT.sum(1, keepdims=True)

CASES = {
    "plain": (np.array([0, 3, 1, 3, 2, 0]), {}),
    "column_labels_none": (np.array([[0], [3], [1], [3], [2], [0]]), {"reduction": "none"}),
    "ignored_default_index": (np.array([0, -100, 1, 3, -100, 0]), {}),
    "ignored_default_index_weighted": (np.array([0, -100, 1, 3, -100, 0]), {"weight": WEIGHT}),
    "ignore_index_1": (np.array([0, 1, 1, 3, 2, 0]), {"ignore_index": 1}),
    "ignore_index_1_weighted_sum": (
        np.array([0, 1, 1, 3, 2, 0]),
        {"ignore_index": 1, "weight": WEIGHT, "reduction": "sum"},
    ),
    "weighted_mean": (np.array([0, 3, 1, 3, 2, 0]), {"weight": WEIGHT}),
    "smoothing": (np.array([0, 3, 1, 3, 2, 0]), {"label_smoothing": 0.1}),
    "smoothing_weighted_none": (
        np.array([0, 3, 1, 3, 2, 0]),
        {"label_smoothing": 0.2, "weight": WEIGHT, "reduction": "none"},
    ),
    "soft": (SOFT, {"soft_label": True}),
    "soft_weighted": (SOFT, {"soft_label": True, "weight": WEIGHT}),
    "soft_none": (SOFT, {"soft_label": True, "reduction": "none"}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_cross_entropy_matches_paddle(name):
    labels, options = CASES[name]
    ours_options = dict(options)
    theirs_options = dict(options)
    if "weight" in options:
        ours_options["weight"] = framework.to_tensor(options["weight"])
        theirs_options["weight"] = paddle.to_tensor(options["weight"])
    ours_x = framework.to_tensor(LOGITS, stop_gradient=False)
    ours = F.cross_entropy(ours_x, framework.to_tensor(labels), **ours_options)
    theirs_x = paddle.to_tensor(LOGITS, stop_gradient=False)
    theirs = paddle.nn.functional.cross_entropy(
        theirs_x, paddle.to_tensor(labels), **theirs_options
    )
    assert ours.shape == list(theirs.shape)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(ours.shape).astype(np.float32)
    ours.backward(framework.to_tensor(g))
    theirs.backward(paddle.to_tensor(g))
    np.testing.assert_allclose(ours_x.grad.numpy(), theirs_x.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_nll_loss_matches_paddle_with_ignored_samples():
    labels = np.array([0, -100, 1, 3, 2, 0])
    ours = F.nll_loss(framework.to_tensor(LOGITS), framework.to_tensor(labels))
    theirs = paddle.nn.functional.nll_loss(paddle.to_tensor(LOGITS), paddle.to_tensor(labels))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
