"""ONNX detection ops: NonMaxSuppression.

NMS has no gradient and a data-dependent output size, so it runs on the arrays
(`framework.vision.ops.nms`'s greedy pass); its int64 selections feed Gather-style ops.
"""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module
from framework.onnx.import_.registry import imports, new_array, scalar
from framework.vision.ops.nms import greedy_nms


def _corners(xp, boxes, center_point_box: int):
    """[N, 4] ONNX boxes as [x1, y1, x2, y2] with x1 <= x2 and y1 <= y2."""
    if center_point_box:
        cx, cy, w, h = (boxes[:, k] for k in range(4))
        return xp.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    y1, x1, y2, x2 = (boxes[:, k] for k in range(4))  # any diagonal pair of corners
    return xp.stack(
        [xp.minimum(x1, x2), xp.minimum(y1, y2), xp.maximum(x1, x2), xp.maximum(y1, y2)], axis=1
    )


def _check(node, opset) -> str | None:
    center = int(node.attrs.get("center_point_box", 0))
    return None if center in (0, 1) else f"NonMaxSuppression(center_point_box={center})"


@imports("NonMaxSuppression", static=(2, 3, 4), check=_check, foldable=False)
def _non_max_suppression(ctx, node, args):
    boxes, scores = args[0], args[1]
    max_out = int(scalar(args[2] if len(args) > 2 else None, 0))
    iou_threshold = float(scalar(args[3] if len(args) > 3 else None, 0.0))
    score_threshold = scalar(args[4] if len(args) > 4 else None)
    if not 0.0 <= iou_threshold <= 1.0:
        raise ValueError(f"NonMaxSuppression: iou_threshold must be in [0, 1], got {iou_threshold}")
    center = int(node.attrs.get("center_point_box", 0))
    xp = get_array_module(boxes._data)
    selected = []
    if max_out > 0:
        for batch in range(boxes.shape[0]):
            corners = _corners(xp, boxes._data[batch], center)
            for cls in range(scores.shape[1]):
                row = scores._data[batch, cls]
                if score_threshold is None:
                    candidates = xp.arange(row.shape[0])
                else:
                    (candidates,) = xp.nonzero(row > score_threshold)
                order = candidates[xp.argsort(-row[candidates], kind="stable")]
                keep = greedy_nms(corners[order], iou_threshold, max_keep=max_out)
                chosen = np.asarray(order[xp.asarray(keep)].tolist(), dtype=np.int64)
                triples = np.empty((chosen.size, 3), dtype=np.int64)
                triples[:, 0], triples[:, 1], triples[:, 2] = batch, cls, chosen
                selected.append(triples)
    out = np.concatenate(selected) if selected else np.zeros((0, 3), dtype=np.int64)
    return new_array(boxes, out)
