"""Label assigners (`framework.vision.detection.assigners`): the batched, vectorised TAL and
ATSS against per-image, per-box loop references of PaddleDetection's steps, and crafted cases
(no ground truth, padding, an anchor claimed by two boxes)."""

from __future__ import annotations

import numpy as np
import pytest

from framework.vision.detection import assigners

STRIDES = (8, 16, 32)
SIZE = 64


def grid():
    """Anchor points and 5-stride cells of a 64×64 image at strides 8, 16, 32."""
    points, cells, counts = [], [], []
    for stride in STRIDES:
        n = SIZE // stride
        ys, xs = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
        p = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], 1) * stride
        points.append(p)
        cells.append(np.concatenate([p - 2.5 * stride, p + 2.5 * stride], 1))
        counts.append(n * n)
    return np.concatenate(points), np.concatenate(cells), counts


def scene(seed: int, counts=(3, 0, 5)):
    rng = np.random.default_rng(seed)
    points, _, _ = grid()
    gts, labels = [], []
    for m in counts:
        xy = rng.uniform(0, 40, (m, 2))
        wh = rng.uniform(8, 30, (m, 2))
        gts.append(np.concatenate([xy, xy + wh], 1))
        labels.append(rng.integers(0, 3, m))
    batch = len(counts)
    half = rng.uniform(4, 20, (batch, len(points), 2))
    pred = np.concatenate([points - half, points + half[..., ::-1]], -1)
    scores = rng.uniform(0.01, 1.0, (batch, len(points), 3))
    return gts, labels, pred, scores


def iou(a, b, eps=1e-10):
    w = max(min(a[2], b[2]) - max(a[0], b[0]), 0)
    h = max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    area = max(a[2] - a[0], 0) * max(a[3] - a[1], 0) + max(b[2] - b[0], 0) * max(b[3] - b[1], 0)
    return w * h / (area - w * h + eps)


def inside(point, box) -> bool:
    x, y = point
    return min(x - box[0], y - box[1], box[2] - x, box[3] - y) > 1e-9


def resolve_and_target(pos, ious, gt, labels, num_classes):
    """One box per anchor (the highest IoU among all boxes), then labels and boxes."""
    m, n_anchors = pos.shape
    for a in range(n_anchors):
        if pos[:, a].sum() > 1:
            best = int(np.argmax(ious[:, a]))
            pos[:, a] = False
            pos[best, a] = True
    out_labels = np.full(n_anchors, num_classes)
    out_boxes = np.zeros((n_anchors, 4))
    for a in range(n_anchors):
        owners = np.nonzero(pos[:, a])[0]
        k = owners[0] if len(owners) else 0
        if len(owners):
            out_labels[a] = labels[k]
        out_boxes[a] = gt[k] if m else 0
    return pos, out_labels, out_boxes


def tal_reference(scores, pred, points, gt, labels, num_classes, topk=13, alpha=1.0, beta=6.0):
    n_anchors = len(points)
    m = len(gt)
    ious = np.array([[iou(g, p) for p in pred] for g in gt]).reshape(m, n_anchors)
    align = np.zeros((m, n_anchors))
    for i in range(m):
        for a in range(n_anchors):
            align[i, a] = scores[a, labels[i]] ** alpha * ious[i, a] ** beta
    pos = np.zeros((m, n_anchors), bool)
    for i in range(m):
        within = [inside(p, gt[i]) for p in points]
        values = align[i] * within
        for a in sorted(range(n_anchors), key=lambda a: (-values[a], a))[:topk]:
            pos[i, a] = within[a]
    pos, out_labels, out_boxes = resolve_and_target(pos, ious, gt, labels, num_classes)
    target = np.zeros((n_anchors, num_classes))
    for a in range(n_anchors):
        best = 0.0
        for i in range(m):
            if pos[i, a]:
                top_align = max(align[i, b] for b in range(n_anchors) if pos[i, b])
                top_iou = max(ious[i, b] for b in range(n_anchors) if pos[i, b])
                best = max(best, align[i, a] / (top_align + 1e-9) * top_iou)
        if out_labels[a] < num_classes:
            target[a, out_labels[a]] = best
    return out_labels, out_boxes, target


