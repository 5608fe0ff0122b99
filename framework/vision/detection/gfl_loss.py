"""PP-PicoDet's training loss (PaddleDetection's `PicoHeadV2.get_loss`): label assignment on the
detached predictions (TAL, or ATSS while warming up), then

- varifocal loss of every anchor's class logits against its soft target (the assigned
  alignment or IoU), summed and divided by the sum of the targets;
- GIoU loss of each positive's decoded box against its target, in stride units;
- distribution focal loss of each positive's four side distributions against the target
  distances;

the last two weighted by the positive's target score and divided by the same sum. The parts
are returned already weighted (`LossWeights`), so that `loss` is their sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import framework
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.vision.detection import assigners
from framework.vision.detection.gfl_head import AnchorGrid, anchor_grid, expected_distance
from framework.vision.detection.losses import distribution_focal_loss, giou_loss, varifocal_loss
from framework.vision.ops.box_coder import bbox2distance, distance2bbox


@dataclass(frozen=True)
class LossWeights:
    """PP-PicoDet v2's weights: VFL 1.0, GIoU 2.5, DFL 0.5."""

    vfl: float = 1.0
    giou: float = 2.5
    dfl: float = 0.5


def _softmax(x: Any, axis: int) -> Any:
    xp = get_array_module(x)
    e = xp.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


