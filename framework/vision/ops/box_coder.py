"""Box encodings: Paddle's `box_coder` (center-size deltas against prior boxes), and the
point-to-side distances of anchor-free detectors (`distance2bbox`, `bbox2distance`, as in
PaddleDetection's `bbox_utils`).

All are built from differentiable framework ops when given Tensors, and hand arrays back when
given arrays (NumPy or CuPy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import framework
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.vision.ops.boxes import BoxesLike, as_box_tensors, corners


def _center_size(boxes: Tensor, pixel: float) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Prior-box centers and sizes as Paddle's kernel computes them: sizes gain one pixel
    when the boxes are not normalised, and the center is `x1 + width / 2`."""
    x1, y1, x2, y2 = corners(boxes)
    width = x2 - x1 + pixel
    height = y2 - y1 + pixel
    return x1 + width * 0.5, y1 + height * 0.5, width, height


def _variance(prior_box_var: BoxesLike | Sequence[float] | None, like: Tensor) -> Tensor | None:
    if prior_box_var is None:
        return None
    if isinstance(prior_box_var, list | tuple):
        if len(prior_box_var) != 4:
            raise ValueError(f"prior_box_var as a list needs 4 values, got {len(prior_box_var)}")
        xp = get_array_module(like._data)
        return Tensor._wrap(xp.asarray(prior_box_var, dtype=like._data.dtype))
    (variance,), _ = as_box_tensors(prior_box_var)
    return variance


def box_coder(
    prior_box: BoxesLike,
    prior_box_var: BoxesLike | Sequence[float] | None,
    target_box: BoxesLike,
    code_type: Literal["encode_center_size", "decode_center_size"] = "encode_center_size",
    box_normalized: bool = True,
    axis: int = 0,
    name: str | None = None,
) -> BoxesLike:
    """Encode boxes as center-size deltas against prior boxes, or decode deltas back (Paddle's
    `paddle.vision.ops.box_coder`).

    Args:
        prior_box: `[M, 4]` priors (anchors), `[x1, y1, x2, y2]`, float32 or float64.
        prior_box_var: variances: a `[M, 4]` tensor (one row per prior), 4 floats shared by
            all priors, or None (no scaling).
        target_box: encode: `[N, 4]` boxes; decode: `[N, M, 4]` deltas.
        code_type: "encode_center_size" or "decode_center_size".
        box_normalized: False treats coordinates as pixel indices, so a box is one pixel wider
            and taller than `x2 - x1` (Paddle's convention).
        axis: decode only: 0 pairs prior `j` with `target_box[:, j]` (priors `[M, 4]`), 1 pairs
            prior `i` with `target_box[i]` (priors `[N, 4]`).

    Returns:
        `[N, M, 4]`: the deltas `((tx - px) / pw, (ty - py) / ph, log(tw / pw), log(th / ph))`
        divided by the variances (encode), or the decoded `[x1, y1, x2, y2]` boxes (decode).

    Examples:
        >>> import numpy as np
        >>> from framework.vision.ops import box_coder
        >>> priors = np.array([[0.0, 0.0, 4.0, 4.0]], np.float32)
        >>> target = np.array([[1.0, 1, 5, 5]], np.float32)
        >>> deltas = box_coder(priors, [0.1, 0.1, 0.2, 0.2], target)
        >>> print(deltas)
        [[[2.5 2.5 0.  0. ]]]
        >>> print(box_coder(priors, [0.1, 0.1, 0.2, 0.2], deltas, "decode_center_size"))
        [[[1. 1. 5. 5.]]]
    """
    (prior, target), arrays = as_box_tensors(prior_box, target_box)
    variance = _variance(prior_box_var, prior)
    pixel = 0.0 if box_normalized else 1.0
    if code_type == "encode_center_size":
        out = _encode(prior, variance, target, pixel)
    elif code_type == "decode_center_size":
        out = _decode(prior, variance, target, pixel, axis)
    else:
        raise ValueError(f"code_type must be encode_center_size or decode_center_size: {code_type}")
    return out._data if arrays else out


def _encode(prior: Tensor, variance: Tensor | None, target: Tensor, pixel: float) -> Tensor:
    if prior.ndim != 2 or target.ndim != 2:
        raise ValueError(
            f"encode needs [M, 4] priors and [N, 4] targets: {prior.shape}, {target.shape}"
        )
    pcx, pcy, pw, ph = _center_size(prior, pixel)
    tx1, ty1, tx2, ty2 = (c.unsqueeze(1) for c in corners(target))
    tcx, tcy = (tx1 + tx2) * 0.5, (ty1 + ty2) * 0.5
    tw, th = tx2 - tx1 + pixel, ty2 - ty1 + pixel
    out = framework.stack(
        [
            (tcx - pcx) / pw,
            (tcy - pcy) / ph,
            framework.log(framework.abs(tw / pw)),
            framework.log(framework.abs(th / ph)),
        ],
        axis=-1,
    )
    return out if variance is None else out / variance


