"""`yolo_loss`: a loop-by-loop reference of Paddle's `yolov3_loss` kernel, numerical gradients,
and real Paddle's loss and input gradient."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.testing.gradient_check import check_backward
from framework.vision import ops

ANCHORS = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]
CLASSES = 4
CASES = [
    ([0, 1, 2], 8, True, False, 1.0),
    ([3, 4], 6, False, True, 1.25),
    ([1, 3, 5], 5, True, True, 1.0),
]


def sce(x: float, t: float) -> float:
    return max(x, 0.0) - x * t + math.log1p(math.exp(-abs(x)))


def sigmoid(v: float) -> float:
    return 1 / (1 + math.exp(-v))


def iou(a, b) -> float:
    iw = min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2)
    ih = min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2)
    inter = 0.0 if iw < 0 or ih < 0 else iw * ih
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def reference(x, gt, labels, mask, ignore, ratio, score, smooth, scale):
    n, _, h, w = x.shape
    m = len(mask)
    p = x.reshape(n, m, 5 + CLASSES, h, w)
    size = ratio * h
    pos, neg = (1 - min(1 / CLASSES, 1 / 40), min(1 / CLASSES, 1 / 40)) if smooth else (1, 0)
    losses = []
    for i in range(n):
        loss = 0.0
        obj = np.zeros((m, h, w))
        valid = [
            t for t in range(gt.shape[1]) if abs(gt[i, t, 2]) >= 1e-6 and abs(gt[i, t, 3]) >= 1e-6
        ]
        for j in range(m):
            aw, ah = ANCHORS[2 * mask[j]], ANCHORS[2 * mask[j] + 1]
            for k in range(h):
                for col in range(w):
                    v = p[i, j, :, k, col]
                    box = [
                        (col + sigmoid(v[0]) * scale - 0.5 * (scale - 1)) / w,
                        (k + sigmoid(v[1]) * scale - 0.5 * (scale - 1)) / h,
                        math.exp(v[2]) * aw / size,
                        math.exp(v[3]) * ah / size,
                    ]
                    if max([iou(box, gt[i, t]) for t in valid], default=0) > ignore:
                        obj[j, k, col] = -1
        for t in valid:
            g = gt[i, t]
            shapes = [
                iou([0, 0, g[2], g[3]], [0, 0, ANCHORS[2 * a] / size, ANCHORS[2 * a + 1] / size])
                for a in range(len(ANCHORS) // 2)
            ]
            best = int(np.argmax(shapes))
            if best not in mask:
                continue
            j, gi, gj = mask.index(best), int(g[0] * w), int(g[1] * h)
            v = p[i, j, :, gj, gi]
            weight = (2 - g[2] * g[3]) * score[i, t]
            loss += (sce(v[0], g[0] * w - gi) + sce(v[1], g[1] * h - gj)) * weight
            loss += abs(v[2] - math.log(g[2] * size / ANCHORS[2 * best])) * weight
            loss += abs(v[3] - math.log(g[3] * size / ANCHORS[2 * best + 1])) * weight
            for c in range(CLASSES):
                loss += sce(v[5 + c], pos if c == labels[i, t] else neg) * score[i, t]
            obj[j, gj, gi] = score[i, t]
        for j, k, col in np.ndindex(m, h, w):
            o = obj[j, k, col]
            if o > 1e-5:
                loss += sce(p[i, j, 4, k, col], 1.0) * o
            elif o > -0.5:
                loss += sce(p[i, j, 4, k, col], 0.0)
        losses.append(loss)
    return np.array(losses)


def inputs(mask, size, use_score, dtype=np.float64, boxes: int = 5):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, len(mask) * (5 + CLASSES), size, size))
    gt = np.concatenate(
        [rng.uniform(0.1, 0.9, (2, boxes, 2)), rng.uniform(0.05, 0.5, (2, boxes, 2))], -1
    )
    gt[1, -1] = 0  # padding
    labels = rng.integers(0, CLASSES, (2, boxes)).astype(np.int32)
    score = rng.uniform(0.5, 1, (2, boxes)) if use_score else np.ones((2, boxes))
    return x.astype(dtype), gt.astype(dtype), labels, score.astype(dtype)


@pytest.mark.parametrize("mask, size, smooth, use_score, scale", CASES)
def test_it_matches_the_loop_reference(mask, size, smooth, use_score, scale) -> None:
    x, gt, labels, score = inputs(mask, size, use_score)
    got = ops.yolo_loss(
        framework.to_tensor(x),
        framework.to_tensor(gt),
        framework.to_tensor(labels),
        ANCHORS,
        mask,
        CLASSES,
        0.5,
        32,
        framework.to_tensor(score) if use_score else None,
        smooth,
        scale_x_y=scale,
    )
    want = reference(x, gt, labels, mask, 0.5, 32, score, smooth, scale)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_gradients() -> None:
    x, gt, labels, score = inputs([0, 1, 2], 3, True, boxes=3)
    targets = [framework.to_tensor(v) for v in (gt, labels, score)]

    def loss(t):
        return ops.yolo_loss(
            t, targets[0], targets[1], ANCHORS, [0, 1, 2], CLASSES, 0.5, 32, targets[2]
        )

    check_backward(loss, [x])


def test_it_rejects_a_non_square_map() -> None:
    with pytest.raises(ValueError, match="square"):
        ops.yolo_loss(
            framework.rand([1, 27, 4, 5]),
            framework.rand([1, 2, 4]),
            framework.zeros([1, 2], "int32"),
            ANCHORS,
            [0, 1, 2],
            4,
            0.5,
            32,
        )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mask, size, smooth, use_score, scale", CASES)
def test_it_matches_paddle(mask, size, smooth, use_score, scale, dtype) -> None:
    paddle = pytest.importorskip("paddle")
    x, gt, labels, score = inputs(mask, size, use_score, dtype)
    results = []
    for lib, op in ((paddle, paddle.vision.ops.yolo_loss), (framework, ops.yolo_loss)):
        t = lib.to_tensor(x, stop_gradient=False)
        loss = op(
            t,
            lib.to_tensor(gt),
            lib.to_tensor(labels),
            ANCHORS,
            mask,
            CLASSES,
            0.5,
            32,
            lib.to_tensor(score) if use_score else None,
            smooth,
            None,
            scale,
        )
        (loss * lib.to_tensor(np.array([1.0, 2.0], dtype))).sum().backward()
        results.append((loss.numpy(), t.grad.numpy()))
    (want, want_grad), (got, got_grad) = results
    assert got.dtype == want.dtype
    tol = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol)
    np.testing.assert_allclose(got_grad, want_grad, rtol=tol, atol=tol)
