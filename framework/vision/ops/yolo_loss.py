"""The YOLOv3 training loss (Paddle's `paddle.vision.ops.yolo_loss`, the `yolov3_loss` kernel).

Per image: every ground-truth box picks its best anchor by shape; if that anchor belongs to
this head (`anchor_mask`), the cell holding the box's center learns the box (sigmoid cross
entropy on the center offsets, L1 on the log size, both weighted by `2 - w * h`), its class
(sigmoid cross entropy, optionally label-smoothed) and objectness 1. Every other prediction
learns objectness 0, unless it already overlaps a ground truth by more than `ignore_thresh`.

Which cells learn what is decided on the arrays (it has no gradient in Paddle either); the
loss itself is built from framework ops on the gathered predictions, so it is differentiable
in `x` to any order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import framework
from framework.core.backend import get_array_module, to_numpy
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor


def _sigmoid_cross_entropy(x: Tensor, target: Tensor | float) -> Tensor:
    """`max(x, 0) - x * target + log(1 + exp(-|x|))`, as Paddle's kernel."""
    return framework.nn.functional.relu(x) - x * target + framework.log1p(framework.exp(-x.abs()))


def _center_iou(a: list[np.ndarray], b: list[np.ndarray]) -> np.ndarray:
    """IoU of broadcast `(cx, cy, w, h)` boxes."""
    iw = np.minimum(a[0] + a[2] / 2, b[0] + b[2] / 2) - np.maximum(a[0] - a[2] / 2, b[0] - b[2] / 2)
    ih = np.minimum(a[1] + a[3] / 2, b[1] + b[3] / 2) - np.maximum(a[1] - a[3] / 2, b[1] - b[3] / 2)
    inter = np.where((iw < 0) | (ih < 0), 0.0, iw * ih)
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def _ignored(pred: np.ndarray, gt: np.ndarray, valid: np.ndarray, thresh: float) -> np.ndarray:
    """`[N, M, H, W]`: predictions overlapping some valid ground truth by more than `thresh`."""
    g = [gt[:, None, None, None, :, k] for k in range(4)]
    iou = _center_iou([pred[..., k, None] for k in range(4)], g)
    iou = np.where(valid[:, None, None, None, :], iou, 0.0)
    return iou.max(axis=-1, initial=0.0) > thresh


def _pred_boxes(x: np.ndarray, anchors: np.ndarray, input_size: int, scale: float) -> np.ndarray:
    """`[N, M, H, W, 4]` predicted `(cx, cy, w, h)`, normalised to the image."""
    n, m, _, h, w = x.shape
    bias = -0.5 * (scale - 1.0)
    sig = 1.0 / (1.0 + np.exp(-x[:, :, :2]))
    cx = (np.arange(w) + sig[:, :, 0] * scale + bias) / w
    cy = (np.arange(h)[:, None] + sig[:, :, 1] * scale + bias) / h
    bw = np.exp(x[:, :, 2]) * anchors[:, 0].reshape(1, m, 1, 1) / input_size
    bh = np.exp(x[:, :, 3]) * anchors[:, 1].reshape(1, m, 1, 1) / input_size
    return np.stack([cx, cy, bw, bh], axis=-1)


def _matches(
    gt: np.ndarray,
    valid: np.ndarray,
    anchors: np.ndarray,
    mask: list[int],
    input_size: int,
    grid: tuple[int, int],
) -> dict[str, Any]:
    """The ground truths this head learns: image, mask slot, cell and box of each."""
    wh = anchors / input_size  # [A, 2]
    inter = np.minimum(gt[..., 2, None], wh[:, 0]) * np.minimum(gt[..., 3, None], wh[:, 1])
    iou = inter / (gt[..., 2, None] * gt[..., 3, None] + wh[:, 0] * wh[:, 1] - inter)
    best = iou.argmax(axis=-1)  # [N, B]; the first anchor on ties, as Paddle's strict >
    slot = np.full(best.shape, -1)
    for s, a in enumerate(mask):
        slot[best == a] = s
    image, box = np.nonzero(valid & (slot >= 0))
    h, w = grid
    return {
        "image": image,
        "box": box,
        "slot": slot[image, box],
        "anchor": best[image, box],
        "gi": (gt[image, box, 0] * w).astype(np.int64),
        "gj": (gt[image, box, 1] * h).astype(np.int64),
    }


