"""An exported detector checked against the trained one, on the same inputs: its raw outputs
(every anchor's box and class scores) and the boxes the package answers after its NMS.

A float export passes when no score differs by more than FLOAT_TOLERANCE and no box corner by
more than FLOAT_TOLERANCE of the largest coordinate. An INT8 one passes when it answers the
same boxes (same class, IoU at least MATCH_IOU) often enough: its scores move a little, so a
box near its threshold may come or go.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from deploy.exporting.checks import FLOAT_TOLERANCE
from framework.inference.package import PackageMeta
from framework.inference.packaged_model import detect
from framework.vision.ops import box_iou

MATCH_IOU = 0.5
INT8_MIN_BOX_AGREEMENT = 0.9


@dataclass(frozen=True)
class DetectionParity:
    score_max_abs_diff: float
    box_max_abs_diff: float  # input pixels
    box_agreement: float  # matched boxes / the larger of the two answers' box counts
    boxes: int  # boxes the trained model answered on the compared images
    samples: int
    passed: bool

    def details(self) -> dict[str, float | int]:
        return {
            "box_max_abs_diff_px": self.box_max_abs_diff,
            "box_agreement": self.box_agreement,
            "boxes_compared": self.boxes,
            "match_iou": MATCH_IOU,
        }


def matched(reference: np.ndarray, exported: np.ndarray) -> int:
    """How many of `reference`'s detection rows (class, score, box; best first) find an
    unclaimed `exported` row of their class with IoU >= MATCH_IOU (greedy, best first)."""
    free = np.ones(len(exported), bool)
    count = 0
    for row in reference:
        candidates = np.nonzero(free & (exported[:, 0] == row[0]))[0]
        if not len(candidates):
            continue
        overlaps = np.asarray(box_iou(row[None, 2:6], exported[candidates, 2:6]))[0]
        best = int(np.argmax(overlaps))
        if overlaps[best] >= MATCH_IOU:
            free[candidates[best]] = False
            count += 1
    return count


def detection_parity(
    reference: list[np.ndarray], exported: list[np.ndarray], meta: PackageMeta, int8: bool
) -> DetectionParity:
    """`reference`, `exported`: [boxes [N, A, 4], scores [N, C, A]] of the same N images."""
    (ref_boxes, ref_scores), (exp_boxes, exp_scores) = reference, exported
    score_diff = float(np.abs(ref_scores - exp_scores).max()) if ref_scores.size else 0.0
    box_diff = float(np.abs(ref_boxes - exp_boxes).max()) if ref_boxes.size else 0.0
    found = total = answered = 0
    for k in range(len(ref_boxes)):
        want = detect(meta, ref_boxes[k], ref_scores[k])
        got = detect(meta, exp_boxes[k], exp_scores[k])
        found += matched(want, got)
        total += max(len(want), len(got))
        answered += len(want)
    agreement = found / total if total else 1.0
    if int8:
        passed = agreement >= INT8_MIN_BOX_AGREEMENT
    else:
        scale = max(1.0, float(np.abs(ref_boxes).max())) if ref_boxes.size else 1.0
        passed = score_diff <= FLOAT_TOLERANCE and box_diff <= FLOAT_TOLERANCE * scale
    return DetectionParity(score_diff, box_diff, agreement, answered, len(ref_boxes), passed)