def _decode(
    prior: Tensor, variance: Tensor | None, target: Tensor, pixel: float, axis: int
) -> Tensor:
    if target.ndim != 3:
        raise ValueError(f"decode needs [N, M, 4] deltas, got {target.shape}")
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 or 1, got {axis}")
    expected = target.shape[1 - axis]
    if prior.shape != [expected, 4]:
        raise ValueError(f"decode with axis={axis} needs [{expected}, 4] priors, got {prior.shape}")
    unsqueeze = 0 if axis == 0 else 1  # where the priors broadcast against the deltas
    pcx, pcy, pw, ph = (c.unsqueeze(unsqueeze) for c in _center_size(prior, pixel))
    if variance is not None and variance.ndim == 2:
        variance = variance.unsqueeze(unsqueeze)
    deltas = target if variance is None else target * variance
    dx, dy, dw, dh = corners(deltas)
    cx, cy = dx * pw + pcx, dy * ph + pcy
    half_w, half_h = framework.exp(dw) * pw * 0.5, framework.exp(dh) * ph * 0.5
    return framework.stack(
        [cx - half_w, cy - half_h, cx + half_w - pixel, cy + half_h - pixel], axis=-1
    )


def distance2bbox(
    points: BoxesLike, distance: BoxesLike, max_shape: Sequence[float] | None = None
) -> BoxesLike:
    """Boxes from anchor points and their distances to the four sides (PaddleDetection's
    `distance2bbox`, batched by broadcasting).

    Args:
        points: `[..., 2]` anchor points `(x, y)`.
        distance: `[..., 4]` distances `(left, top, right, bottom)`, broadcast with `points`.
        max_shape: `(height, width)`: clip the boxes to the image.

    Returns:
        `[..., 4]` boxes `[x1, y1, x2, y2]`.

    Args:
        points (Tensor|numpy.ndarray): `[N, 2]` anchor points `(x, y)`; float32 or float64.
        distance (Tensor|numpy.ndarray): `[N, 4]` distances `(left, top, right, bottom)`.
        max_shape (list|tuple, optional): `(height, width)` to clip to. Default: None.

    Returns:
        Tensor|numpy.ndarray: `[N, 4]` boxes `[x1, y1, x2, y2]`, the dtype of `distance`.

    Examples:
        >>> import numpy as np
        >>> from framework.vision.ops import distance2bbox
        >>> distance2bbox(np.array([[4.0, 4.0]]), np.array([[1.0, 2.0, 3.0, 4.0]]))
        array([[3., 2., 7., 8.]])
    """
    (p, d), arrays = as_box_tensors(points, distance)
    x, y = framework.unbind(p, axis=-1)
    left, top, right, bottom = corners(d)
    sides = [x - left, y - top, x + right, y + bottom]
    if max_shape is not None:
        height, width = float(max_shape[0]), float(max_shape[1])
        sides = [
            s.clip(min=0.0, max=limit) for s, limit in zip(sides, [width, height] * 2, strict=True)
        ]
    out = framework.stack(sides, axis=-1)
    return out._data if arrays else out


def bbox2distance(
    points: BoxesLike, bbox: BoxesLike, reg_max: float, eps: float = 0.1
) -> BoxesLike:
    """Distances from anchor points to the sides of their target boxes, clipped to
    `[0, reg_max - eps]` so that they index a distribution over `{0, ..., reg_max}`
    (PaddleDetection's `bbox2distance`; the inverse of `distance2bbox`).

    Args:
        points: `[..., 2]` anchor points `(x, y)`, in the units of `bbox` (usually strides).
        bbox: `[..., 4]` boxes `[x1, y1, x2, y2]`, broadcast with `points`.
        reg_max: the largest distance of the distribution.
        eps: keeps the result strictly below `reg_max`, so that its upper bin exists.

    Returns:
        `[..., 4]` distances `(left, top, right, bottom)`.

    Args:
        points (Tensor|numpy.ndarray): `[N, 2]` anchor points `(x, y)`; float32 or float64.
        bbox (Tensor|numpy.ndarray): `[N, 4]` boxes `[x1, y1, x2, y2]`.
        reg_max (float): the largest distance kept (a little below it).
        eps (float, optional): how far below `reg_max` distances are clipped. Default: 0.1.

    Returns:
        Tensor|numpy.ndarray: `[N, 4]` distances `(left, top, right, bottom)`, the dtype of `bbox`.

    Examples:
        >>> import numpy as np
        >>> from framework.vision.ops import bbox2distance
        >>> bbox2distance(np.array([[4.0, 4.0]]), np.array([[3.0, 2.0, 7.0, 30.0]]), reg_max=7)
        array([[1. , 2. , 3. , 6.9]])
    """
    (p, b), arrays = as_box_tensors(points, bbox)
    x, y = framework.unbind(p, axis=-1)
    x1, y1, x2, y2 = corners(b)
    sides = [x - x1, y - y1, x2 - x, y2 - y]
    out = framework.stack([s.clip(min=0.0, max=reg_max - eps) for s in sides], axis=-1)
    return out._data if arrays else out
