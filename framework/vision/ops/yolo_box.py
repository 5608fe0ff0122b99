"""YOLOv3 box decoding (Paddle's `paddle.vision.ops.yolo_box`): a head's raw `[N, A * (5 + C),
H, W]` map to boxes in image pixels and per-class scores.

Decoding is inference only (Paddle gives it no gradient), so it runs on the arrays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor


def _sigmoid(xp, v):
    return 1.0 / (1.0 + xp.exp(-v))


def yolo_box(
    x: Tensor,
    img_size: Tensor,
    anchors: Sequence[int],
    class_num: int,
    conf_thresh: float,
    downsample_ratio: int,
    clip_bbox: bool = True,
    name: str | None = None,
    scale_x_y: float = 1.0,
    iou_aware: bool = False,
    iou_aware_factor: float = 0.5,
) -> tuple[Tensor, Tensor]:
    """Decode one YOLOv3 head.

    For anchor `a` at cell `(i, j)`: center `((j + sigmoid(tx) * s + b) / W, (i + sigmoid(ty) * s
    + b) / H)` with `s = scale_x_y`, `b = -(s - 1) / 2`; size `exp(tw) * anchor_w / (W *
    downsample_ratio)` (and likewise for height), all scaled to the image size. The confidence
    is `sigmoid(objectness)` (with `iou_aware`, `conf ** (1 - f) * sigmoid(iou) ** f`); a box
    below `conf_thresh` gets zeros.

    Args:
        x: `[N, A * (5 + class_num), H, W]` (with `iou_aware`, `A` IoU channels first), float32
            or float64; `A = len(anchors) // 2`.
        img_size: `[N, 2]` int32 image `(height, width)`.
        anchors: `[w0, h0, w1, h1, ...]` in input pixels.
        class_num: number of classes.
        conf_thresh: boxes with a lower confidence are zeroed.
        downsample_ratio: the head's stride.
        clip_bbox: clip boxes to the image.
        scale_x_y, iou_aware, iou_aware_factor: as above.

    Returns:
        `boxes` `[N, A * H * W, 4]` `[x1, y1, x2, y2]` and `scores` `[N, A * H * W, class_num]`
        (confidence times `sigmoid(class logit)`), the dtype of `x`, anchor-major.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([1, 2 * (5 + 3), 4, 4])
        >>> img = paddle.to_tensor([[128, 128]], "int32")
        >>> boxes, scores = yolo_box(x, img, [10, 13, 16, 30], 3, 0.01, 32)
        >>> boxes.shape, scores.shape
        (paddle.Size([1, 32, 4]), paddle.Size([1, 32, 3]))
    """
    v = as_tensor(x)._data
    xp = get_array_module(v)
    n, c, h, w = v.shape
    an = len(anchors) // 2
    entries = 5 + class_num
    if c != an * (entries + (1 if iou_aware else 0)):
        raise ValueError(
            f"yolo_box: x has {c} channels, expected {an} anchors x {entries}"
            + (" plus one IoU channel each" if iou_aware else "")
        )
    # Paddle's attributes are float32, which shows at float64
    scale_x_y, iou_aware_factor = float(np.float32(scale_x_y)), float(np.float32(iou_aware_factor))
    if iou_aware:
        iou, v = v[:, :an], v[:, an:]
    pred = v.reshape(n, an, entries, h, w)
    conf = _sigmoid(xp, pred[:, :, 4])
    if iou_aware:
        conf = conf ** (1.0 - iou_aware_factor) * _sigmoid(xp, iou) ** iou_aware_factor
    conf = xp.where(conf < conf_thresh, 0.0, conf).astype(v.dtype)
    size = as_tensor(img_size)._data.astype(v.dtype)
    img_h, img_w = size[:, 0].reshape(n, 1, 1, 1), size[:, 1].reshape(n, 1, 1, 1)
    bias = -0.5 * (scale_x_y - 1.0)
    grid_x = xp.arange(w, dtype=v.dtype).reshape(1, 1, 1, w)
    grid_y = xp.arange(h, dtype=v.dtype).reshape(1, 1, h, 1)
    cx = (grid_x + _sigmoid(xp, pred[:, :, 0]) * scale_x_y + bias) * img_w / w
    cy = (grid_y + _sigmoid(xp, pred[:, :, 1]) * scale_x_y + bias) * img_h / h
    anchor = xp.asarray(np.asarray(anchors, dtype=np.float64).reshape(an, 2), dtype=v.dtype)
    bw = xp.exp(pred[:, :, 2]) * anchor[:, 0].reshape(1, an, 1, 1) * img_w / (downsample_ratio * w)
    bh = xp.exp(pred[:, :, 3]) * anchor[:, 1].reshape(1, an, 1, 1) * img_h / (downsample_ratio * h)
    corners = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
    if clip_bbox:
        corners = [
            xp.maximum(corners[0], 0),
            xp.maximum(corners[1], 0),
            xp.minimum(corners[2], img_w - 1),
            xp.minimum(corners[3], img_h - 1),
        ]
    kept = conf > 0
    boxes = xp.stack([xp.where(kept, side, 0) for side in corners], axis=-1).astype(v.dtype)
    scores = _sigmoid(xp, pred[:, :, 5:]) * conf[:, :, None]
    scores = scores.transpose(0, 1, 3, 4, 2).astype(v.dtype)
    return (
        Tensor._wrap(boxes.reshape(n, an * h * w, 4)),
        Tensor._wrap(scores.reshape(n, an * h * w, class_num)),
    )
