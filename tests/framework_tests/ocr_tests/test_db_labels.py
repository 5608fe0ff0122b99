"""`make_db_labels` against plain geometry and against PaddleOCR's recipe re-implemented with
pyclipper and OpenCV (test oracles only)."""

from __future__ import annotations

import numpy as np
import pytest

from framework.vision.ocr import make_db_labels

RECT = np.array([[10, 10], [90, 10], [90, 30], [10, 30]], dtype=np.float64)


def _shrink_distance(polygon, ratio=0.4):
    x, y = polygon.T
    area = abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2
    length = np.hypot(*(np.roll(polygon, -1, axis=0) - polygon).T).sum()
    return area * (1 - ratio**2) / length


def _paddle_labels(polygons, ignore, h, w, ratio=0.4, min_text_size=8, tmin=0.3, tmax=0.7):
    """PaddleOCR's MakeBorderMap then MakeShrinkMap, written out with pyclipper + cv2."""
    cv2 = pytest.importorskip("cv2")
    pyclipper = pytest.importorskip("pyclipper")
    canvas = np.zeros((h, w), np.float32)
    tmask = np.zeros((h, w), np.float32)
    for polygon, ignored in zip(polygons, ignore, strict=True):
        polygon = np.array(polygon, np.float64)
        if ignored:
            continue
        d = _shrink_distance(polygon, ratio)
        offset = pyclipper.PyclipperOffset()
        offset.AddPath([tuple(p) for p in polygon], pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
        padded = np.array(offset.Execute(d)[0])
        cv2.fillPoly(tmask, [padded.astype(np.int32)], 1.0)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        # PaddleOCR's point-to-edge distance: to the line, or to the nearer corner when the
        # angle at the pixel is acute
        dist = np.full((h, w), np.inf)
        for a, b in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
            s1 = (xs - a[0]) ** 2 + (ys - a[1]) ** 2
            s2 = (xs - b[0]) ** 2 + (ys - b[1]) ** 2
            s = ((a - b) ** 2).sum()
            with np.errstate(divide="ignore", invalid="ignore"):
                cos = (s - s1 - s2) / (2 * np.sqrt(s1 * s2))
                r = np.sqrt(np.nan_to_num(s1 * s2 * np.nan_to_num(1 - cos**2) / s))
            r = np.where(cos < 0, np.sqrt(np.fmin(s1, s2)), r)
            dist = np.minimum(dist, r)
        x0, y0 = padded.min(axis=0)
        x1, y1 = padded.max(axis=0)
        box = (ys >= y0) & (ys <= y1) & (xs >= x0) & (xs <= x1)
        canvas = np.where(box, np.fmax(canvas, 1 - np.clip(dist / d, 0, 1)), canvas)
    threshold_map = canvas * (tmax - tmin) + tmin
    gt = np.zeros((h, w), np.float32)
    mask = np.ones((h, w), np.float32)
    for polygon, ignored in zip(polygons, ignore, strict=True):
        polygon = np.array(polygon, np.float64)
        polygon[:, 0] = np.clip(polygon[:, 0], 0, w - 1)
        polygon[:, 1] = np.clip(polygon[:, 1], 0, h - 1)
        extent = polygon.max(axis=0) - polygon.min(axis=0)
        if ignored or extent.min() < min_text_size or _shrink_distance(polygon) <= 0:
            cv2.fillPoly(mask, [polygon.astype(np.int32)], 0)
            continue
        offset = pyclipper.PyclipperOffset()
        offset.AddPath([tuple(p) for p in polygon], pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
        shrunk = offset.Execute(-_shrink_distance(polygon, ratio))
        if not shrunk:
            cv2.fillPoly(mask, [polygon.astype(np.int32)], 0)
            continue
        for piece in shrunk:
            cv2.fillPoly(gt, [np.array(piece).reshape(-1, 2).astype(np.int32)], 1)
    return {
        "shrink_map": gt,
        "shrink_mask": mask,
        "threshold_map": threshold_map,
        "threshold_mask": tmask,
    }


def _dilate(a, r=2):
    padded = np.pad(a, r)
    h, w = a.shape
    n = 2 * r + 1
    return np.logical_or.reduce([padded[i : i + h, j : j + w] for i in range(n) for j in range(n)])


def _assert_within_a_pixel(ours, ref, key):
    """The two rasterisations differ only along their boundaries: each is inside the other
    grown by 2 pixels, and so is its complement (OpenCV truncates the vertices and fills the
    boundary pixels; Clipper rounds the offset outline to integers)."""
    a, b = ours > 0.5, ref > 0.5
    assert a.any() == b.any(), key
    assert not (a & ~_dilate(b)).any() and not (b & ~_dilate(a)).any(), key
    assert not (~a & ~_dilate(~b)).any() and not (~b & ~_dilate(~a)).any(), key


def test_rectangle_geometry():
    labels = make_db_labels([RECT], 64, 128)
    assert set(labels) == {"shrink_map", "shrink_mask", "threshold_map", "threshold_mask"}
    assert all(v.dtype == np.float32 and v.shape == (64, 128) for v in labels.values())
    d = 80 * 20 * (1 - 0.4**2) / 200  # 6.72
    ys, xs = np.mgrid[0:64, 0:128]
    inner = (xs >= 10 + d) & (xs <= 90 - d) & (ys >= 10 + d) & (ys <= 30 - d)
    np.testing.assert_array_equal(labels["shrink_map"], inner.astype(np.float32))
    np.testing.assert_array_equal(labels["shrink_mask"], np.ones((64, 128), np.float32))
    # distance to the rectangle's boundary, inside and out
    dx = np.maximum(np.maximum(10 - xs, xs - 90), 0)
    dy = np.maximum(np.maximum(10 - ys, ys - 30), 0)
    outside = np.hypot(dx, dy)
    inside_d = np.minimum.reduce([xs - 10, 90 - xs, ys - 10, 30 - ys]).astype(np.float64)
    dist = np.where(outside > 0, outside, np.maximum(inside_d, 0))
    expect = 0.3 + 0.4 * (1 - np.clip(dist / d, 0, 1))
    np.testing.assert_allclose(labels["threshold_map"], expect, atol=1e-6)
    # the rectangle grown by d, interior included
    np.testing.assert_array_equal(labels["threshold_mask"], (outside <= d).astype(np.float32))
    assert labels["threshold_map"][20, 10] == pytest.approx(0.7)  # on the edge
    assert labels["threshold_map"][20, 50] == pytest.approx(0.3)  # deep inside
    assert labels["threshold_map"][0, 0] == pytest.approx(0.3)  # background


@pytest.mark.parametrize(
    "polygons",
    [
        [RECT],
        [np.array([[20, 40], [100, 20], [108, 50], [28, 70]], np.float64)],  # rotated quad
        [RECT + [0.4, 0.3], np.array([[30, 45], [110, 40], [112, 60], [31, 62]], np.float64)],
        # concave (an L); arms thick enough that Clipper's integer rounding leaves no slivers
        [np.array([[10, 10], [80, 10], [80, 30], [30, 30], [30, 70], [10, 70]], np.float64)],
    ],
)
def test_matches_paddleocr_recipe(polygons):
    ours = make_db_labels(polygons, 80, 128)
    ref = _paddle_labels(polygons, [False] * len(polygons), 80, 128)
    for key in ("shrink_map", "shrink_mask", "threshold_mask"):
        _assert_within_a_pixel(ours[key], ref[key], key)
    diff = np.abs(ours["threshold_map"] - ref["threshold_map"])
    # PaddleOCR overstates distances near corners only, so it is never above ours
    assert (ref["threshold_map"] <= ours["threshold_map"] + 1e-5).all()
    assert diff.mean() < 5e-3
    assert (diff < 1e-4).mean() > 0.95


def test_integer_rectangle_is_exact_paddleocr():
    ours = make_db_labels([RECT], 64, 128)
    ref = _paddle_labels([RECT], [False], 64, 128)
    for key in ("shrink_map", "shrink_mask"):
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)
    # Clipper rounds the grown outline to integers: 10 - 6.72 -> row 3, which is 7 > 6.72 away
    _assert_within_a_pixel(ours["threshold_mask"], ref["threshold_mask"], "threshold_mask")


def test_ignored_and_small_polygons_masked():
    small = np.array([[100, 40], [120, 40], [120, 45], [100, 45]], np.float64)  # 5 px tall
    ignored = RECT + [0, 30]
    labels = make_db_labels([RECT, ignored, small], 64, 128, ignore_tags=[False, True, False])
    ref = _paddle_labels([RECT, ignored, small], [False, True, False], 64, 128)
    np.testing.assert_array_equal(labels["shrink_mask"], ref["shrink_mask"])
    np.testing.assert_array_equal(labels["shrink_map"], ref["shrink_map"])
    mask = labels["shrink_mask"]
    assert mask[50, 50] == 0 and mask[40, 10] == 0 and mask[60, 90] == 0  # the ignored text
    assert mask[42, 110] == 0 and labels["shrink_map"][42, 110] == 0  # too small
    assert mask[20, 50] == 1 and labels["shrink_map"][20, 50] == 1
    # "###" gets no threshold border; small text does, as in PaddleOCR
    assert labels["threshold_mask"][50, 50] == 0 and labels["threshold_map"][40, 50] == 0.3
    assert labels["threshold_mask"][42, 110] == 1
    _assert_within_a_pixel(labels["threshold_mask"], ref["threshold_mask"], "threshold_mask")


def test_polygon_partly_outside():
    poly = np.array([[-30, 10], [60, 10], [60, 40], [-30, 40]], np.float64)
    labels = make_db_labels([poly], 48, 64)
    ref = _paddle_labels([poly], [False], 48, 64)
    for key in ("shrink_map", "shrink_mask", "threshold_mask"):
        _assert_within_a_pixel(labels[key], ref[key], key)
    np.testing.assert_allclose(labels["threshold_map"], ref["threshold_map"], atol=0.05)
    # shrunk from the image border, as the clipped polygon is
    clipped = np.array([[0, 10], [60, 10], [60, 40], [0, 40]], np.float64)
    d = _shrink_distance(clipped)
    cols = np.nonzero(labels["shrink_map"].any(axis=0))[0]
    assert cols.min() == int(np.ceil(d)) and cols.max() == int(np.floor(60 - d))
    # wholly outside: nothing drawn, nothing masked
    far = make_db_labels([poly + [500, 0]], 48, 64)
    assert far["shrink_map"].sum() == 0 and far["threshold_mask"].sum() == 0
    # (the polygon clipped to the image is degenerate: masked out, as PaddleOCR does)
    assert far["shrink_mask"][:, :-1].min() == 1


@pytest.mark.parametrize("polygons", [[], np.zeros((0, 4, 2))])
def test_empty(polygons):
    labels = make_db_labels(polygons, 16, 24)
    assert labels["shrink_map"].sum() == 0 and labels["threshold_mask"].sum() == 0
    assert (labels["shrink_mask"] == 1).all()
    np.testing.assert_allclose(labels["threshold_map"], 0.3)


def test_batched_array_input():
    polys = np.stack([RECT, RECT + [0, 30]])
    a = make_db_labels(polys, 64, 128)
    b = make_db_labels(list(polys), 64, 128)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (([np.zeros((4, 3))], 8, 8), {}, r"\[K >= 3, 2\]"),
        (([np.zeros((2, 2))], 8, 8), {}, r"\[K >= 3, 2\]"),
        (([np.zeros(8)], 8, 8), {}, r"\[K >= 3, 2\]"),
        (([np.full((4, 2), np.nan)], 8, 8), {}, "finite"),
        (([RECT], 0, 8), {}, "positive integers"),
        (([RECT], 8.5, 8), {}, "positive integers"),
        (([RECT], 8, 8), {"ignore_tags": [True, False]}, "2 ignore tags for 1"),
        (([RECT], 8, 8), {"shrink_ratio": 1.0}, "shrink_ratio"),
    ],
)
def test_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_db_labels(*args, **kwargs)
