"""COCO-style evaluation of object detections, in NumPy: `coco_evaluate`.

The definitions are pycocotools' `COCOeval` for boxes (its tests hold this module to it to
1e-4): per image and class, detections (best score first, at most `max_detections`) are
matched greedily to the unmatched ground truth box they overlap most, at each IoU threshold
0.50:0.05:0.95; crowd regions (`iscrowd`) match any number of detections, which are then
ignored, and their IoU is the intersection over the detection's own area. Precision is made
monotone and read at 101 recall points; AP averages them, mAP averages AP over the classes
that have ground truth.

    result = coco_evaluate(ground_truth, detections, num_classes=3)
    result.map, result.map_50, result.ap_50_per_class[2], result.pr_curves[0].precision
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.metric.metrics import to_numpy

IOU_THRESHOLDS = np.linspace(0.5, 0.95, int(np.round((0.95 - 0.5) / 0.05)) + 1, endpoint=True)
AREA_RANGE = (0.0, 1e5**2)  # COCO's "all"
RECALL_POINTS = np.linspace(0.0, 1.0, int(np.round(1.0 / 0.01)) + 1, endpoint=True)


@dataclass(frozen=True)
class PrecisionRecallCurve:
    """One class's precision and recall at IoU 0.5 for every score threshold that changes
    them: keeping the detections scoring at least `scores[i]` gives `precision[i]` and
    `recall[i]`. Arrays are float64 `[K]`, by descending score (K = 0 without detections)."""

    recall: np.ndarray
    precision: np.ndarray
    scores: np.ndarray
    num_ground_truth: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "recall": self.recall.tolist(),
            "precision": self.precision.tolist(),
            "scores": self.scores.tolist(),
            "num_ground_truth": self.num_ground_truth,
        }


@dataclass(frozen=True)
class DetectionEvaluation:
    """COCO box metrics. Averages are NaN where no class has ground truth that counts, and a
    class's AP is NaN when it has none (pycocotools' -1).

    Attributes:
        map: mAP@[.5:.95], COCO's headline number.
        map_50, map_75: mAP at IoU 0.5 and 0.75.
        ap_per_class, ap_50_per_class, ap_75_per_class: float64 `[num_classes]`.
        num_ground_truth: int64 `[num_classes]` ground truth boxes per class that count (not
            crowd regions, and with a valid area).
        pr_curves: one `PrecisionRecallCurve` per class, at IoU 0.5.
        precision: float64 `[10, 101, num_classes]` interpolated precision per IoU threshold and
            recall point (-1 for a class without ground truth), as pycocotools' `eval`.
    """

    map: float
    map_50: float
    map_75: float
    ap_per_class: np.ndarray
    ap_50_per_class: np.ndarray
    ap_75_per_class: np.ndarray
    num_ground_truth: np.ndarray
    pr_curves: list[PrecisionRecallCurve] = field(repr=False)
    precision: np.ndarray = field(repr=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: NaN becomes None."""

        def clean(values: np.ndarray) -> list[float | None]:
            return [None if np.isnan(v) else float(v) for v in values]

        return {
            "map": clean(np.array([self.map]))[0],
            "map_50": clean(np.array([self.map_50]))[0],
            "map_75": clean(np.array([self.map_75]))[0],
            "ap_per_class": clean(self.ap_per_class),
            "ap_50_per_class": clean(self.ap_50_per_class),
            "ap_75_per_class": clean(self.ap_75_per_class),
            "num_ground_truth": self.num_ground_truth.tolist(),
            "pr_curves": [curve.as_dict() for curve in self.pr_curves],
        }


@dataclass
class _Image:
    boxes: np.ndarray  # float64 [M, 4] x, y, w, h (pycocotools' form)
    labels: np.ndarray
    crowd: np.ndarray
    scores: np.ndarray | None = None


