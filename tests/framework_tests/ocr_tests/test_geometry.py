"""Convex hulls, minimum-area rectangles and round offsets equal OpenCV's and pyclipper's
(test oracles only), and region borders have the hulls of `cv2.findContours`' borders."""

from __future__ import annotations

import numpy as np
import pytest

from framework.vision.ocr import geometry
from framework.vision.ocr.contours import border_point_sets

cv2 = pytest.importorskip("cv2")
pyclipper = pytest.importorskip("pyclipper")


def _rect_key(width: float, height: float) -> tuple[float, float]:
    return round(min(width, height), 3), round(width * height, 2)


def _hull_vertices(points: np.ndarray) -> set[tuple[int, int]]:
    return {tuple(p) for p in cv2.convexHull(points.astype(np.int32)).reshape(-1, 2).tolist()}


def test_the_minimum_area_rectangle_has_opencvs_area_and_short_side() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        points = rng.integers(0, 50, (int(rng.integers(3, 30)), 2)).astype(np.int32)
        (_, size, _) = cv2.minAreaRect(points)
        corners, width, height = geometry.min_area_rect(points)
        assert width * height == pytest.approx(size[0] * size[1], abs=1e-3)
        # every point lies in the rectangle
        hull = cv2.convexHull(corners.astype(np.float32))
        assert all(cv2.pointPolygonTest(hull, tuple(map(float, p)), True) > -1e-3 for p in points)


def test_a_rotated_rectangle_comes_back_with_its_corners_in_reading_order() -> None:
    box = cv2.boxPoints(((40.0, 20.0), (30.0, 10.0), 20.0))
    got, short_side = geometry.mini_box(box)
    assert short_side == pytest.approx(10.0, abs=1e-4)
    assert got[0, 0] < got[1, 0] and got[3, 0] < got[2, 0]  # left corners first
    assert got[0, 1] < got[3, 1] and got[1, 1] < got[2, 1]  # top corners above bottom ones
    np.testing.assert_allclose(np.sort(got, axis=0), np.sort(box, axis=0), atol=1e-4)


def test_the_round_offset_has_pyclippers_vertices() -> None:
    from shapely.geometry import Polygon

    rng = np.random.default_rng(1)
    for _ in range(200):
        size = tuple(map(float, rng.uniform(3, 60, 2)))
        centre = tuple(map(float, rng.uniform(0, 100, 2)))
        box = cv2.boxPoints((centre, size, float(rng.uniform(-90, 90))))
        polygon = Polygon(box)
        distance = polygon.area * 1.6 / polygon.length
        offset = pyclipper.PyclipperOffset()
        offset.AddPath(box, pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
        want = np.array(offset.Execute(distance)).reshape(-1, 2)
        got = geometry.unclip(box, 1.6)
        # Clipper's final union drops collinear vertices: compare the hulls' vertices
        assert _hull_vertices(got) == _hull_vertices(want)


def test_offset_rejects_a_shrink_and_a_degenerate_polygon() -> None:
    square = np.array([[0, 0], [4, 0], [4, 4], [0, 4]])
    with pytest.raises(ValueError, match="delta must be > 0"):
        geometry.offset_polygon(square, -1.0)
    with pytest.raises(ValueError, match="3 distinct vertices"):
        geometry.offset_polygon(np.array([[0, 0], [0, 0], [5, 5]]), 1.0)


@pytest.mark.parametrize("density", [0.3, 0.5, 0.7])
def test_region_borders_have_the_hulls_of_opencvs_contours(density) -> None:
    rng = np.random.default_rng(2)
    for _ in range(30):
        mask = (rng.random((30, 40)) < density).astype(np.uint8)
        contours, _ = cv2.findContours(mask * 255, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        want = sorted(
            _rect_key(*geometry.min_area_rect(c.reshape(-1, 2).astype(float))[1:]) for c in contours
        )
        got = sorted(_rect_key(*geometry.min_area_rect(s)[1:]) for s in border_point_sets(mask))
        assert got == want


def test_a_ring_has_an_outer_border_and_a_hole() -> None:
    ring = np.zeros((9, 9), bool)
    ring[1:8, 1:8] = True
    ring[3:6, 3:6] = False
    outer, hole = border_point_sets(ring)
    assert geometry.min_area_rect(outer)[1:] == pytest.approx((6.0, 6.0))
    assert geometry.min_area_rect(hole)[1:] == pytest.approx((4.0, 4.0))  # pixels around it


def test_an_empty_or_single_point_set_has_no_area() -> None:
    # unclip can shrink a sliver to nothing; the post-process then drops it by its zero side.
    for points in (np.zeros((0, 2)), np.array([[3.0, 4.0]] * 3)):
        corners, width, height = geometry.min_area_rect(points)
        assert corners.shape == (4, 2)
        assert (width, height) == (0.0, 0.0)
