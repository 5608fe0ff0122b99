"""`distribute_fpn_proposals` and `generate_proposals`: per-RoI references of FPN's level rule
and of the RPN's decode / clip / filter / NMS steps, and real Paddle."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.vision import ops
from tests.framework_tests.vision_tests.test_ops_nms import reference_nms


def fpn_rois(dtype=np.float64) -> np.ndarray:
    rng = np.random.default_rng(0)
    rois = np.concatenate([rng.uniform(0, 300, (20, 2)), rng.uniform(0, 300, (20, 2))], 1)
    rois[:, 2:] = rois[:, :2] + rng.uniform(1, 500, (20, 2))
    rois[3, 2] = rois[3, 0] - 1  # an empty box goes to the lowest level
    return rois.astype(dtype)


ROIS_NUM = np.array([12, 8], np.int32)


@pytest.mark.parametrize("pixel_offset", [False, True])
def test_rois_go_to_the_level_of_their_size(pixel_offset) -> None:
    rois = fpn_rois()
    multi, restore, counts = ops.distribute_fpn_proposals(
        framework.to_tensor(rois), 2, 5, 4, 224, pixel_offset, framework.to_tensor(ROIS_NUM)
    )
    offset = 1.0 if pixel_offset else 0.0
    want = []
    for x1, y1, x2, y2 in rois:
        area = 0.0 if x2 < x1 or y2 < y1 else (x2 - x1 + offset) * (y2 - y1 + offset)
        level = math.floor(math.log2(math.sqrt(area) / 224 + 1e-8) + 4) if area else 2
        want.append(min(max(level, 2), 5))
    want = np.array(want)
    for lv, part in zip(range(2, 6), multi, strict=True):
        np.testing.assert_array_equal(part.numpy(), rois[want == lv])
    restored = np.concatenate([p.numpy() for p in multi])[restore.numpy()[:, 0]]
    np.testing.assert_array_equal(restored, rois)
    image = np.repeat([0, 1], ROIS_NUM)
    for lv, count in zip(range(2, 6), counts, strict=True):
        assert count.numpy().tolist() == [int((want[image == i] == lv).sum()) for i in (0, 1)]


def rpn_inputs(dtype=np.float32):
    rng = np.random.default_rng(0)
    n, a, h, w = 2, 3, 4, 5
    scores = rng.uniform(0, 1, (n, a, h, w)).astype(dtype)
    deltas = (rng.standard_normal((n, 4 * a, h, w)) * 0.5).astype(dtype)
    img = np.array([[60, 80], [50, 40]], dtype)
    cy, cx = np.meshgrid(np.arange(h) * 16 + 8, np.arange(w) * 16 + 8, indexing="ij")
    half = np.array([8, 16, 24])
    anchors = np.stack(
        [cx[..., None] - half, cy[..., None] - half, cx[..., None] + half, cy[..., None] + half],
        -1,
    ).astype(dtype)
    variances = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2], dtype), anchors.shape).copy()
    return scores, deltas, img, anchors, variances


def reference_proposals(scores, deltas, img, anchors, variances, pre, post, thresh, min_size):
    """One image, no pixel offset, eta 1: every step on one anchor at a time."""
    a = scores.shape[0]
    flat = [
        (scores[k, i, j], deltas[4 * k : 4 * k + 4, i, j], anchors[i, j, k], variances[i, j, k])
        for i in range(scores.shape[1])
        for j in range(scores.shape[2])
        for k in range(a)
    ]
    flat.sort(key=lambda t: -t[0])
    boxes, kept_scores = [], []
    for score, d, anchor, var in flat[:pre]:
        aw, ah = anchor[2] - anchor[0], anchor[3] - anchor[1]
        cx, cy = anchor[0] + aw / 2 + var[0] * d[0] * aw, anchor[1] + ah / 2 + var[1] * d[1] * ah
        bw = math.exp(min(var[2] * d[2], math.log(1000 / 16))) * aw
        bh = math.exp(min(var[3] * d[3], math.log(1000 / 16))) * ah
        box = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
        box = [min(max(v, 0), img[1] if k % 2 == 0 else img[0]) for k, v in enumerate(box)]
        if box[2] - box[0] >= max(min_size, 1) and box[3] - box[1] >= max(min_size, 1):
            boxes.append(box)
            kept_scores.append(score)
    keep = reference_nms(boxes, thresh)[:post]
    return np.array(boxes)[keep], np.array(kept_scores)[keep]


def test_proposals_match_the_per_anchor_reference() -> None:
    inputs = rpn_inputs(np.float64)
    rois, probs, num = ops.generate_proposals(
        *[framework.to_tensor(v) for v in inputs],
        pre_nms_top_n=30,
        post_nms_top_n=8,
        nms_thresh=0.6,
        min_size=2.0,
        return_rois_num=True,
    )
    start = 0
    for i, count in enumerate(num.numpy()):
        scores, deltas, img, anchors, variances = inputs
        want_rois, want_probs = reference_proposals(
            scores[i], deltas[i], img[i], anchors, variances, 30, 8, 0.6, 2.0
        )
        np.testing.assert_allclose(rois.numpy()[start : start + count], want_rois, atol=1e-9)
        np.testing.assert_allclose(probs.numpy()[start : start + count, 0], want_probs)
        start += count


def test_an_image_with_no_box_left_gets_one_zero_box() -> None:
    rois, probs, num = ops.generate_proposals(
        *[framework.to_tensor(v) for v in rpn_inputs()], min_size=1000.0, return_rois_num=True
    )
    assert num.numpy().tolist() == [1, 1]
    assert not rois.numpy().any() and not probs.numpy().any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("pixel_offset", [False, True])
def test_distribute_matches_paddle(dtype, pixel_offset) -> None:
    paddle = pytest.importorskip("paddle")
    rois = fpn_rois(dtype)
    args = (2, 5, 4, 224, pixel_offset)
    want = paddle.vision.ops.distribute_fpn_proposals(
        paddle.to_tensor(rois), *args, paddle.to_tensor(ROIS_NUM)
    )
    got = ops.distribute_fpn_proposals(
        framework.to_tensor(rois), *args, framework.to_tensor(ROIS_NUM)
    )
    flat_got = [*got[0], got[1], *got[2]]
    flat_want = [*want[0], want[1], *want[2]]
    for g, w in zip(flat_got, flat_want, strict=True):
        assert g.numpy().dtype == w.numpy().dtype
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "pre_nms_top_n": 20,
            "post_nms_top_n": 5,
            "nms_thresh": 0.7,
            "min_size": 3.0,
            "eta": 0.9,
            "pixel_offset": True,
        },
        {"nms_thresh": 0.8, "eta": 0.7},
        {"min_size": 100.0},
    ],
)
def test_proposals_match_paddle(options) -> None:
    paddle = pytest.importorskip("paddle")
    inputs = rpn_inputs()
    want = paddle.vision.ops.generate_proposals(
        *[paddle.to_tensor(v) for v in inputs], return_rois_num=True, **options
    )
    got = ops.generate_proposals(
        *[framework.to_tensor(v) for v in inputs], return_rois_num=True, **options
    )
    for g, w in zip(got, want, strict=True):
        assert g.shape == list(w.shape)
        assert g.numpy().dtype == w.numpy().dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6, atol=2e-5)


def test_it_rejects_anchors_that_do_not_cover_the_map() -> None:
    scores, deltas, img, anchors, variances = rpn_inputs()
    with pytest.raises(ValueError, match="anchors and variances"):
        ops.generate_proposals(
            *[framework.to_tensor(v) for v in (scores, deltas, img, anchors[:2], variances)]
        )