def _xywh(boxes: Any) -> np.ndarray:
    b = to_numpy(boxes).astype(np.float64).reshape(-1, 4)
    return np.stack([b[:, 0], b[:, 1], b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]], axis=1)


def _labels(value: Any, count: int, num_classes: int, where: str) -> np.ndarray:
    labels = to_numpy(value).astype(np.int64).reshape(-1)
    if labels.size != count:
        raise ValueError(f"{where}: {count} boxes but {labels.size} labels")
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(f"{where}: labels must be in [0, {num_classes}), got {labels.min()}..")
    return labels


def _read(records: Sequence[Mapping[str, Any]], num_classes: int, kind: str) -> dict[Any, _Image]:
    images: dict[Any, _Image] = {}
    for record in records:
        image_id = record["image_id"]
        image_id = image_id.item() if hasattr(image_id, "item") else image_id
        boxes = _xywh(record["boxes"])
        where = f"{kind} of image {image_id!r}"
        labels = _labels(record["labels"], len(boxes), num_classes, where)
        crowd = record.get("iscrowd")
        crowd = np.zeros(len(boxes), bool) if crowd is None else to_numpy(crowd).astype(bool)
        scores = None
        if kind == "detections":
            scores = to_numpy(record["scores"]).astype(np.float64).reshape(-1)
            if scores.size != len(boxes):
                raise ValueError(f"{where}: {len(boxes)} boxes but {scores.size} scores")
        image = _Image(boxes, labels, crowd.reshape(-1), scores)
        if image_id in images:
            if kind == "ground truth":
                raise ValueError(f"image {image_id!r} appears twice in the ground truth")
            image = _merge(images[image_id], image)
        images[image_id] = image
    return images


def _merge(first: _Image, second: _Image) -> _Image:
    return _Image(
        np.concatenate([first.boxes, second.boxes]),
        np.concatenate([first.labels, second.labels]),
        np.concatenate([first.crowd, second.crowd]),
        np.concatenate([first.scores, second.scores]),
    )


def box_overlaps(dt: np.ndarray, gt: np.ndarray, crowd: np.ndarray) -> np.ndarray:
    """`[D, G]` IoU of xywh boxes, as pycocotools' `maskUtils.iou` computes it (crowd columns
    divide by the detection's area only)."""
    if len(dt) == 0 or len(gt) == 0:
        return np.zeros((len(dt), len(gt)))
    w = np.minimum(dt[:, None, 0] + dt[:, None, 2], gt[None, :, 0] + gt[None, :, 2])
    w = w - np.maximum(dt[:, None, 0], gt[None, :, 0])
    h = np.minimum(dt[:, None, 1] + dt[:, None, 3], gt[None, :, 1] + gt[None, :, 3])
    h = h - np.maximum(dt[:, None, 1], gt[None, :, 1])
    inter = np.where((w > 0) & (h > 0), w * h, 0.0)
    dt_area = (dt[:, 2] * dt[:, 3])[:, None]
    union = np.where(crowd[None, :], dt_area, dt_area + (gt[:, 2] * gt[:, 3])[None, :] - inter)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(inter > 0, inter / union, 0.0)