def yolo_loss(
    x: Tensor,
    gt_box: Tensor,
    gt_label: Tensor,
    anchors: Sequence[int],
    anchor_mask: Sequence[int],
    class_num: int,
    ignore_thresh: float,
    downsample_ratio: int,
    gt_score: Tensor | None = None,
    use_label_smooth: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
) -> Tensor:
    """YOLOv3 loss of one head, per image.

    Args:
        x: `[N, M * (5 + class_num), H, H]` head output (square), `M = len(anchor_mask)`.
        gt_box: `[N, B, 4]` ground truths `(cx, cy, w, h)` normalised to the image; boxes of
            zero size are padding.
        gt_label: `[N, B]` int32 class of each ground truth.
        anchors: `[w0, h0, w1, h1, ...]` all anchors, in input pixels.
        anchor_mask: the anchors (indices) this head predicts.
        class_num: number of classes.
        ignore_thresh: predictions overlapping a ground truth by more than this learn no
            objectness.
        downsample_ratio: the head's stride.
        gt_score: `[N, B]` weight of each ground truth (mixup), default 1.
        use_label_smooth: class targets `1 - s` and `s`, `s = min(1 / class_num, 1 / 40)`.
        scale_x_y: center scaling of the predictions compared against `ignore_thresh`.

    Returns:
        `[N]` loss of each image, the dtype of `x`; differentiable in `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([2, 3 * (5 + 4), 8, 8])
        >>> gt_box = paddle.to_tensor([[[0.5, 0.5, 0.2, 0.3]], [[0.3, 0.6, 0.1, 0.1]]])
        >>> gt_label = paddle.to_tensor([[1], [3]], "int32")
        >>> yolo_loss(x, gt_box, gt_label, [10, 13, 16, 30, 33, 23], [0, 1, 2], 4, 0.7, 32).shape
        paddle.Size([2])
    """
    x = as_tensor(x)
    n, c, h, w = x.shape
    mask = [int(a) for a in anchor_mask]
    m, entries = len(mask), 5 + class_num
    if h != w:
        raise ValueError(f"yolo_loss needs a square feature map (as Paddle), got {h} x {w}")
    if c != m * entries:
        raise ValueError(f"yolo_loss: x has {c} channels, expected {m} x (5 + {class_num})")
    all_anchors = np.asarray(anchors, dtype=np.float64).reshape(-1, 2)
    gt = to_numpy(as_tensor(gt_box)._data).astype(np.float64)
    labels = to_numpy(as_tensor(gt_label)._data).astype(np.int64)
    score = (
        np.ones(labels.shape) if gt_score is None else to_numpy(as_tensor(gt_score)._data)
    ).astype(np.float64)
    valid = (np.abs(gt[..., 2]) >= 1e-6) & (np.abs(gt[..., 3]) >= 1e-6)
    input_size = downsample_ratio * h
    pred = to_numpy(x._data).astype(np.float64).reshape(n, m, entries, h, w)
    boxes = _pred_boxes(pred, all_anchors[mask], input_size, float(np.float32(scale_x_y)))
    ignored = _ignored(boxes, gt, valid, ignore_thresh)
    found = _matches(gt, valid, all_anchors, mask, input_size, (h, w))

    # objectness: later ground truths overwrite earlier ones in a cell, as Paddle's loop
    objectness = np.where(ignored, -1.0, 0.0)
    cell = (found["image"], found["slot"], found["gj"], found["gi"])
    objectness[cell] = score[found["image"], found["box"]]
    dtype = x._data.dtype
    xp = get_array_module(x._data)
    const = lambda a: Tensor._wrap(xp.asarray(a, dtype=dtype))  # noqa: E731
    grid = x.reshape([n, m, entries, h, w])
    obj_logit = grid[:, :, 4]
    positive = np.where(objectness > 1e-5, objectness, 0.0)
    negative = ((objectness <= 1e-5) & (objectness > -0.5)).astype(np.float64)
    loss = (
        _sigmoid_cross_entropy(obj_logit, 1.0) * const(positive)
        + _sigmoid_cross_entropy(obj_logit, 0.0) * const(negative)
    ).sum(axis=[1, 2, 3])
    if found["image"].size == 0:
        return loss
    return loss + _matched_loss(
        grid, found, gt, labels, score, all_anchors, input_size, class_num, use_label_smooth, const
    )


def _matched_loss(
    grid, found, gt, labels, score, anchors, input_size, class_num, use_label_smooth, const
) -> Tensor:
    """Location and class losses of the matched ground truths, added up per image."""
    n, m, entries, h, w = grid.shape
    rows = grid.transpose([0, 1, 3, 4, 2]).reshape([n * m * h * w, entries])
    image, box, gi, gj = found["image"], found["box"], found["gi"], found["gj"]
    at = ((image * m + found["slot"]) * h + gj) * w + gi
    xp = get_array_module(rows._data)
    picked = framework.gather(rows, Tensor._wrap(xp.asarray(at, dtype=np.int64)))  # [K, E]
    g = gt[image, box]
    weight = (2.0 - g[:, 2] * g[:, 3]) * score[image, box]
    targets = np.stack(
        [
            g[:, 0] * w - gi,
            g[:, 1] * h - gj,
            np.log(g[:, 2] * input_size / anchors[found["anchor"], 0]),
            np.log(g[:, 3] * input_size / anchors[found["anchor"], 1]),
        ],
        axis=1,
    )
    location = (
        _sigmoid_cross_entropy(picked[:, :2], const(targets[:, :2])).sum(axis=1)
        + (picked[:, 2:4] - const(targets[:, 2:])).abs().sum(axis=1)
    ) * const(weight)
    smooth = min(1.0 / class_num, 1.0 / 40) if use_label_smooth else 0.0
    one_hot = np.eye(class_num)[labels[image, box]]
    class_target = one_hot * (1.0 - smooth) + (1 - one_hot) * smooth
    classes = _sigmoid_cross_entropy(picked[:, 5:], const(class_target)).sum(axis=1)
    per_box = location + classes * const(score[image, box])
    to_image = np.zeros((n, image.size))
    to_image[image, np.arange(image.size)] = 1.0
    return framework.matmul(const(to_image), per_box.unsqueeze(1)).squeeze(1)