def atss_reference(cells, counts, gt, labels, num_classes, pred, topk=9):
    n_anchors = len(cells)
    m = len(gt)
    centers = (cells[:, :2] + cells[:, 2:]) / 2
    ious = np.array([[iou(g, c) for c in cells] for g in gt]).reshape(m, n_anchors)
    pos = np.zeros((m, n_anchors), bool)
    for i in range(m):
        center = (gt[i, :2] + gt[i, 2:]) / 2
        candidates, start = [], 0
        for count in counts:
            level = range(start, start + count)
            dist = {a: float(np.hypot(*(center - centers[a]))) for a in level}
            candidates += sorted(level, key=lambda a: (dist[a], a))[:topk]
            start += count
        values = ious[i, candidates]
        threshold = values.mean() + values.std(ddof=1)
        for a in candidates:
            pos[i, a] = ious[i, a] > threshold and inside(centers[a], gt[i])
    pos, out_labels, out_boxes = resolve_and_target(pos, ious, gt, labels, num_classes)
    target = np.zeros((n_anchors, num_classes))
    for a in range(n_anchors):
        if out_labels[a] < num_classes:
            owner = int(np.nonzero(pos[:, a])[0][0])
            target[a, out_labels[a]] = iou(gt[owner], pred[a])
    return out_labels, out_boxes, target


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_task_aligned_matches_the_loop_reference(seed) -> None:
    gts, labels, pred, scores = scene(seed)
    points, _, _ = grid()
    gt_boxes, gt_labels, gt_mask = assigners.pad_ground_truth(gts, labels, dtype=np.float64)
    found = assigners.task_aligned_assign(
        scores, pred, points, gt_labels, gt_boxes, gt_mask, num_classes=3
    )
    assert found.labels.dtype == np.int64 and found.scores.shape == scores.shape
    for b in range(len(gts)):
        want_labels, want_boxes, want_scores = tal_reference(
            scores[b], pred[b], points, gts[b], labels[b], 3
        )
        np.testing.assert_array_equal(found.labels[b], want_labels)
        positive = want_labels < 3
        np.testing.assert_allclose(found.boxes[b][positive], want_boxes[positive])
        np.testing.assert_allclose(found.scores[b], want_scores, rtol=1e-9, atol=1e-12)
    assert found.positive[0].sum() > 0 and found.positive[1].sum() == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_atss_matches_the_loop_reference(seed) -> None:
    gts, labels, pred, _ = scene(seed)
    _, cells, counts = grid()
    gt_boxes, gt_labels, gt_mask = assigners.pad_ground_truth(gts, labels, dtype=np.float64)
    found = assigners.atss_assign(
        cells, counts, gt_labels, gt_boxes, gt_mask, num_classes=3, pred_boxes=pred
    )
    for b in range(len(gts)):
        want_labels, want_boxes, want_scores = atss_reference(
            cells, counts, gts[b], labels[b], 3, pred[b]
        )
        np.testing.assert_array_equal(found.labels[b], want_labels)
        positive = want_labels < 3
        np.testing.assert_allclose(found.boxes[b][positive], want_boxes[positive])
        np.testing.assert_allclose(found.scores[b], want_scores, rtol=1e-9, atol=1e-12)
    assert found.positive[0].sum() > 0 and found.positive[2].sum() > 0


def test_no_ground_truth_anywhere_is_all_background() -> None:
    points, cells, counts = grid()
    gt_boxes, gt_labels, gt_mask = assigners.pad_ground_truth([np.zeros((0, 4))] * 2, [[], []])
    assert gt_boxes.shape == (2, 0, 4)
    scores = np.full((2, len(points), 3), 0.5, np.float32)
    pred = np.zeros((2, len(points), 4), np.float32)
    for found in (
        assigners.task_aligned_assign(scores, pred, points, gt_labels, gt_boxes, gt_mask, 3),
        assigners.atss_assign(cells, counts, gt_labels, gt_boxes, gt_mask, 3),
    ):
        assert (found.labels == 3).all() and not found.scores.any()
        assert found.boxes.shape == (2, len(points), 4)


def test_an_anchor_claimed_by_two_boxes_goes_to_the_one_it_overlaps_most() -> None:
    points = np.array([[10.0, 10.0]])
    pred = np.array([[[2.0, 2.0, 18.0, 18.0]]])
    scores = np.array([[[0.9, 0.9]]])
    boxes = [np.array([[0.0, 0.0, 20.0, 20.0], [5.0, 5.0, 16.0, 16.0]])]
    gt_boxes, gt_labels, gt_mask = assigners.pad_ground_truth(boxes, [np.array([1, 0])])
    found = assigners.task_aligned_assign(scores, pred, points, gt_labels, gt_boxes, gt_mask, 2)
    overlaps = [assigners.batch_iou(gt_boxes[:, k : k + 1], pred)[0, 0, 0] for k in range(2)]
    winner = int(np.argmax(overlaps))
    assert found.gt_index[0, 0] == winner and found.labels[0, 0] == [1, 0][winner]
    np.testing.assert_allclose(found.scores[0, 0, [1, 0][winner]], overlaps[winner], rtol=1e-6)


def test_points_inside_is_strict() -> None:
    box = np.array([[[0.0, 0.0, 10.0, 10.0]]])
    points = np.array([[5.0, 5.0], [0.0, 5.0], [10.0, 10.0], [11.0, 5.0]])
    assert assigners.points_inside(points, box)[0, 0].tolist() == [True, False, False, False]


@pytest.mark.gpu
def test_assigners_on_gpu_match_numpy() -> None:
    from framework.core.backend import CUDAPlace, to_numpy, to_place

    place = CUDAPlace(0)
    gts, labels, pred, scores = scene(3)
    points, cells, counts = grid()
    padded = assigners.pad_ground_truth(gts, labels, dtype=np.float64)
    on_gpu = [to_place(a, place) for a in padded]
    cpu = assigners.task_aligned_assign(
        scores, pred, points, padded[1], padded[0], padded[2], num_classes=3
    )
    gpu = assigners.task_aligned_assign(
        to_place(scores, place), to_place(pred, place), to_place(points, place),
        on_gpu[1], on_gpu[0], on_gpu[2], num_classes=3,
    )  # fmt: skip
    np.testing.assert_array_equal(to_numpy(gpu.labels), cpu.labels)
    np.testing.assert_allclose(to_numpy(gpu.scores), cpu.scores, rtol=1e-9)
    cpu = assigners.atss_assign(cells, counts, padded[1], padded[0], padded[2], 3, pred_boxes=pred)
    gpu = assigners.atss_assign(
        to_place(cells, place), counts, on_gpu[1], on_gpu[0], on_gpu[2], 3,
        pred_boxes=to_place(pred, place),
    )  # fmt: skip
    np.testing.assert_array_equal(to_numpy(gpu.labels), cpu.labels)