def _last_best(ious: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of `allowed` `[T, G]`: the last column with the largest IoU, and whether any."""
    values = np.where(allowed, ious[None, :], -np.inf)
    flipped = values[:, ::-1]
    return values.shape[1] - 1 - np.argmax(flipped, axis=1), allowed.any(axis=1)


def _out_of_range(boxes: np.ndarray) -> np.ndarray:
    """Boxes whose area `w * h` is outside COCO's "all" range (a flipped box's is negative)."""
    area = boxes[:, 2] * boxes[:, 3]
    return (area < AREA_RANGE[0]) | (area > AREA_RANGE[1])


def match_image(
    dt: np.ndarray, gt: np.ndarray, crowd: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Greedy matching of one image and class. `dt` is sorted best first and `gt` with its
    ignored boxes (crowd regions, areas out of range) last. Returns, per IoU threshold and
    detection, whether it matched (`[T, D]` bool) and whether it is ignored (matched to an
    ignored box, or unmatched with an area out of range), and the ground truth ignore flags."""
    ious = box_overlaps(dt, gt, crowd)
    ignore = crowd | _out_of_range(gt)
    thresholds = np.minimum(IOU_THRESHOLDS, 1 - 1e-10)
    n_t, n_g = len(thresholds), len(gt)
    matched = np.zeros((n_t, len(dt)), bool)
    ignored = np.zeros((n_t, len(dt)), bool)
    taken = np.zeros((n_t, n_g), bool)
    rows = np.arange(n_t)
    for d in range(len(dt) if n_g else 0):
        allowed = (~taken | crowd[None, :]) & (ious[d][None, :] >= thresholds[:, None])
        first, has_first = _last_best(ious[d], allowed & ~ignore[None, :])
        second, has_second = _last_best(ious[d], allowed & ignore[None, :])
        found = has_first | has_second
        choice = np.where(has_first, first, second)
        matched[found, d] = True
        ignored[found, d] = ignore[choice[found]]
        taken[rows[found], choice[found]] = True
    ignored |= ~matched & _out_of_range(dt)[None, :]
    return matched, ignored, ignore


