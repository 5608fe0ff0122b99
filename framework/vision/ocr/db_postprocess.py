"""DB (Differentiable Binarization) post-processing: a text probability map to text boxes.

The steps of PP-OCR's `DBPostProcess`: threshold the map, dilate it by 2x2, take each
region's minimum-area rectangle, drop small ones and those whose mean probability is low, grow
the rest by `area * unclip_ratio / perimeter`, take the grown shape's rectangle, and scale it
to the image.
"""

from __future__ import annotations

import numpy as np

from framework.vision.ocr.contours import border_point_sets
from framework.vision.ocr.geometry import mini_box, order_points_clockwise, unclip
from framework.vision.ocr.raster import fill_polygon_mask

_MIN_SIZE = 3


class DBPostProcess:
    """Text boxes from a DB probability map.

    Args:
        thresh: probability above which a pixel is text.
        box_thresh: minimum mean probability inside a box.
        max_candidates: at most this many regions are considered.
        unclip_ratio: how far a region is grown back (the shrink ratio it was trained with).
        use_dilation: dilate the binary map by a 2x2 square first, as PP-OCRv4 does.

    Call it with a `[H', W']` float probability map and the image's `(height, width)`; it
    returns `(boxes [K, 4, 2] float32, scores [K])`, boxes ordered top-left, top-right,
    bottom-right, bottom-left in image pixels (integers).

        post = DBPostProcess()
        boxes, scores = post(prob_map, (h, w))
    """

    def __init__(
        self,
        thresh: float = 0.3,
        box_thresh: float = 0.5,
        max_candidates: int = 1000,
        unclip_ratio: float = 1.6,
        use_dilation: bool = True,
    ) -> None:
        self.thresh = thresh
        self.box_thresh = box_thresh
        self.max_candidates = max_candidates
        self.unclip_ratio = unclip_ratio
        self.use_dilation = use_dilation

    def __call__(
        self, prob: np.ndarray, image_shape: tuple[int, int]
    ) -> tuple[np.ndarray, np.ndarray]:
        prob = np.asarray(prob, dtype=np.float32)
        if prob.ndim != 2:
            raise ValueError(f"DBPostProcess takes a [H, W] probability map, got {prob.shape}")
        mask = prob > self.thresh
        if self.use_dilation:  # cv2.dilate with a 2x2 kernel anchored at its centre (1, 1)
            grown = mask.copy()
            grown[1:, :] |= mask[:-1, :]
            grown[:, 1:] |= mask[:, :-1]
            grown[1:, 1:] |= mask[:-1, :-1]
            mask = grown
        dest_h, dest_w = image_shape
        height, width = prob.shape
        boxes, scores = [], []
        for points in border_point_sets(mask)[: self.max_candidates]:
            box, short_side = mini_box(points)
            if short_side < _MIN_SIZE:
                continue
            score = box_score(prob, box)
            if score < self.box_thresh:
                continue
            box, short_side = mini_box(unclip(box, self.unclip_ratio).astype(np.float64))
            if short_side < _MIN_SIZE + 2:
                continue
            box[:, 0] = np.clip(np.round(box[:, 0] / width * dest_w), 0, dest_w)
            box[:, 1] = np.clip(np.round(box[:, 1] / height * dest_h), 0, dest_h)
            boxes.append(box.astype(np.int32))
            scores.append(score)
        return _keep_visible(boxes, scores, dest_h, dest_w)


def box_score(prob: np.ndarray, box: np.ndarray) -> float:
    """Mean of `prob` over the pixels of the quadrilateral `box` (`[4, 2]`, map pixels)."""
    h, w = prob.shape
    x0 = int(np.clip(np.floor(box[:, 0].min()), 0, w - 1))
    x1 = int(np.clip(np.ceil(box[:, 0].max()), 0, w - 1))
    y0 = int(np.clip(np.floor(box[:, 1].min()), 0, h - 1))
    y1 = int(np.clip(np.ceil(box[:, 1].max()), 0, h - 1))
    local = (box - np.array([x0, y0], dtype=np.float32)).astype(np.int32)
    mask = fill_polygon_mask(local, y1 - y0 + 1, x1 - x0 + 1)
    return float(prob[y0 : y1 + 1, x0 : x1 + 1][mask].mean())


def _keep_visible(
    boxes: list[np.ndarray], scores: list[float], height: int, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Corners ordered clockwise from top-left and clipped into the image; boxes 3 pixels or
    thinner dropped (PP-OCR's `filter_tag_det_res`)."""
    kept, kept_scores = [], []
    for box, score in zip(boxes, scores, strict=True):
        box = order_points_clockwise(box)
        box[:, 0] = np.trunc(np.clip(box[:, 0], 0, width - 1))
        box[:, 1] = np.trunc(np.clip(box[:, 1], 0, height - 1))
        if int(np.linalg.norm(box[0] - box[1])) <= 3 or int(np.linalg.norm(box[0] - box[3])) <= 3:
            continue
        kept.append(box)
        kept_scores.append(score)
    if not kept:
        return np.zeros((0, 4, 2), dtype=np.float32), np.zeros(0, dtype=np.float32)
    return np.stack(kept), np.asarray(kept_scores, dtype=np.float32)
