"""ONNX detection ops: NonMaxSuppression, RoiAlign and DeformConv.

NMS has no gradient and a data-dependent output size, so it runs on the arrays
(`framework.vision.ops.nms`'s greedy pass); its int64 selections feed Gather-style ops.
"""

from __future__ import annotations

import numpy as np

import framework
from framework.core.backend import get_array_module, to_numpy
from framework.onnx.import_.registry import imports, new_array, scalar, text_attr
from framework.ops.manipulation.pad import Pad
from framework.vision.ops.deform_conv import deform_conv2d
from framework.vision.ops.nms import greedy_nms
from framework.vision.ops.roi_align import roi_align


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


# --- RoiAlign and DeformConv, on framework.vision.ops --------------------------------------------
def _roi_align_check(node, opset) -> str | None:
    mode = text_attr(node, "mode", "avg")
    return None if mode == "avg" else f"RoiAlign(mode={mode})"


@imports("RoiAlign", check=_roi_align_check)
def _roi_align(ctx, node, args):
    x, rois, batch_indices = args
    # opset 16 made half_pixel the default; before it, RoiAlign had no half-pixel shift.
    default = "half_pixel" if ctx.opset >= 16 else "output_half_pixel"
    mode = text_attr(node, "coordinate_transformation_mode", default)
    images = np.asarray(to_numpy(batch_indices._data)).astype(np.int64)
    order = np.argsort(images, kind="stable")  # roi_align takes boxes grouped by image
    counts = np.bincount(images, minlength=x.shape[0]).astype(np.int32)
    sorted_rois = (
        rois if (np.diff(images) >= 0).all() else framework.gather(rois, new_array(rois, order))
    )
    y = roi_align(
        x,
        sorted_rois,
        new_array(x, counts),
        (int(node.attrs.get("output_height", 1)), int(node.attrs.get("output_width", 1))),
        float(node.attrs.get("spatial_scale", 1.0)),
        int(node.attrs.get("sampling_ratio", 0)) or -1,  # 0 is ONNX's "adaptive"
        mode == "half_pixel",
    )
    if sorted_rois is rois:
        return y
    return framework.gather(y, new_array(y, np.argsort(order)))


@imports("DeformConv", weights=(1, 3))
def _deform_conv(ctx, node, args):
    x, weight, offset, bias, mask = (list(args) + [None, None])[:5]
    if x.ndim != 4:
        raise NotImplementedError(
            f"ONNX DeformConv over {x.ndim - 2} spatial dims; the framework runs 2-D"
        )
    pads = [int(p) for p in node.attrs.get("pads", [0, 0, 0, 0])]
    padding = pads[:2]
    if pads[:2] != pads[2:]:  # zero padding first is the same as padding inside the op
        widths = ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3]))
        x, padding = Pad(widths, "constant", 0.0).apply(x), [0, 0]
    return deform_conv2d(
        x,
        offset,
        weight,
        bias,
        stride=list(node.attrs.get("strides", [1, 1])),
        padding=padding,
        dilation=list(node.attrs.get("dilations", [1, 1])),
        deformable_groups=int(node.attrs.get("offset_group", 1)),
        groups=int(node.attrs.get("group", 1)),
        mask=mask,
    )