def _per_class(
    gt_images: dict[Any, _Image],
    dt_images: dict[Any, _Image],
    label: int,
    max_detections: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Every detection of class `label` over the images: scores, matched `[T, D]` and
    ignored `[T, D]` (pycocotools' accumulate order), and the non-crowd ground truth count."""
    scores, matched, ignored, positives = [], [], [], 0
    for image_id in sorted(gt_images):
        truth = gt_images[image_id]
        in_class = truth.labels == label
        gt, gt_crowd = truth.boxes[in_class], truth.crowd[in_class]
        order = np.argsort(gt_crowd | _out_of_range(gt), kind="stable")
        gt, gt_crowd = gt[order], gt_crowd[order]
        found = dt_images.get(image_id)
        if found is None:
            dt, dt_scores = np.zeros((0, 4)), np.zeros(0)
        else:
            mine = found.labels == label
            best = np.argsort(-found.scores[mine], kind="stable")[:max_detections]
            dt, dt_scores = found.boxes[mine][best], found.scores[mine][best]
        if len(gt) == 0 and len(dt) == 0:
            continue
        m, ig, gt_ignored = match_image(dt, gt, gt_crowd)
        scores.append(dt_scores)
        matched.append(m)
        ignored.append(ig)
        positives += int(np.count_nonzero(~gt_ignored))
    if not scores:
        empty = np.zeros((len(IOU_THRESHOLDS), 0), bool)
        return np.zeros(0), empty, empty, positives
    all_scores = np.concatenate(scores)
    order = np.argsort(-all_scores, kind="mergesort")
    return (
        all_scores[order],
        np.concatenate(matched, axis=1)[:, order],
        np.concatenate(ignored, axis=1)[:, order],
        positives,
    )


def _interpolated_precision(tp: np.ndarray, fp: np.ndarray, positives: int) -> np.ndarray:
    """`[T, 101]` precision at the recall points (pycocotools' accumulate)."""
    out = np.zeros((tp.shape[0], len(RECALL_POINTS)))
    for t in range(tp.shape[0]):
        n = tp.shape[1]
        if n == 0:
            continue
        recall = tp[t] / positives
        precision = tp[t] / (fp[t] + tp[t] + np.spacing(1))
        envelope = np.maximum.accumulate(precision[::-1])[::-1]
        index = np.searchsorted(recall, RECALL_POINTS, side="left")
        inside = index < n
        out[t, inside] = envelope[index[inside]]
    return out


def _curve(scores: np.ndarray, tp: np.ndarray, fp: np.ndarray, keep: np.ndarray, positives: int):
    """The IoU-0.5 curve over counted detections, one point per distinct score."""
    s, t, f = scores[keep], tp[keep], fp[keep]
    last = np.ones(len(s), bool)
    last[:-1] = s[1:] != s[:-1]  # the last detection of each run of equal scores
    s, t, f = s[last], t[last], f[last]
    recall = t / positives if positives else np.zeros(len(t))
    with np.errstate(invalid="ignore"):
        precision = np.where(t + f > 0, t / np.maximum(t + f, 1), 0.0)
    return PrecisionRecallCurve(recall, precision, s, positives)


def _mean(values: np.ndarray) -> float:
    valid = values[values > -1]
    return float(np.mean(valid)) if valid.size else float("nan")


def coco_evaluate(
    ground_truth: Sequence[Mapping[str, Any]],
    detections: Sequence[Mapping[str, Any]],
    num_classes: int,
    max_detections: int = 100,
) -> DetectionEvaluation:
    """COCO box AP (pycocotools' definitions) of `detections` against `ground_truth`.

    Args:
        ground_truth: one dict per image: `image_id` (any hashable, unique), `boxes` float
            `[M, 4]` `[x1, y1, x2, y2]` pixels, `labels` int `[M]` in `[0, num_classes)`, and
            optionally `iscrowd` `[M]` (crowd regions: matched detections are ignored).
            Images without boxes count: their detections are false positives.
        detections: dicts with `image_id`, `boxes` `[K, 4]`, `labels` `[K]` and `scores`
            `[K]`; several dicts for one image are merged; an image may have none.
        num_classes: the number of classes.
        max_detections: detections per image and class that count, best first (COCO: 100).

    Returns:
        A `DetectionEvaluation`: mAP@[.5:.95], mAP@.5, mAP@.75, AP per class and IoU-0.5
        precision-recall curves per class.

    Example:
        >>> truth = [{"image_id": 1, "boxes": np.array([[10, 10, 50, 50]]), "labels": [0]}]
        >>> found = [{"image_id": 1, "boxes": np.array([[12, 10, 50, 52]]), "labels": [0],
        ...           "scores": [0.9]}]
        >>> round(coco_evaluate(truth, found, num_classes=1).map_50, 6)
        1.0
    """
    gt_images = _read(ground_truth, num_classes, "ground truth")
    dt_images = _read(detections, num_classes, "detections")
    unknown = set(dt_images) - set(gt_images)
    if unknown:
        raise ValueError(f"detections for images without ground truth: {sorted(unknown)[:5]}")
    n_t = len(IOU_THRESHOLDS)
    precision = -np.ones((n_t, len(RECALL_POINTS), num_classes))
    counts = np.zeros(num_classes, np.int64)
    curves = []
    for label in range(num_classes):
        scores, matched, ignored, positives = _per_class(
            gt_images, dt_images, label, max_detections
        )
        counts[label] = positives
        tp = np.cumsum(matched & ~ignored, axis=1).astype(np.float64)
        fp = np.cumsum(~matched & ~ignored, axis=1).astype(np.float64)
        if positives:
            precision[:, :, label] = _interpolated_precision(tp, fp, positives)
        curves.append(_curve(scores, tp[0], fp[0], ~ignored[0], positives))
    t50 = int(np.argmin(np.abs(IOU_THRESHOLDS - 0.5)))
    t75 = int(np.argmin(np.abs(IOU_THRESHOLDS - 0.75)))
    per_class = [np.array([_mean(precision[t, :, k]) for k in range(num_classes)]) for t in
                 (slice(None), t50, t75)]  # fmt: skip
    return DetectionEvaluation(
        map=_mean(precision),
        map_50=_mean(precision[t50]),
        map_75=_mean(precision[t75]),
        ap_per_class=per_class[0],
        ap_50_per_class=per_class[1],
        ap_75_per_class=per_class[2],
        num_ground_truth=counts,
        pr_curves=curves,
        precision=precision,
    )
