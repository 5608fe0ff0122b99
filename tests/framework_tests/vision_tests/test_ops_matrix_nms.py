"""`matrix_nms`: a loop-by-loop reference of Paddle's kernel (its pairwise decay loop), and
real Paddle's outputs, counts and indices."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.vision import ops
from tests.framework_tests.vision_tests.test_ops_nms import clustered_boxes, scalar_iou


def reference_class(boxes, scores, thresh, post, top_k, gaussian, sigma, offset):
    order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > thresh]
    if top_k > -1:
        order = order[:top_k]
    max_iou = [0.0] * len(order)
    for i in range(len(order)):
        for j in range(i):
            max_iou[i] = max(max_iou[i], scalar_iou(boxes[order[i]], boxes[order[j]], offset))
    kept = []
    for i, box in enumerate(order):
        decay = 1.0
        for j in range(i):
            iou = scalar_iou(boxes[box], boxes[order[j]], offset)
            if gaussian:
                decay = min(decay, math.exp((max_iou[j] ** 2 - iou**2) * sigma))
            else:
                decay = min(decay, (1 - iou) / (1 - max_iou[j]))
        if decay * scores[box] > post:
            kept.append((box, decay * scores[box]))
    return kept


def reference(
    b, s, thresh, post, top_k, keep, gaussian=False, sigma=2.0, background=0, normalized=True
):
    rows, counts = [], []
    for image in range(b.shape[0]):
        found = []
        for label in range(s.shape[1]):
            if label == background:
                continue
            for box, score in reference_class(
                b[image],
                s[image, label],
                thresh,
                post,
                top_k,
                gaussian,
                sigma,
                0.0 if normalized else 1.0,
            ):
                found.append([label, score, *b[image, box]])
        found.sort(key=lambda r: -r[1])
        found = found[:keep] if keep > -1 else found
        rows += found
        counts.append(len(found))
    return np.array(rows).reshape(-1, 6), counts


def inputs(dtype=np.float64):
    b = np.stack([clustered_boxes(30, seed) for seed in (1, 2)]).astype(dtype)
    s = np.random.default_rng(3).uniform(0, 1, (2, 4, 30)).astype(dtype)
    return b, s


CASES = [
    ((0.2, 0.3, 10, 15), {}),
    ((0.2, 0.3, 10, 15), {"use_gaussian": True, "gaussian_sigma": 2.0, "background_label": -1}),
    ((0.1, 0.5, -1, -1), {"normalized": False, "background_label": 1}),
    ((0.5, 0.6, 5, 100), {}),
]


@pytest.mark.parametrize("args, options", CASES)
def test_it_matches_the_loop_reference(args, options) -> None:
    b, s = inputs()
    out, rois_num, index = ops.matrix_nms(
        framework.to_tensor(b), framework.to_tensor(s), *args, return_index=True, **options
    )
    renamed = {
        "gaussian": options.get("use_gaussian", False),
        "sigma": options.get("gaussian_sigma", 2.0),
        "background": options.get("background_label", 0),
        "normalized": options.get("normalized", True),
    }
    want, counts = reference(b, s, *args, **renamed)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-12)
    assert rois_num.numpy().tolist() == counts
    flat = b.reshape(-1, 4)[index.numpy()[:, 0]]
    np.testing.assert_array_equal(flat, out.numpy()[:, 2:])


def test_nothing_above_the_threshold_gives_empty_outputs() -> None:
    b, s = inputs(np.float32)
    out, rois_num, index = ops.matrix_nms(
        framework.to_tensor(b), framework.to_tensor(s), 2.0, 0.3, 10, 15, return_index=True
    )
    assert out.shape == [0, 6] and index.shape == [0, 1]
    assert rois_num.numpy().tolist() == [0, 0]


def test_outputs_not_asked_for_are_none() -> None:
    b, s = inputs(np.float32)
    _, rois_num, index = ops.matrix_nms(
        framework.to_tensor(b), framework.to_tensor(s), 0.2, 0.3, 10, 15, return_rois_num=False
    )
    assert rois_num is None and index is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("args, options", CASES)
def test_it_matches_paddle(args, options, dtype) -> None:
    paddle = pytest.importorskip("paddle")
    b, s = inputs(dtype)
    want = paddle.vision.ops.matrix_nms(
        paddle.to_tensor(b), paddle.to_tensor(s), *args, return_index=True, **options
    )
    got = ops.matrix_nms(
        framework.to_tensor(b), framework.to_tensor(s), *args, return_index=True, **options
    )
    for g, w in zip(got, want, strict=True):
        assert g.shape == list(w.shape)
        assert g.numpy().dtype == w.numpy().dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6, atol=1e-6)
