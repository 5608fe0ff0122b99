"""Confusion matrix, per-class scores, averages, top-k accuracy and PR curves against
scikit-learn on random data."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.metric import (
    average_precision,
    classification_report,
    confusion_matrix,
    precision_recall_curve,
    precision_recall_f1_support,
    top_k_accuracy,
)

metrics = pytest.importorskip("sklearn.metrics")


def random_predictions(n: int, c: int, seed: int, missing_class: bool = False):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, c, n)
    scores = rng.random((n, c)) + np.eye(c)[y_true] * rng.random((n, 1))  # better than chance
    if missing_class:
        y_true[y_true == c - 1] = 0  # class c-1 is never true...
        scores[:, 1] = -1.0  # ...and class 1 is never predicted
    y_pred = scores.argmax(axis=1)
    return y_true, y_pred, scores


CASES = [(50, 3, 0, False), (300, 10, 1, False), (40, 5, 2, True), (1, 2, 3, False)]


@pytest.mark.parametrize(("n", "c", "seed", "missing"), CASES)
def test_confusion_matrix_matches_sklearn(n, c, seed, missing):
    y_true, y_pred, _ = random_predictions(n, c, seed, missing)
    ours = confusion_matrix(y_true, y_pred, num_classes=c)
    assert ours.dtype == np.int64 and ours.shape == (c, c)
    np.testing.assert_array_equal(ours, metrics.confusion_matrix(y_true, y_pred, labels=range(c)))


@pytest.mark.parametrize(("n", "c", "seed", "missing"), CASES)
@pytest.mark.parametrize("zero_division", [0.0, 1.0])
def test_per_class_scores_match_sklearn(n, c, seed, missing, zero_division):
    y_true, y_pred, _ = random_predictions(n, c, seed, missing)
    ours = precision_recall_f1_support(y_true, y_pred, c, zero_division=zero_division)
    theirs = metrics.precision_recall_fscore_support(
        y_true, y_pred, labels=range(c), average=None, zero_division=zero_division
    )
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize(("n", "c", "seed", "missing"), CASES)
def test_classification_report_matches_sklearn(n, c, seed, missing):
    y_true, y_pred, _ = random_predictions(n, c, seed, missing)
    names = [f"class_{i}" for i in range(c)]
    ours = classification_report(
        framework.to_tensor(y_true), list(y_pred), num_classes=c, target_names=names
    )
    theirs = metrics.classification_report(
        y_true, y_pred, labels=range(c), target_names=names, output_dict=True, zero_division=0.0
    )
    theirs.setdefault("accuracy", metrics.accuracy_score(y_true, y_pred))
    theirs.pop("micro avg", None)
    assert set(ours) == set(theirs)
    assert ours["accuracy"] == pytest.approx(theirs["accuracy"])
    for key in set(ours) - {"accuracy"}:
        for field in ("precision", "recall", "f1-score", "support"):
            assert ours[key][field] == pytest.approx(theirs[key][field]), (key, field)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_top_k_accuracy_matches_sklearn(k):
    y_true, _, scores = random_predictions(200, 6, 4)
    scores = np.round(scores, 1)  # plenty of ties
    expected = metrics.top_k_accuracy_score(y_true, scores, k=k, labels=range(6))
    assert top_k_accuracy(y_true, scores, k=k) == pytest.approx(expected)
    assert top_k_accuracy(y_true, scores, k=6) == 1.0


@pytest.mark.parametrize("ties", [False, True])
def test_pr_curves_and_average_precision_match_sklearn(ties):
    y_true, _, scores = random_predictions(120, 4, 5)
    if ties:
        scores = np.round(scores, 1)
    curves = precision_recall_curve(y_true, scores)
    assert len(curves) == 4
    for c, curve in enumerate(curves):
        precision, recall, thresholds = metrics.precision_recall_curve(y_true == c, scores[:, c])
        np.testing.assert_allclose(curve["precision"], precision, rtol=1e-12)
        np.testing.assert_allclose(curve["recall"], recall, rtol=1e-12)
        np.testing.assert_array_equal(curve["thresholds"], thresholds)
    expected_ap = metrics.average_precision_score(np.eye(4)[y_true], scores, average=None)
    np.testing.assert_allclose(average_precision(y_true, scores), expected_ap, rtol=1e-12)


def test_it_rejects_bad_labels():
    with pytest.raises(ValueError, match=r"class ids should be in \[0, 3\)"):
        confusion_matrix([0, 1, 3], [0, 1, 2], num_classes=3)
    with pytest.raises(ValueError, match="integer class ids"):
        confusion_matrix([0.5], [0])
    with pytest.raises(ValueError, match="predictions"):
        confusion_matrix([0, 1], [0])
    with pytest.raises(ValueError, match="target_names"):
        classification_report([0, 1], [0, 1], target_names=["a"])
