"""The multi-label scores the worker reports, against scikit-learn on random scores: AP, mAP
and F1 (a class with no image in the split is left out of the mAP and the macro F1, as
scikit-learn's `labels=` does), best thresholds, and the streaming metric Model.fit feeds."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, f1_score, precision_recall_fscore_support

from workers.runtime.multi_label import (
    MultiLabelScores,
    average_precisions,
    best_threshold,
    best_thresholds,
    f1_at,
    mean_average_precision,
    sigmoid,
)

rng = np.random.default_rng(3)
TARGETS = rng.uniform(size=(300, 6)) < 0.3
TARGETS[:, 5] = False  # a class no image has
LOGITS = rng.standard_normal((300, 6)) + 2.0 * TARGETS
SCORES = sigmoid(LOGITS)
PRESENT = list(range(5))


def test_it_computes_the_sigmoid_without_overflow() -> None:
    out = sigmoid(np.array([-1000.0, -1.0, 0.0, 1.0, 1000.0]))
    np.testing.assert_allclose(out, [0.0, 1 / (1 + np.e), 0.5, 1 / (1 + np.exp(-1)), 1.0])


def test_average_precision_is_scikit_learns_and_nan_without_positives() -> None:
    ap = average_precisions(TARGETS, SCORES)
    expected = average_precision_score(TARGETS[:, PRESENT], SCORES[:, PRESENT], average=None)
    np.testing.assert_allclose(ap[PRESENT], expected, rtol=1e-12)
    assert np.isnan(ap[5])
    assert mean_average_precision(TARGETS, SCORES) == pytest.approx(expected.mean())


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_f1_scores_are_scikit_learns(threshold: float) -> None:
    scores = f1_at(TARGETS, SCORES, threshold)
    predicted = SCORES >= threshold
    assert scores.micro_f1 == pytest.approx(f1_score(TARGETS, predicted, average="micro"))
    macro = f1_score(TARGETS, predicted, average="macro", labels=PRESENT)
    assert scores.macro_f1 == pytest.approx(macro)
    precision, recall, f1, support = precision_recall_fscore_support(
        TARGETS, predicted, zero_division=0
    )
    np.testing.assert_allclose(scores.precision, precision)
    np.testing.assert_allclose(scores.recall, recall)
    np.testing.assert_allclose(scores.f1, f1)
    np.testing.assert_array_equal(scores.support, support)


def test_per_class_thresholds_apply_column_by_column() -> None:
    thresholds = np.array([0.2, 0.4, 0.5, 0.6, 0.8, 0.5])
    predicted = SCORES >= thresholds
    assert f1_at(TARGETS, SCORES, thresholds).micro_f1 == pytest.approx(
        f1_score(TARGETS, predicted, average="micro")
    )


def test_each_best_threshold_reaches_the_best_f1_there_is() -> None:
    thresholds = best_thresholds(TARGETS, SCORES, 0.5)
    for c in PRESENT:
        column, truth = SCORES[:, c], TARGETS[:, c]
        best = max(f1_score(truth, column >= t) for t in np.unique(column))
        assert f1_score(truth, column >= thresholds[c]) == pytest.approx(best)
    assert thresholds[5] == 0.5  # no image has the class: the default stays


def test_a_best_threshold_sits_between_scores() -> None:
    scores = np.array([0.9, 0.8, 0.3, 0.2])
    assert best_threshold(np.array([1, 1, 0, 0], bool), scores, 0.5) == pytest.approx(0.55)
    # Everything positive is best: halfway to zero below the lowest score.
    assert best_threshold(np.array([1, 1, 1, 1], bool), scores, 0.5) == pytest.approx(0.1)
    # Equal scores are one decision: all or none of them.
    tied = np.full(4, 0.7)
    assert best_threshold(np.array([1, 0, 1, 0], bool), tied, 0.5) == pytest.approx(0.35)


class _Network:
    training = False


def test_the_streaming_metric_keeps_only_evaluation_batches() -> None:
    network = _Network()
    metric = MultiLabelScores(network, 0.5)
    assert metric.name() == ["mAP", "micro_f1", "macro_f1"]
    network.training = True
    metric.update(LOGITS[:50], TARGETS[:50].astype(np.float32))  # a training step: ignored
    assert metric.accumulate() == [0.0, 0.0, 0.0]
    network.training = False
    metric.reset()
    for start in range(0, 300, 64):
        metric.update(LOGITS[start : start + 64], TARGETS[start : start + 64].astype(np.float32))
    mean_ap, micro, macro = metric.accumulate()
    assert mean_ap == pytest.approx(mean_average_precision(TARGETS, SCORES))
    assert micro == pytest.approx(f1_score(TARGETS, SCORES >= 0.5, average="micro"))
    assert macro == pytest.approx(f1_score(TARGETS, SCORES >= 0.5, average="macro", labels=PRESENT))
    network.training = True
    metric.reset()  # a new training epoch: the last evaluation's values stand until the next
    assert metric.accumulate() == pytest.approx([mean_ap, micro, macro])
