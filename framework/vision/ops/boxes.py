"""Pairwise box overlaps with torchvision's names: `box_area`, `box_iou`, `generalized_box_iou`,
`distance_box_iou` and `complete_box_iou`.

Boxes are `[x1, y1, x2, y2]` corners. Given Tensors the results are built from differentiable
framework ops (so gradients, and gradients of gradients, flow to both box sets); given arrays
(NumPy or CuPy) they come back as arrays of the same kind. The elementwise forms that losses
need (one predicted box against its own target) live in `framework.vision.detection.losses`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

import framework
from framework.core.tensor import Tensor

BoxesLike = Any  # a Tensor, numpy.ndarray or cupy.ndarray of shape [..., 4]


def as_box_tensors(*boxes: BoxesLike) -> tuple[list[Tensor], bool]:
    """The inputs as Tensors, and whether they were all plain arrays (so the result should be
    handed back as an array)."""
    arrays = not any(isinstance(b, Tensor) for b in boxes)
    tensors = [
        b if isinstance(b, Tensor) else Tensor._wrap(b if hasattr(b, "shape") else np.asarray(b))
        for b in boxes
    ]
    return tensors, arrays


def _result(value: Tensor, arrays: bool) -> BoxesLike:
    return value._data if arrays else value


def _pairwise(function: Callable[..., Tensor]) -> Callable[..., BoxesLike]:
    """Run `function(b1 [N, 1, 4], b2 [1, M, 4], ...)` on Tensors, returning the input kind."""

    @functools.wraps(function)
    def run(boxes1: BoxesLike, boxes2: BoxesLike, *args: Any) -> BoxesLike:
        (b1, b2), arrays = as_box_tensors(boxes1, boxes2)
        if b1.ndim != 2 or b2.ndim != 2 or b1.shape[-1] != 4 or b2.shape[-1] != 4:
            raise ValueError(
                f"expected boxes of shape [N, 4] and [M, 4], got {b1.shape}, {b2.shape}"
            )
        return _result(function(b1.unsqueeze(1), b2.unsqueeze(0), *args), arrays)

    return run


def corners(boxes: Tensor) -> list[Tensor]:
    """x1, y1, x2, y2 of `[..., 4]` boxes, each `[...]`."""
    return framework.unbind(boxes, axis=-1)


def intersection_union(b1: Tensor, b2: Tensor) -> tuple[Tensor, Tensor]:
    """Intersection and union areas of broadcastable `[..., 4]` box sets."""
    ax1, ay1, ax2, ay2 = corners(b1)
    bx1, by1, bx2, by2 = corners(b2)
    width = (framework.minimum(ax2, bx2) - framework.maximum(ax1, bx1)).clip(min=0.0)
    height = (framework.minimum(ay2, by2) - framework.maximum(ay1, by1)).clip(min=0.0)
    inter = width * height
    union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter
    return inter, union


def enclosing_size(b1: Tensor, b2: Tensor) -> tuple[Tensor, Tensor]:
    """Width and height of the smallest box enclosing both, broadcast."""
    ax1, ay1, ax2, ay2 = corners(b1)
    bx1, by1, bx2, by2 = corners(b2)
    width = framework.maximum(ax2, bx2) - framework.minimum(ax1, bx1)
    height = framework.maximum(ay2, by2) - framework.minimum(ay1, by1)
    return width, height


def center_distance_squared(b1: Tensor, b2: Tensor) -> Tensor:
    ax1, ay1, ax2, ay2 = corners(b1)
    bx1, by1, bx2, by2 = corners(b2)
    dx = (ax1 + ax2 - bx1 - bx2) * 0.5
    dy = (ay1 + ay2 - by1 - by2) * 0.5
    return dx * dx + dy * dy


def aspect_ratio_term(b1: Tensor, b2: Tensor, eps: float = 0.0) -> Tensor:
    """CIoU's `v = 4 / pi^2 * (atan(w1 / h1) - atan(w2 / h2))^2`; `eps` is added to heights."""
    ax1, ay1, ax2, ay2 = corners(b1)
    bx1, by1, bx2, by2 = corners(b2)
    delta = framework.atan((ax2 - ax1) / (ay2 - ay1 + eps)) - framework.atan(
        (bx2 - bx1) / (by2 - by1 + eps)
    )
    return delta * delta * (4.0 / math.pi**2)


