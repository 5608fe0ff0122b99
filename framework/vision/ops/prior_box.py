"""SSD prior (anchor) boxes (Paddle's `paddle.vision.ops.prior_box`): for every cell of a
feature map, boxes of the given sizes and aspect ratios centered on it, normalised by the
image size. The boxes depend only on shapes, so they are computed once on the host."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor


def _listed(value: Sequence[float] | float) -> list[float]:
    return [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]


def _expand_aspect_ratios(aspect_ratios: list[float], flip: bool) -> list[float]:
    """1, then each new ratio (and its inverse with `flip`), as Paddle's `ExpandAspectRatios`."""
    ratios = [1.0]
    for ar in aspect_ratios:
        if any(abs(ar - seen) < 1e-6 for seen in ratios):
            continue
        ratios.append(ar)
        if flip:
            ratios.append(1.0 / ar)
    return ratios


def _half_sizes(
    min_sizes: list[float], max_sizes: list[float], ratios: list[float], min_max_order: bool
) -> list[tuple[float, float]]:
    """Every prior's `(half width, half height)`, in Paddle's order."""
    halves = []
    for s, size in enumerate(min_sizes):
        ratio_boxes = [(size * math.sqrt(ar) / 2, size / math.sqrt(ar) / 2) for ar in ratios]
        big = [(math.sqrt(size * max_sizes[s]) / 2,) * 2] if max_sizes else []
        if min_max_order:
            square = [(size / 2, size / 2)]
            rest = [b for b, ar in zip(ratio_boxes, ratios, strict=True) if abs(ar - 1) >= 1e-6]
            halves += square + big + rest
        else:
            halves += ratio_boxes + big
    return halves


def prior_box(
    input: Tensor,
    image: Tensor,
    min_sizes: Sequence[float] | float,
    max_sizes: Sequence[float] | float | None = None,
    aspect_ratios: Sequence[float] | float = (1.0,),
    variance: Sequence[float] | float = (0.1, 0.1, 0.2, 0.2),
    flip: bool = False,
    clip: bool = False,
    steps: Sequence[float] | float = (0.0, 0.0),
    offset: float = 0.5,
    min_max_aspect_ratios_order: bool = False,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """SSD prior boxes for one feature map.

    Args:
        input: `[N, C, H, W]` feature map (only its size is used).
        image: `[N, C, IH, IW]` input image (only its size is used).
        min_sizes: box sizes in image pixels; with `max_sizes`, one extra square box
            `sqrt(min * max)` per size.
        aspect_ratios: width / height ratios; 1 is always included, `flip` adds inverses.
        variance: the 4 variances repeated for every box.
        clip: clip boxes to `[0, 1]`.
        steps: `(step_w, step_h)` between cell centers in pixels; 0 takes `IW / W`, `IH / H`.
        offset: cell-center offset, in cells.
        min_max_aspect_ratios_order: Caffe's order (min box, max box, then the other ratios).

    Returns:
        `boxes` `[H, W, P, 4]` normalised `[x1, y1, x2, y2]` and `variances` `[H, W, P, 4]`,
        the dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> feat, img = paddle.rand([1, 3, 6, 9]), paddle.rand([1, 3, 9, 12])
        >>> boxes, var = prior_box(feat, img, [100.0], [200.0], [2.0], flip=True)
        >>> boxes.shape
        paddle.Size([6, 9, 4, 4])
    """
    data = as_tensor(input)._data
    feat_h, feat_w = data.shape[2:]
    img_h, img_w = as_tensor(image).shape[2:]
    step_w, step_h = _listed(steps) if isinstance(steps, list | tuple) else (steps, steps)
    if step_w == 0 or step_h == 0:
        step_w, step_h = img_w / feat_w, img_h / feat_h
    maxes = _listed(max_sizes) if max_sizes is not None else []
    maxes = maxes if maxes and maxes[0] > 0 else []
    ratios = _expand_aspect_ratios(_listed(aspect_ratios), flip)
    halves = np.asarray(_half_sizes(_listed(min_sizes), maxes, ratios, min_max_aspect_ratios_order))
    cx = ((np.arange(feat_w) + offset) * step_w)[None, :, None]
    cy = ((np.arange(feat_h) + offset) * step_h)[:, None, None]
    hw, hh = halves[:, 0], halves[:, 1]
    boxes = np.stack(
        np.broadcast_arrays(
            (cx - hw) / img_w, (cy - hh) / img_h, (cx + hw) / img_w, (cy + hh) / img_h
        ),
        axis=-1,
    )
    if clip:
        boxes = np.clip(boxes, 0.0, 1.0)
    dtype = data.dtype if data.dtype.kind == "f" else np.float32
    variances = np.broadcast_to(np.asarray(_listed(variance), dtype=np.float64), boxes.shape)
    xp = get_array_module(data)
    return (
        Tensor._wrap(xp.asarray(boxes, dtype=dtype)),
        Tensor._wrap(xp.asarray(variances, dtype=dtype)),
    )
