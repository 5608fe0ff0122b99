"""Accuracy, Precision, Recall, Auc and accuracy() against Paddle's and scikit-learn's."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.metric import Accuracy, Auc, Metric, Precision, Recall, accuracy


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


def logits_and_labels(n: int, c: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, c)).astype(np.float32), rng.integers(0, c, (n, 1))


def test_metric_is_abstract():
    with pytest.raises(TypeError):
        Metric()


@pytest.mark.parametrize("topk", [(1,), (1, 3), (2, 5)])
@pytest.mark.parametrize("label_shape", ["column", "flat", "onehot"])
def test_accuracy_matches_paddle_over_batches(paddle, topk, label_shape):
    ours, theirs = Accuracy(topk=topk), paddle.metric.Accuracy(topk=topk)
    for seed in range(3):
        x, y = logits_and_labels(17, 6, seed)
        label = {"column": y, "flat": y.ravel(), "onehot": np.eye(6, dtype=np.float32)[y.ravel()]}[
            label_shape
        ]
        correct = ours.compute(framework.to_tensor(x), framework.to_tensor(label))
        assert correct.shape == [17, max(topk)] and correct.dtype == np.float32
        expected = theirs.compute(paddle.to_tensor(x), paddle.to_tensor(label))
        np.testing.assert_array_equal(correct.numpy(), expected.numpy())
        np.testing.assert_allclose(ours.update(correct), theirs.update(expected))
    np.testing.assert_allclose(ours.accumulate(), theirs.accumulate())
    assert ours.name() == theirs.name()
    ours.reset()
    assert ours.accumulate() == (0.0 if len(topk) == 1 else [0.0] * len(topk))


@pytest.mark.parametrize("k", [1, 2, 4])
def test_accuracy_function_matches_paddle(paddle, k):
    x, y = logits_and_labels(25, 7, k)
    ours = accuracy(framework.to_tensor(x), framework.to_tensor(y), k=k)
    theirs = paddle.metric.accuracy(paddle.to_tensor(x), paddle.to_tensor(y), k=k)
    assert ours.shape == [] and ours.dtype == np.float32
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    correct = framework.to_tensor(np.zeros([1], np.int32))
    total = framework.to_tensor(np.zeros([1], np.int32))
    accuracy(x, y, k=k, correct=correct, total=total)
    assert total.item() == 25 and correct.item() == round(float(ours.numpy()) * 25)


def binary_data(n: int, seed: int):
    rng = np.random.default_rng(seed)
    preds = rng.random(n).astype(np.float32)
    preds[:3] = 0.5  # the rounding rules of Precision (floor(x + .5)) and Recall (rint) differ here
    labels = rng.integers(0, 2, n)
    return preds, labels


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
@pytest.mark.parametrize("shape", ["flat", "column"])
def test_precision_and_recall_match_paddle(paddle, cls, shape):
    ours, theirs = getattr(framework.metric, cls)(), getattr(paddle.metric, cls)()
    for seed in range(3):
        preds, labels = binary_data(40, seed)
        if shape == "column":
            preds, labels = preds[:, None], labels[:, None]
        ours.update(framework.to_tensor(preds), labels)
        theirs.update(preds, labels)
    assert ours.accumulate() == pytest.approx(theirs.accumulate())
    assert ours.name() == theirs.name()


def test_precision_and_recall_against_sklearn():
    metrics = pytest.importorskip("sklearn.metrics")
    preds, labels = binary_data(200, 5)
    p, r = Precision(), Recall()
    p.update(preds, labels)
    r.update(preds, labels)
    assert p.accumulate() == pytest.approx(metrics.precision_score(labels, np.floor(preds + 0.5)))
    assert r.accumulate() == pytest.approx(metrics.recall_score(labels, np.rint(preds)))
    with pytest.raises(ValueError, match="numpy ndarray or Tensor"):
        p.update([0.1], [1])
    with pytest.raises(ValueError, match="one value per sample"):
        p.update(np.zeros((3, 2)), np.zeros(3))


@pytest.mark.parametrize("num_thresholds", [4095, 200])
def test_auc_matches_paddle_and_approaches_sklearn(paddle, num_thresholds):
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    ours = Auc(num_thresholds=num_thresholds)
    theirs = paddle.metric.Auc(num_thresholds=num_thresholds)
    all_scores, all_labels = [], []
    for _ in range(3):
        labels = rng.integers(0, 2, (64, 1))
        positive = np.clip(rng.normal(0.4 + 0.2 * labels.ravel(), 0.2), 0, 1).astype(np.float32)
        preds = np.stack([1 - positive, positive], axis=1)
        ours.update(framework.to_tensor(preds), framework.to_tensor(labels))
        theirs.update(preds, labels)
        all_scores.append(positive)
        all_labels.append(labels.ravel())
    assert ours.accumulate() == pytest.approx(theirs.accumulate(), rel=1e-12)
    exact = metrics.roc_auc_score(np.concatenate(all_labels), np.concatenate(all_scores))
    assert ours.accumulate() == pytest.approx(exact, abs=2.0 / num_thresholds + 1e-3)
    ours.reset()
    assert ours.accumulate() == 0.0


def test_auc_rejects_scores_outside_zero_one():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        Auc().update(np.array([[0.0, 1.5]]), np.array([1]))
