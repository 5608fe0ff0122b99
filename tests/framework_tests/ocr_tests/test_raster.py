"""Resampling and polygon masks give OpenCV's bytes (a test oracle only)."""

from __future__ import annotations

import numpy as np
import pytest

from framework.vision.ocr import raster

cv2 = pytest.importorskip("cv2")


@pytest.mark.parametrize("channels", [None, 3])
def test_the_bilinear_resize_is_opencvs_byte_for_byte(channels) -> None:
    rng = np.random.default_rng(0)
    for i in range(40):
        h, w = (int(v) for v in rng.integers(2, 120, 2))
        shape = (h, w) if channels is None else (h, w, channels)
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        nw, nh = (int(v) for v in rng.integers(1, 250, 2))
        if i % 8 == 0:  # an exact halving, which OpenCV averages in 2x2 blocks
            image = image[: h - h % 2 or 2, : w - w % 2 or 2]
            nw, nh = image.shape[1] // 2 or 1, image.shape[0] // 2 or 1
        np.testing.assert_array_equal(
            raster.resize_linear(image, nw, nh), cv2.resize(image, (nw, nh))
        )


def test_resize_rejects_what_it_cannot_resample() -> None:
    with pytest.raises(ValueError, match="uint8"):
        raster.resize_linear(np.zeros((4, 4), np.float32), 2, 2)
    with pytest.raises(ValueError, match="positive"):
        raster.resize_linear(np.zeros((4, 4), np.uint8), 0, 2)


def test_the_perspective_crop_is_opencvs_within_a_grey_level() -> None:
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (80, 120, 3), dtype=np.uint8)
    for _ in range(10):
        src = np.array([[10, 10], [100, 15], [98, 60], [8, 55]], np.float32)
        src += rng.uniform(-5, 5, (4, 2)).astype(np.float32)
        dst = np.array([[0, 0], [90, 0], [90, 45], [0, 45]], np.float32)
        matrix = raster.perspective_matrix(src, dst)
        np.testing.assert_allclose(matrix, cv2.getPerspectiveTransform(src, dst), atol=1e-9)
        want = cv2.warpPerspective(
            image, matrix, (90, 45), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
        )
        got = raster.warp_perspective_cubic(image, matrix, 90, 45)
        assert np.abs(got.astype(int) - want).max() <= 1
        assert (got != want).mean() < 0.01


def test_the_polygon_mask_covers_opencvs_fill() -> None:
    rng = np.random.default_rng(2)
    agreement = []
    for _ in range(100):
        hull = cv2.convexHull(rng.integers(0, 30, (4, 2)).astype(np.int32)).reshape(-1, 2)
        want = np.zeros((32, 32), np.uint8)
        cv2.fillPoly(want, hull.reshape(1, -1, 2), 1)
        got = raster.fill_polygon_mask(hull, 32, 32)
        agreement.append((got == want.astype(bool)).mean())
    assert min(agreement) > 0.97