def box_area(boxes: BoxesLike) -> BoxesLike:
    """Areas `(x2 - x1) * (y2 - y1)` of `[..., 4]` boxes, shape `[...]`.

    Args:
        boxes (Tensor|numpy.ndarray): `[..., 4]` boxes `[x1, y1, x2, y2]`; float32 or float64.

    Returns:
        Tensor|numpy.ndarray: `[...]` areas, the kind and dtype of `boxes`.

    Examples:
        >>> box_area(np.array([[0.0, 0.0, 2.0, 3.0]]))
        array([6.])
    """
    (b,), arrays = as_box_tensors(boxes)
    x1, y1, x2, y2 = corners(b)
    return _result((x2 - x1) * (y2 - y1), arrays)


@_pairwise
def box_iou(b1: Tensor, b2: Tensor) -> Tensor:
    """Intersection over union of every pair: boxes1 `[N, 4]` × boxes2 `[M, 4]` -> `[N, M]`
    (torchvision's `box_iou`; float32 or float64, the inputs' dtype).

    Example:
        >>> box_iou(np.array([[0.0, 0, 2, 2]]), np.array([[1.0, 1, 3, 3], [0.0, 0, 2, 2]]))
        array([[0.14285714, 1.        ]])
    """
    inter, union = intersection_union(b1, b2)
    return inter / union


@_pairwise
def generalized_box_iou(b1: Tensor, b2: Tensor) -> Tensor:
    """Generalized IoU (Rezatofighi et al., 2019) of every pair, `[N, 4]` × `[M, 4]` ->
    `[N, M]` in [-1, 1]: IoU minus the share of the enclosing box that the union leaves empty.

    Args:
        boxes1 (Tensor|numpy.ndarray): `[N, 4]` boxes `[x1, y1, x2, y2]`; float32 or float64.
        boxes2 (Tensor|numpy.ndarray): `[M, 4]` boxes, the dtype of `boxes1`.

    Returns:
        Tensor|numpy.ndarray: `[N, M]`, the inputs' kind and dtype.

    Examples:
        >>> generalized_box_iou(np.array([[0.0, 0, 1, 1]]), np.array([[2.0, 0, 3, 1]]))
        array([[-0.33333333]])
    """
    inter, union = intersection_union(b1, b2)
    width, height = enclosing_size(b1, b2)
    enclosing = width * height
    return inter / union - (enclosing - union) / enclosing


@_pairwise
def distance_box_iou(b1: Tensor, b2: Tensor, eps: float = 1e-7) -> Tensor:
    """Distance IoU (Zheng et al., 2020) of every pair, `[N, 4]` × `[M, 4]` -> `[N, M]`: IoU
    minus the squared center distance over the enclosing box's squared diagonal (+ `eps`).

    Args:
        boxes1 (Tensor|numpy.ndarray): `[N, 4]` boxes `[x1, y1, x2, y2]`; float32 or float64.
        boxes2 (Tensor|numpy.ndarray): `[M, 4]` boxes, the dtype of `boxes1`.
        eps (float, optional): keeps the ratio finite. Default: 1e-07.

    Returns:
        Tensor|numpy.ndarray: `[N, M]`, the inputs' kind and dtype.

    Examples:
        >>> distance_box_iou(np.array([[0.0, 0, 1, 1]]), np.array([[1.0, 0, 2, 1]]))
        array([[-0.2]])
    """
    inter, union = intersection_union(b1, b2)
    width, height = enclosing_size(b1, b2)
    diagonal = width * width + height * height + eps
    return inter / union - center_distance_squared(b1, b2) / diagonal


@_pairwise
def complete_box_iou(b1: Tensor, b2: Tensor, eps: float = 1e-7) -> Tensor:
    """Complete IoU (Zheng et al., 2020) of every pair, `[N, 4]` × `[M, 4]` -> `[N, M]`: the
    distance IoU minus `alpha * v`, where `v` compares the aspect ratios and the trade-off
    `alpha = v / (1 - iou + v + eps)` is held constant for gradients (as torchvision does).

    Args:
        boxes1 (Tensor|numpy.ndarray): `[N, 4]` boxes `[x1, y1, x2, y2]`; float32 or float64.
        boxes2 (Tensor|numpy.ndarray): `[M, 4]` boxes, the dtype of `boxes1`.
        eps (float, optional): keeps the ratio finite. Default: 1e-07.

    Returns:
        Tensor|numpy.ndarray: `[N, M]`, the inputs' kind and dtype.

    Examples:
        >>> complete_box_iou(np.array([[0.0, 0, 2, 1]]), np.array([[0.0, 0, 1, 2]])).round(4)
        array([[0.2371]])
    """
    inter, union = intersection_union(b1, b2)
    iou = inter / union
    width, height = enclosing_size(b1, b2)
    diou = iou - center_distance_squared(b1, b2) / (width * width + height * height + eps)
    v = aspect_ratio_term(b1, b2)
    alpha = (v / (1.0 - iou + v + eps)).detach()
    return diou - alpha * v