class GFLLoss:
    """The loss of a GFL-style head with VFL, GIoU and DFL terms.

    Args:
        num_classes: classes of the head.
        strides: the pyramid strides, finest first.
        reg_max: the largest distance of the regression distributions.
        static_assigner_epochs: epochs of ATSS warm-up (when `epoch` is passed), then TAL.
        grid_cell_scale: ATSS's anchor box side, in strides.
        weights: the terms' weights.

    Example:
        >>> criterion = GFLLoss(3, (8, 16, 32, 64), reg_max=7)
        >>> parts = criterion(cls_logits, reg_logits, targets)
        >>> parts["loss"].backward()
    """

    def __init__(
        self,
        num_classes: int,
        strides: Sequence[int],
        reg_max: int = 7,
        static_assigner_epochs: int = 0,
        grid_cell_scale: float = 5.0,
        weights: LossWeights | None = None,
        tal_topk: int = 13,
        atss_topk: int = 9,
    ) -> None:
        self.num_classes = num_classes
        self.strides = tuple(int(s) for s in strides)
        self.reg_max = reg_max
        self.static_assigner_epochs = static_assigner_epochs
        self.grid_cell_scale = grid_cell_scale
        self.weights = weights or LossWeights()
        self.tal_topk = tal_topk
        self.atss_topk = atss_topk

    def grid(self, cls_logits: Sequence[Tensor]) -> AnchorGrid:
        sizes = tuple((int(c.shape[2]), int(c.shape[3])) for c in cls_logits)
        return anchor_grid(sizes, self.strides)

    @staticmethod
    def flatten(
        cls_logits: Sequence[Tensor], reg_logits: Sequence[Tensor]
    ) -> tuple[Tensor, Tensor]:
        """`[N, A, C]` class logits and `[N, A, 4 * (reg_max + 1)]` regression logits."""
        cls = framework.concat([framework.flatten(c, 2) for c in cls_logits], axis=2)
        reg = framework.concat([framework.flatten(r, 2) for r in reg_logits], axis=2)
        return framework.transpose(cls, [0, 2, 1]), framework.transpose(reg, [0, 2, 1])

    def assign(
        self,
        cls_logits: Sequence[Tensor],
        reg_logits: Sequence[Tensor],
        targets: Sequence[Mapping[str, Any]],
        epoch: int | None = None,
    ) -> assigners.Assignment:
        """Targets for every anchor, from the detached predictions (no gradient)."""
        grid = self.grid(cls_logits)
        cls, reg = self.flatten(cls_logits, reg_logits)
        cls, reg = cls._data, reg._data
        xp = get_array_module(cls)
        batch, anchors = cls.shape[:2]
        scores = 0.5 * (xp.tanh(0.5 * cls) + 1.0)  # the sigmoid, without exp overflow
        bins = _softmax(reg.reshape(batch, anchors, 4, self.reg_max + 1), axis=-1)
        distance = bins @ xp.arange(self.reg_max + 1, dtype=reg.dtype)  # [N, A, 4] strides
        points, strides = xp.asarray(grid.points), xp.asarray(grid.strides)
        distance = distance * strides[None, :, None]
        boxes = xp.concatenate([points - distance[..., :2], points + distance[..., 2:]], axis=-1)
        gt_boxes, gt_labels, gt_mask = assigners.pad_ground_truth(
            [np.asarray(t["boxes"], np.float32).reshape(-1, 4) for t in targets],
            [np.asarray(t["labels"], np.int64).reshape(-1) for t in targets],
            xp=xp,
            dtype=cls.dtype,
        )
        if epoch is not None and epoch < self.static_assigner_epochs:
            return assigners.atss_assign(
                xp.asarray(grid.cells(self.grid_cell_scale), dtype=cls.dtype), grid.counts,
                gt_labels, gt_boxes, gt_mask, self.num_classes, self.atss_topk, pred_boxes=boxes,
            )  # fmt: skip
        return assigners.task_aligned_assign(
            scores, boxes, points.astype(cls.dtype), gt_labels, gt_boxes, gt_mask,
            self.num_classes, self.tal_topk,
        )  # fmt: skip

    def __call__(
        self,
        cls_logits: Sequence[Tensor],
        reg_logits: Sequence[Tensor],
        targets: Sequence[Mapping[str, Any]],
        epoch: int | None = None,
        assignment: assigners.Assignment | None = None,
    ) -> dict[str, Tensor]:
        """`{"loss", "loss_vfl", "loss_giou", "loss_dfl"}` scalar Tensors; `loss` has the
        gradient. `assignment` (from `assign`) skips the assignment step."""
        if len(targets) != cls_logits[0].shape[0]:
            raise ValueError(f"{cls_logits[0].shape[0]} images but {len(targets)} targets")
        if assignment is None:
            assignment = self.assign(cls_logits, reg_logits, targets, epoch)
        cls, reg = self.flatten(cls_logits, reg_logits)
        xp = get_array_module(cls._data)
        dtype = cls._data.dtype
        target_scores = assignment.scores.reshape(-1, self.num_classes).astype(dtype, copy=False)
        avg_factor = max(float(target_scores.sum()), 1.0)
        loss_vfl = varifocal_loss(
            framework.reshape(cls, [-1, self.num_classes]), Tensor._wrap(target_scores),
            reduction="sum",
        ) / avg_factor  # fmt: skip
        (positive,) = xp.nonzero(assignment.positive.reshape(-1))
        if positive.shape[0] == 0:
            zero = framework.zeros([], dtype=dtype)
            loss_giou, loss_dfl = zero, zero
        else:
            loss_giou, loss_dfl = self._box_terms(
                reg, self.grid(cls_logits), assignment, positive, target_scores
            )
            loss_giou, loss_dfl = loss_giou / avg_factor, loss_dfl / avg_factor
        w = self.weights
        parts = {
            "loss_vfl": loss_vfl * w.vfl,
            "loss_giou": loss_giou * w.giou,
            "loss_dfl": loss_dfl * w.dfl,
        }
        return {"loss": parts["loss_vfl"] + parts["loss_giou"] + parts["loss_dfl"], **parts}

    def _box_terms(
        self,
        reg: Tensor,
        grid: AnchorGrid,
        assignment: assigners.Assignment,
        positive: Any,
        target_scores: Any,
    ) -> tuple[Tensor, Tensor]:
        """Summed, weighted GIoU and DFL of the positives (in stride units)."""
        xp = get_array_module(positive)
        dtype = target_scores.dtype
        bins = self.reg_max + 1
        anchors = reg.shape[1]
        anchor = positive % anchors
        stride = xp.asarray(grid.strides, dtype=dtype)[anchor][:, None]
        points = xp.asarray(grid.points, dtype=dtype)[anchor] / stride  # [P, 2] in strides
        targets = assignment.boxes.reshape(-1, 4)[positive].astype(dtype) / stride
        weight = target_scores.max(axis=1)[positive]  # [P]
        logits = framework.gather(framework.reshape(reg, [-1, 4 * bins]), Tensor._wrap(positive))
        distance = expected_distance(framework.reshape(logits, [-1, 4 * bins, 1]), self.reg_max)
        distance = framework.reshape(distance, [-1, 4])
        predicted = distance2bbox(Tensor._wrap(points), distance)
        weight_t = Tensor._wrap(weight)
        loss_giou = (giou_loss(predicted, Tensor._wrap(targets)) * weight_t).sum()
        sides = bbox2distance(points, targets, self.reg_max).reshape(-1)
        dfl = distribution_focal_loss(framework.reshape(logits, [-1, bins]), Tensor._wrap(sides))
        loss_dfl = (dfl * Tensor._wrap(xp.repeat(weight, 4))).sum() / 4.0
        return loss_giou, loss_dfl
