"""Two-stage detector proposals (Paddle's `generate_proposals`, the RPN's decode-clip-filter-NMS
step, and `distribute_fpn_proposals`, which sends each RoI to the FPN level of its size).

Neither has a gradient, and both work box by box on small sets, so they run on the host in
NumPy; results go back to the device of the input.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.vision.ops.nms import box_areas, greedy_nms, iou_or_zero, overlap_areas

_LOG_MAX_RATIO = math.log(1000.0 / 16.0)  # Paddle's kBBoxClipDefault: exp() of deltas stops here


def _host(value: Any) -> np.ndarray:
    return to_numpy(as_tensor(value)._data)


def _to_device(like: Any, array: np.ndarray) -> Tensor:
    return Tensor._wrap(get_array_module(like).asarray(array))


def distribute_fpn_proposals(
    fpn_rois: Tensor,
    min_level: int,
    max_level: int,
    refer_level: int,
    refer_scale: int,
    pixel_offset: bool = False,
    rois_num: Tensor | None = None,
    name: str | None = None,
) -> tuple[list[Tensor], Tensor, list[Tensor] | None]:
    """Assign every RoI to the FPN level `floor(refer_level + log2(sqrt(area) / refer_scale))`,
    clamped to `[min_level, max_level]` (FPN's rule).

    Args:
        fpn_rois: `[R, 4]` RoIs `[x1, y1, x2, y2]`, float32 or float64.
        min_level, max_level: the levels used.
        refer_level, refer_scale: a RoI of side `refer_scale` goes to `refer_level`.
        pixel_offset: measure sides in pixels (`x2 - x1 + 1`).
        rois_num: `[N]` int32 RoIs per image (consecutive).

    Returns:
        `multi_rois`, one `[R_l, 4]` tensor per level (in input order); `restore_ind` `[R, 1]`
        int32, such that `concat(multi_rois)[restore_ind[:, 0]]` is `fpn_rois`; and, with
        `rois_num`, one `[N]` int32 count per level.

    Examples:
        >>> import framework as paddle
        >>> rois = paddle.to_tensor([[0.0, 0, 50, 50], [0.0, 0, 400, 400]])
        >>> levels, restore, counts = distribute_fpn_proposals(
        ...     rois, 2, 5, 4, 224, rois_num=paddle.to_tensor([2], "int32"))
        >>> [r.shape[0] for r in levels]
        [1, 0, 1, 0]
    """
    data = as_tensor(fpn_rois)._data
    rois = to_numpy(data)
    offset = 1.0 if pixel_offset else 0.0
    width, height = rois[:, 2] - rois[:, 0] + offset, rois[:, 3] - rois[:, 1] + offset
    empty = (rois[:, 2] < rois[:, 0]) | (rois[:, 3] < rois[:, 1])
    scale = np.sqrt(np.where(empty, 0, width * height))
    with np.errstate(divide="ignore"):
        level = np.floor(np.log2(scale / refer_scale + 1e-8) + refer_level)
    level = np.clip(level, min_level, max_level).astype(np.int64)
    levels = range(min_level, max_level + 1)
    order = np.concatenate([np.flatnonzero(level == lv) for lv in levels])
    restore = np.empty(rois.shape[0], dtype=np.int32)
    restore[order] = np.arange(rois.shape[0], dtype=np.int32)
    multi_rois = [_to_device(data, rois[level == lv]) for lv in levels]
    counts = None
    if rois_num is not None:
        per_image = _host(rois_num).astype(np.int64)
        image = np.repeat(np.arange(per_image.size), per_image)
        counts = [
            _to_device(
                data, np.bincount(image[level == lv], minlength=per_image.size).astype(np.int32)
            )
            for lv in levels
        ]
    return multi_rois, _to_device(data, restore.reshape(-1, 1)), counts


def _decode(anchors: np.ndarray, deltas: np.ndarray, variances: np.ndarray, offset: float):
    """Paddle's `BoxCoder` for proposals: center-size deltas, scaled by the variances."""
    aw = anchors[:, 2] - anchors[:, 0] + offset
    ah = anchors[:, 3] - anchors[:, 1] + offset
    ax, ay = anchors[:, 0] + 0.5 * aw, anchors[:, 1] + 0.5 * ah
    d = deltas * variances
    cx, cy = d[:, 0] * aw + ax, d[:, 1] * ah + ay
    w = np.exp(np.minimum(d[:, 2], _LOG_MAX_RATIO)) * aw
    h = np.exp(np.minimum(d[:, 3], _LOG_MAX_RATIO)) * ah
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2 - offset, cy + h / 2 - offset], axis=1)


def _adaptive_nms(boxes: np.ndarray, threshold: float, eta: float, offset: float) -> np.ndarray:
    """Greedy NMS whose threshold shrinks by `eta` after every kept box while above 0.5."""
    if eta >= 1.0:
        return greedy_nms(boxes, threshold, offset=offset)
    cols = tuple(boxes[:, k] for k in range(4))
    areas = box_areas(np, boxes, offset)
    keep: list[int] = []
    for i in range(boxes.shape[0]):
        if keep:
            kept = np.asarray(keep)
            inter = overlap_areas(
                np, tuple(c[i] for c in cols), tuple(c[kept] for c in cols), offset
            )
            if (iou_or_zero(np, inter, areas[i] + areas[kept] - inter) > threshold).any():
                continue
        keep.append(i)
        if eta < 1.0 and threshold > 0.5:
            threshold *= eta
    return np.asarray(keep, dtype=np.int64)


