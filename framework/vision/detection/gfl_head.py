"""The GFL-style head of PP-PicoDet and the geometry around it: anchor points per pyramid level,
and the decoding of the head's outputs into boxes and class scores.

Per level the head runs `num_convs` depthwise-separable blocks shared by both tasks, then a
1×1 classification conv (`num_classes` sigmoid logits) and a 1×1 regression conv: for each
side of the box (left, top, right, bottom) a discrete distribution over the distances
`0..reg_max` strides from the anchor point (GFL's "general distribution"), whose expectation
is the predicted distance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import framework
import framework.nn.functional as F
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.detection.csp_pan import DepthwiseSeparable


class GFLHead(nn.Layer):
    """Shared convs, a classification branch and a distribution regression branch per level.

    Args:
        channels: the width of the neck's outputs (and of the head's convs).
        num_classes: classes (sigmoid outputs; no background class).
        num_levels: pyramid levels.
        num_convs: depthwise-separable blocks per level before the two 1×1 outputs.
        kernel_size: their depthwise kernel.
        reg_max: the largest distance (in strides) of the regression distribution.
        prior_prob: the initial foreground probability of every class logit.

    Shapes: `forward(features)` takes `num_levels` maps `[N, channels, H_l, W_l]` and returns
    the classification logits `[N, num_classes, H_l, W_l]` and the regression logits
    `[N, 4 * (reg_max + 1), H_l, W_l]` of every level.

    Example:
        >>> head = GFLHead(96, num_classes=3)
        >>> cls_logits, reg_logits = head(neck_features)
    """

    def __init__(
        self,
        channels: int,
        num_classes: int,
        num_levels: int = 4,
        num_convs: int = 2,
        kernel_size: int = 5,
        reg_max: int = 7,
        prior_prob: float = 0.01,
    ) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.reg_max = reg_max
        self.convs = nn.LayerList(
            [
                nn.Sequential(
                    *[DepthwiseSeparable(channels, kernel_size) for _ in range(num_convs)]
                )
                for _ in range(num_levels)
            ]
        )
        bias = -math.log((1 - prior_prob) / prior_prob)
        self.cls_out = nn.LayerList(
            [_output_conv(channels, num_classes, bias) for _ in range(num_levels)]
        )
        self.reg_out = nn.LayerList(
            [_output_conv(channels, 4 * (reg_max + 1), 0.0) for _ in range(num_levels)]
        )

    def forward(self, features: Sequence[Tensor]) -> tuple[list[Tensor], list[Tensor]]:
        cls_logits, reg_logits = [], []
        for convs, cls_out, reg_out, feature in zip(
            self.convs, self.cls_out, self.reg_out, features, strict=True
        ):
            shared = convs(feature)
            cls_logits.append(cls_out(shared))
            reg_logits.append(reg_out(shared))
        return cls_logits, reg_logits

    def extra_repr(self) -> str:
        return f"num_classes={self.num_classes}, reg_max={self.reg_max}"


def _output_conv(channels: int, outputs: int, bias: float) -> nn.Conv2D:
    """A 1×1 output conv, weights N(0, 0.01) and a constant bias (GFL's initialisation)."""
    return nn.Conv2D(
        channels,
        outputs,
        1,
        weight_attr=nn.ParamAttr(initializer=nn.initializer.Normal(mean=0.0, std=0.01)),
        bias_attr=nn.ParamAttr(initializer=nn.initializer.Constant(bias)),
    )


@dataclass(frozen=True)
class AnchorGrid:
    """Anchor points of all levels, finest first.

    Attributes:
        points: float32 `[A, 2]` cell centers `((x + 0.5) * stride, (y + 0.5) * stride)`.
        strides: float32 `[A]` the stride of each point's level.
        counts: points per level.
    """

    points: np.ndarray
    strides: np.ndarray
    counts: tuple[int, ...]

    def cells(self, scale: float = 5.0) -> np.ndarray:
        """float32 `[A, 4]` squares of side `scale * stride` around the points (ATSS's anchors)."""
        half = (scale * self.strides / 2)[:, None]
        return np.concatenate([self.points - half, self.points + half], axis=1)


@lru_cache(maxsize=32)
def anchor_grid(sizes: tuple[tuple[int, int], ...], strides: tuple[int, ...]) -> AnchorGrid:
    """The `AnchorGrid` of feature maps of `sizes` ((height, width) per level) at `strides`."""
    points, per_point, counts = [], [], []
    for (height, width), stride in zip(sizes, strides, strict=True):
        ys, xs = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
        grid = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float32)
        points.append((grid + 0.5) * stride)
        per_point.append(np.full(height * width, stride, np.float32))
        counts.append(height * width)
    grid = AnchorGrid(np.concatenate(points), np.concatenate(per_point), tuple(counts))
    grid.points.flags.writeable = False
    grid.strides.flags.writeable = False
    return grid


def expected_distance(reg_logits: Tensor, reg_max: int) -> Tensor:
    """The expectation of each side's distribution: `[..., 4 * (reg_max + 1), L]` logits ->
    `[..., 4, L]` distances in strides (softmax over the bins, times `0..reg_max`)."""
    shape = reg_logits.shape
    bins = framework.reshape(reg_logits, [0] * (len(shape) - 2) + [4, reg_max + 1, shape[-1]])
    probs = F.softmax(bins, axis=-2)
    project = np.arange(reg_max + 1, dtype=reg_logits.dtype).reshape(reg_max + 1, 1)
    return (probs * Tensor._wrap(_like(reg_logits, project))).sum(axis=-2)


def _like(tensor: Tensor, array: np.ndarray):
    """A host constant on `tensor`'s device."""
    from framework.core.backend import get_array_module

    return get_array_module(tensor._data).asarray(array)


def decode(
    cls_logits: Sequence[Tensor],
    reg_logits: Sequence[Tensor],
    strides: Sequence[int],
    reg_max: int,
    image_size: tuple[int, int],
) -> tuple[Tensor, Tensor]:
    """Boxes and scores of every anchor from the head's per-level outputs.

    Returns:
        boxes float `[N, A, 4]` `[x1, y1, x2, y2]` input pixels, clipped to `image_size`
        (height, width); scores `[N, C, A]` sigmoid probabilities. Built from traceable ops
        only, so it is part of an exported graph.
    """
    sizes = tuple((int(c.shape[2]), int(c.shape[3])) for c in cls_logits)
    grid = anchor_grid(sizes, tuple(int(s) for s in strides))
    scores = F.sigmoid(framework.concat([framework.flatten(c, 2) for c in cls_logits], axis=2))
    distances = framework.concat(
        [
            expected_distance(framework.flatten(r, 2), reg_max) * float(s)
            for r, s in zip(reg_logits, strides, strict=True)
        ],
        axis=2,
    )  # fmt: skip  [N, 4, A]
    dtype = cls_logits[0].dtype
    points = Tensor._wrap(_like(cls_logits[0], grid.points.T.astype(dtype)[None]))  # [1, 2, A]
    height, width = image_size
    upper = Tensor._wrap(
        _like(cls_logits[0], np.array([width, height] * 2, dtype).reshape(1, 4, 1))
    )
    boxes = framework.concat([points - distances[:, 0:2], points + distances[:, 2:4]], axis=1)
    boxes = framework.minimum(boxes.clip(min=0.0), upper)
    return framework.transpose(boxes, [0, 2, 1]), scores
