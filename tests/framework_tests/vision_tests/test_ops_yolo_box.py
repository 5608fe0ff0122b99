"""`yolo_box`: a per-cell scalar reference of the YOLOv3 decoding, and real Paddle."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.vision import ops

ANCHORS = [10, 13, 16, 30, 33, 23]
IMAGES = np.array([[160, 190], [100, 80]], np.int32)


def sigmoid(v: float) -> float:
    return 1.0 / (1.0 + math.exp(-v))


def reference(x, img, class_num, thresh, ratio, clip, scale, iou_aware, factor):
    n, _, h, w = x.shape
    an = len(ANCHORS) // 2
    scale = float(np.float32(scale))  # a float32 attribute in Paddle
    boxes = np.zeros((n, an, h, w, 4))
    scores = np.zeros((n, an, h, w, class_num))
    for b in range(n):
        ih, iw = img[b]
        for a in range(an):
            base = an + a * (5 + class_num) if iou_aware else a * (5 + class_num)
            for i in range(h):
                for j in range(w):
                    p = x[b, base : base + 5 + class_num, i, j]
                    conf = sigmoid(p[4])
                    if iou_aware:
                        conf = conf ** (1 - factor) * sigmoid(x[b, a, i, j]) ** factor
                    if conf < thresh:
                        continue
                    bias = -0.5 * (scale - 1)
                    cx = (j + sigmoid(p[0]) * scale + bias) * iw / w
                    cy = (i + sigmoid(p[1]) * scale + bias) * ih / h
                    bw = math.exp(p[2]) * ANCHORS[2 * a] * iw / (ratio * w)
                    bh = math.exp(p[3]) * ANCHORS[2 * a + 1] * ih / (ratio * h)
                    box = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
                    if clip:
                        box = [max(box[0], 0), max(box[1], 0), min(box[2], iw - 1)]
                        box.append(min(cy + bh / 2, ih - 1))
                    boxes[b, a, i, j] = box
                    scores[b, a, i, j] = [conf * sigmoid(v) for v in p[5:]]
    return boxes.reshape(n, -1, 4), scores.reshape(n, -1, class_num)


CASES = [(False, True, 1.0), (True, False, 1.25), (False, False, 1.05), (True, True, 1.0)]


def features(iou_aware: bool, dtype=np.float64, class_num: int = 4) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.standard_normal((2, 3 * (5 + class_num + int(iou_aware)), 5, 6)).astype(dtype)


@pytest.mark.parametrize("iou_aware, clip, scale", CASES)
def test_it_matches_the_scalar_reference(iou_aware, clip, scale) -> None:
    x = features(iou_aware)
    boxes, scores = ops.yolo_box(
        framework.to_tensor(x),
        framework.to_tensor(IMAGES),
        ANCHORS,
        4,
        0.3,
        32,
        clip,
        scale_x_y=scale,
        iou_aware=iou_aware,
        iou_aware_factor=0.5,
    )
    want_boxes, want_scores = reference(x, IMAGES, 4, 0.3, 32, clip, scale, iou_aware, 0.5)
    np.testing.assert_allclose(boxes.numpy(), want_boxes, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(scores.numpy(), want_scores, rtol=1e-12, atol=1e-12)
    assert (np.abs(want_boxes).sum(-1) == 0).any(), "some boxes fall below the threshold"


def test_it_rejects_a_channel_count_that_does_not_fit_the_anchors() -> None:
    with pytest.raises(ValueError, match="channels"):
        ops.yolo_box(
            framework.rand([1, 20, 2, 2]), framework.to_tensor(IMAGES[:1]), ANCHORS, 4, 0.1, 32
        )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("iou_aware, clip, scale", CASES)
def test_it_matches_paddle(iou_aware, clip, scale, dtype) -> None:
    paddle = pytest.importorskip("paddle")
    x = features(iou_aware, dtype)
    args = (ANCHORS, 4, 0.3, 32, clip, None, scale, iou_aware, 0.4)
    want = paddle.vision.ops.yolo_box(paddle.to_tensor(x), paddle.to_tensor(IMAGES), *args)
    got = ops.yolo_box(framework.to_tensor(x), framework.to_tensor(IMAGES), *args)
    for g, w in zip(got, want, strict=True):
        assert g.numpy().dtype == w.numpy().dtype
        # boxes are in pixels (up to ~200): float32 keeps about 2e-5 of them
        tol = 1e-6 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=tol, atol=tol * 100)