def _one_image(scores, deltas, size, anchors, variances, options) -> tuple[np.ndarray, np.ndarray]:
    offset = options["offset"]
    order = np.argsort(-scores, kind="stable")
    if 0 < options["pre_nms_top_n"] < order.size:
        order = order[: options["pre_nms_top_n"]]
    boxes = _decode(anchors[order], deltas[order], variances[order], offset)
    height, width = float(size[0]), float(size[1])
    boxes[:, 0::2] = np.clip(boxes[:, 0::2], 0, width - offset)
    boxes[:, 1::2] = np.clip(boxes[:, 1::2], 0, height - offset)
    ws = boxes[:, 2] - boxes[:, 0] + offset
    hs = boxes[:, 3] - boxes[:, 1] + offset
    min_size = max(options["min_size"], 1.0)
    keep = (ws >= min_size) & (hs >= min_size)
    if offset:
        keep &= (boxes[:, 0] + ws / 2 <= width) & (boxes[:, 1] + hs / 2 <= height)
    if not keep.any():  # Paddle then gives one all-zero proposal
        return np.zeros((1, 4), boxes.dtype), np.zeros((1, 1), scores.dtype)
    boxes, kept_scores = boxes[keep], scores[order][keep]
    if options["nms_thresh"] > 0:
        chosen = _adaptive_nms(boxes, options["nms_thresh"], options["eta"], offset)
        if 0 < options["post_nms_top_n"] < chosen.size:
            chosen = chosen[: options["post_nms_top_n"]]
        boxes, kept_scores = boxes[chosen], kept_scores[chosen]
    return boxes, kept_scores.reshape(-1, 1)


def generate_proposals(
    scores: Tensor,
    bbox_deltas: Tensor,
    img_size: Tensor,
    anchors: Tensor,
    variances: Tensor,
    pre_nms_top_n: int = 6000,
    post_nms_top_n: int = 1000,
    nms_thresh: float = 0.5,
    min_size: float = 0.1,
    eta: float = 1.0,
    pixel_offset: bool = False,
    return_rois_num: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor | None]:
    """RPN proposals: per image, the `pre_nms_top_n` best anchors are decoded, clipped to the
    image, filtered by size (at least `max(min_size, 1)`), NMS'd at `nms_thresh` (the
    threshold times `eta` after each kept box while above 0.5), and `post_nms_top_n` kept.

    Args:
        scores: `[N, A, H, W]` objectness, float32 or float64.
        bbox_deltas: `[N, 4 * A, H, W]` deltas `(dx, dy, dw, dh)` per anchor.
        img_size: `[N, 2]` image `(height, width)`.
        anchors: `[H, W, A, 4]` anchors `[x1, y1, x2, y2]`.
        variances: `[H, W, A, 4]`.
        pixel_offset: sizes in pixels (`x2 - x1 + 1`), centers inside the image.
        return_rois_num: also return the proposals per image.

    Returns:
        `rpn_rois` `[R, 4]`, `rpn_roi_probs` `[R, 1]` (by descending score within each image),
        and `rpn_rois_num` `[N]` int32 (or None). An image with no box left gets one zero box.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.ops import generate_proposals
        >>> scores = paddle.to_tensor([[[[0.9, 0.1]]]])  # 1 image, 1 anchor, a 1 x 2 map
        >>> deltas = paddle.zeros([1, 4, 1, 2])
        >>> anchors = paddle.to_tensor([[[[0.0, 0, 8, 8]], [[8.0, 0, 16, 8]]]])  # [1, 2, 1, 4]
        >>> variances = paddle.ones([1, 2, 1, 4])
        >>> img_size = paddle.to_tensor([[16.0, 16.0]])
        >>> rois, probs, num = generate_proposals(
        ...     scores, deltas, img_size, anchors, variances, return_rois_num=True
        ... )
        >>> print(rois)
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0. , 0. , 8. , 8. ],
                [8. , 0. , 16., 8. ]])
        >>> print(num)
        Tensor(shape=[1], dtype=int32, place=Place(cpu), stop_gradient=True,
               [2])
    """
    data = as_tensor(scores)._data
    s = to_numpy(data)
    n, a, h, w = s.shape
    deltas = _host(bbox_deltas).reshape(n, a, 4, h, w).transpose(0, 3, 4, 1, 2).reshape(n, -1, 4)
    flat_scores = s.transpose(0, 2, 3, 1).reshape(n, -1)
    anchor_boxes, anchor_vars = _host(anchors).reshape(-1, 4), _host(variances).reshape(-1, 4)
    if anchor_boxes.shape[0] != a * h * w or anchor_vars.shape[0] != a * h * w:
        # Paddle's kernel does not check, and reads past the end (its own doc example does)
        raise ValueError(
            f"generate_proposals needs {h} x {w} x {a} anchors and variances, got "
            f"{anchor_boxes.shape[0]} and {anchor_vars.shape[0]}"
        )
    sizes = _host(img_size)
    options = {
        "pre_nms_top_n": pre_nms_top_n,
        "post_nms_top_n": post_nms_top_n,
        "nms_thresh": nms_thresh,
        "min_size": min_size,
        "eta": eta,
        "offset": 1.0 if pixel_offset else 0.0,
    }
    results = [
        _one_image(flat_scores[i], deltas[i], sizes[i], anchor_boxes, anchor_vars, options)
        for i in range(n)
    ]
    rois = np.concatenate([r for r, _ in results]).astype(s.dtype)
    probs = np.concatenate([p for _, p in results]).astype(s.dtype)
    counts = np.asarray([r.shape[0] for r, _ in results], dtype=np.int32)
    return (
        _to_device(data, rois),
        _to_device(data, probs),
        _to_device(data, counts) if return_rois_num else None,
    )
