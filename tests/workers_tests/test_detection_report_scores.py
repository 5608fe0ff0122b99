"""The detection report's scores on hand-made boxes: COCO mAP from framework.metric, class
mix-ups with a background row and column, per-class thresholds at the best F1, and gallery
rows whose false positives and misses any threshold can count."""

from __future__ import annotations

import numpy as np
import pytest

from training.services.version_data import DetectionExample
from workers.runtime.detection_report import (
    DEFAULT_THRESHOLD,
    detection_scores,
    errors_at,
    gallery_row,
    greedy_matches,
)

NAMES = ["cat", "dog"]


def example(sample: int, boxes: list[list[float]], classes: list[int]) -> DetectionExample:
    corners = np.array(boxes, np.float32).reshape(-1, 4)
    return DetectionExample(sample, "f", f"{sample}.png", 100, 80, corners, np.array(classes))


def found(boxes: list[list[float]], classes: list[int], scores: list[float]) -> dict:
    return {
        "boxes": np.array(boxes, np.float32).reshape(-1, 4),
        "labels": np.array(classes, np.int64),
        "scores": np.array(scores, np.float32),
    }


CAT, DOG = [10, 10, 40, 40], [50, 20, 90, 70]
EXAMPLES = [example(1, [CAT, DOG], [0, 1]), example(2, [CAT], [0]), example(3, [], [])]


def test_perfect_boxes_score_one_with_nothing_mixed_up() -> None:
    answers = [found([CAT, DOG], [0, 1], [0.9, 0.8]), found([CAT], [0], [0.7]), found([], [], [])]
    scores = detection_scores(NAMES, EXAMPLES, answers)
    assert scores["mean_average_precision"] == pytest.approx(1.0)
    assert scores["map_50"] == pytest.approx(1.0)
    assert scores["confusion"] == [[2, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert [row["errors"] for row in scores["predictions"]] == [0, 0, 0]
    assert [c["support"] for c in scores["per_class"]] == [2, 1]


def test_mix_ups_misses_and_false_positives_go_to_their_cells() -> None:
    answers = [
        found([CAT, DOG], [0, 0], [0.9, 0.8]),  # the dog called a cat
        found([], [], []),  # the cat missed
        found([[5, 5, 30, 30]], [1], [0.95]),  # a dog where there is nothing
    ]
    thresholds = np.full(2, 0.5)
    scores = detection_scores(NAMES, EXAMPLES, answers, thresholds)
    assert scores["confusion"] == [[1, 0, 1], [1, 0, 0], [0, 1, 0]]
    assert [row["errors"] for row in scores["predictions"]] == [2, 1, 1]
    assert scores["class_thresholds"] == [0.5, 0.5]


def test_each_class_threshold_is_its_best_f1_score() -> None:
    answers = [
        found([CAT, DOG, [60, 5, 95, 15]], [0, 1, 1], [0.9, 0.35, 0.6]),
        found([CAT], [0], [0.8]),
        found([[1, 1, 20, 20]], [0], [0.3]),
    ]
    scores = detection_scores(NAMES, EXAMPLES, answers)
    cat, dog = scores["class_thresholds"]
    assert cat == pytest.approx(0.8, abs=1e-4)  # both cats found at 0.8 and above; the 0.3 is wrong
    assert dog == pytest.approx(0.35, abs=1e-4)  # F1 2/3 at 0.35 beats 0 at 0.6
    assert scores["per_class"][0]["f1"] == pytest.approx(1.0)


def test_a_gallery_row_counts_errors_at_any_threshold() -> None:
    row = gallery_row(EXAMPLES[0], found([CAT, [48, 22, 88, 70], DOG], [0, 1, 1], [0.9, 0.6, 0.3]))
    # best score first; the first dog matches the true dog, the second finds it taken
    assert [f[6] for f in row["found"]] == [0, 1, -1]
    assert errors_at(row, np.array([0.5, 0.5])) == 0
    assert errors_at(row, np.array([0.5, 0.2])) == 1  # the duplicate dog counts
    assert errors_at(row, np.array([0.95, 0.95])) == 2  # both missed


def test_greedy_matching_across_classes_pairs_the_most_overlapping_box() -> None:
    truth = np.array([CAT, DOG], np.float32)
    matched = greedy_matches(
        truth,
        np.array([0, 1]),
        np.array([DOG, CAT], np.float32),
        np.array([0, 0]),
        same_class=False,
    )
    assert matched.tolist() == [1, 0]


def test_without_boxes_anywhere_thresholds_stay_at_the_default() -> None:
    empty = [example(1, [], []), example(2, [], [])]
    scores = detection_scores(NAMES, empty, [found([], [], []), found([], [], [])])
    assert scores["class_thresholds"] == [DEFAULT_THRESHOLD, DEFAULT_THRESHOLD]
    assert scores["confusion"] == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
