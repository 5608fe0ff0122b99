"""OCR metrics: exact polygon overlaps (against shapely, the oracle PaddleOCR itself uses),
detection precision/recall/hmean under the ICDAR 2015 protocol of PaddleOCR's DetMetric, and
recognition accuracy and normalized edit distance as its RecMetric."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from framework.vision.ocr import (
    edit_distance,
    is_simple_polygon,
    polygon_area,
    polygon_intersection_area,
    polygon_iou,
    text_detection_metrics,
    text_recognition_metrics,
)

shapely = pytest.importorskip("shapely.geometry")


def box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def rotated_rect(rng: np.random.Generator) -> np.ndarray:
    centre = rng.uniform(0, 50, 2)
    w, h, angle = rng.uniform(5, 40), rng.uniform(3, 15), rng.uniform(-np.pi, np.pi)
    corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return corners @ turn.T + centre


def star(rng: np.random.Generator, points: int) -> np.ndarray:
    """A random polygon star-shaped around its centre (so simple), concave at many corners."""
    step = 2 * np.pi / points
    angles = np.arange(points) * step + rng.uniform(0, 0.9 * step, points)
    radii = rng.uniform(3, 25, points)
    return rng.uniform(10, 40, 2) + np.stack([np.cos(angles), np.sin(angles)], 1) * radii[:, None]


@pytest.mark.parametrize("kind", ["rotated rectangles", "stars", "star and rectangle"])
def test_intersection_areas_match_shapely(kind) -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        if kind == "rotated rectangles":
            a, b = rotated_rect(rng), rotated_rect(rng)
        elif kind == "stars":
            a, b = star(rng, int(rng.integers(5, 12))), star(rng, int(rng.integers(5, 12)))
        else:
            a, b = star(rng, 9), rotated_rect(rng)
        pa, pb = shapely.Polygon(a), shapely.Polygon(b)
        assert polygon_area(a) == pytest.approx(pa.area, rel=1e-9)
        want = pa.intersection(pb).area
        assert polygon_intersection_area(a, b) == pytest.approx(want, rel=1e-7, abs=1e-9)
        assert polygon_iou(a, b) == pytest.approx(want / pa.union(pb).area, rel=1e-7, abs=1e-9)


def test_collinear_corners_and_touching_polygons() -> None:
    # Corners on straight edges (a labeler's extra clicks), and squares sharing only an edge.
    with_extra = [[0, 0], [5, 0], [10, 0], [10, 10], [5, 10], [0, 10], [0, 5]]
    assert polygon_intersection_area(with_extra, box(5, 5, 15, 15)) == pytest.approx(25.0)
    doubled = [[0, 0], [10, 0], [10, 0], [10, 10], [0, 10], [0, 0]]  # repeated clicks
    assert polygon_intersection_area(doubled, box(5, 5, 15, 15)) == pytest.approx(25.0)
    assert is_simple_polygon(doubled)
    assert polygon_intersection_area(box(0, 0, 1, 1), box(1, 0, 2, 1)) == 0.0
    assert polygon_iou(box(0, 0, 4, 4), box(0, 0, 4, 4)) == pytest.approx(1.0)


def test_simple_polygons_are_the_ones_shapely_calls_valid_and_simple() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        quad = rng.integers(0, 6, (4, 2)).astype(float)  # small grid: many degenerate ones
        polygon = shapely.Polygon(quad)
        assert is_simple_polygon(quad) == (polygon.is_valid and polygon.area > 0), quad
    assert not is_simple_polygon([[0, 0], [10, 10], [10, 0], [0, 10]])  # a bow tie
    assert not is_simple_polygon([[0, 0], [1, 1]])


def test_paddleocrs_own_example_one_of_two_lines_found() -> None:
    truth = [[{"points": box(0, 0, 1, 1), "ignore": False}, {"points": box(2, 2, 3, 3)}]]
    found = [[{"points": [[0.1, 0.1], [1, 0], [1, 1], [0, 1]]}]]
    metrics = text_detection_metrics(truth, found)
    assert (metrics.precision, metrics.recall) == (1.0, 0.5)
    assert metrics.hmean == pytest.approx(2 / 3)
    assert metrics.images[0].misses == [1]


def test_matching_is_one_to_one_and_needs_more_than_half_iou() -> None:
    truth = [[box(0, 0, 10, 10)]]
    twice = text_detection_metrics(truth, [[box(0, 0, 10, 10), box(0, 0, 10, 9)]])
    assert (twice.images[0].matched, twice.images[0].false_positives) == (1, [1])
    assert twice.precision == 0.5 and twice.recall == 1.0
    half = box(0, 0, 10, 5)  # IoU exactly 0.5: not a match
    assert text_detection_metrics(truth, [[half]]).images[0].matched == 0
    assert text_detection_metrics(truth, [[box(0, 0, 10, 5.1)]]).images[0].matched == 1


def test_ignored_lines_and_what_covers_them_count_for_nothing() -> None:
    truth = [[box(0, 0, 10, 10), {"points": box(20, 0, 30, 10), "text": "###"}]]
    found = [[box(0, 0, 10, 10), box(21, 1, 29, 9), box(50, 50, 60, 60)]]
    image = text_detection_metrics(truth, found).images[0]
    assert (image.truth_count, image.found_count, image.matched) == (1, 2, 1)
    assert image.false_positives == [2]  # the one on "###" is not a false positive


def test_bad_polygons_are_left_out_and_counts_are_summed_over_images() -> None:
    bow_tie = [[0, 0], [10, 10], [10, 0], [0, 10]]
    truth = [[box(0, 0, 10, 10), bow_tie], [box(0, 0, 10, 10)] * 3]
    found = [[box(0, 0, 10, 10), bow_tie], [box(0, 0, 10, 10)]]
    metrics = text_detection_metrics(truth, found)
    # Image 1: 1 of 1 (the bow ties are dropped); image 2: 1 of 3. Summed: 2 of 4 true lines,
    # 2 of 2 found ones; the mean of per-image recalls would say 2/3.
    assert (metrics.recall, metrics.precision) == (0.5, 1.0)
    with pytest.raises(ValueError):
        text_detection_metrics(truth, found[:1])


@functools.cache
def _reference_distance(a: str, b: str) -> int:
    if not a or not b:
        return len(a) + len(b)
    return min(
        _reference_distance(a[1:], b) + 1,
        _reference_distance(a, b[1:]) + 1,
        _reference_distance(a[1:], b[1:]) + (a[0] != b[0]),
    )


def test_edit_distance_matches_the_recursive_definition() -> None:
    rng = np.random.default_rng(0)
    alphabet = list("ab发票c1 ")
    for _ in range(300):
        a = "".join(rng.choice(alphabet, int(rng.integers(0, 8))))
        b = "".join(rng.choice(alphabet, int(rng.integers(0, 8))))
        assert edit_distance(a, b) == _reference_distance(a, b), (a, b)
    assert edit_distance("kitten", "sitting") == 3


def test_recognition_metrics_follow_paddleocrs_rec_metric() -> None:
    predictions = ["合计 128元", "Total:1,234.5O", "", "SAMPAN"]
    truths = ["合计128元", "Total: 1,234.50", "发票", "Sampan"]
    metrics = text_recognition_metrics(predictions, truths)
    assert metrics.accuracy == 0.25  # spaces are ignored; case is not
    assert metrics.distances == pytest.approx([0.0, 1 / 14, 1.0, 5 / 6])
    assert metrics.norm_edit_distance == pytest.approx(1 - (1 / 14 + 1 + 5 / 6) / 4)
    filtered = text_recognition_metrics(predictions, truths, is_filter=True)
    assert filtered.accuracy == 0.75  # letters and digits only, lower-cased: 发票 is empty too
    with pytest.raises(ValueError, match="3 predictions for 4 true lines"):
        text_recognition_metrics(predictions[:3], truths)
