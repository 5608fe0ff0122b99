"""`prior_box`: a per-cell scalar reference of the SSD priors, and real Paddle."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.vision import ops

FEATURE = np.zeros((1, 3, 6, 9), np.float32)
IMAGE = np.zeros((1, 3, 90, 120), np.float32)
CASES = [
    {"min_sizes": [30.0]},
    {
        "min_sizes": [30.0, 60.0],
        "max_sizes": [60.0, 90.0],
        "aspect_ratios": [2.0, 3.0],
        "flip": True,
        "clip": True,
    },
    {
        "min_sizes": [30.0],
        "max_sizes": [60.0],
        "aspect_ratios": [2.0, 1.0],
        "flip": True,
        "min_max_aspect_ratios_order": True,
        "steps": [8.0, 16.0],
        "offset": 0.3,
        "variance": [0.1, 0.2, 0.3, 0.4],
    },
]


def reference(
    min_sizes,
    max_sizes=(),
    aspect_ratios=(1.0,),
    flip=False,
    clip=False,
    steps=(0.0, 0.0),
    offset=0.5,
    min_max_aspect_ratios_order=False,
    variance=(0.1, 0.1, 0.2, 0.2),
):
    fh, fw = FEATURE.shape[2:]
    ih, iw = IMAGE.shape[2:]
    sw, sh = steps if steps[0] and steps[1] else (iw / fw, ih / fh)
    ratios = [1.0]
    for ar in aspect_ratios:
        if all(abs(ar - r) >= 1e-6 for r in ratios):
            ratios += [ar, 1 / ar] if flip else [ar]
    out = []
    for i in range(fh):
        for j in range(fw):
            cx, cy = (j + offset) * sw, (i + offset) * sh
            sizes = []
            for s, size in enumerate(min_sizes):
                by_ratio = [(size * math.sqrt(r), size / math.sqrt(r)) for r in ratios]
                big = [(math.sqrt(size * max_sizes[s]),) * 2] if max_sizes else []
                if min_max_aspect_ratios_order:
                    others = [b for b, r in zip(by_ratio, ratios, strict=True) if r != 1.0]
                    sizes += [(size, size)] + big + others
                else:
                    sizes += by_ratio + big
            for bw, bh in sizes:
                box = [
                    (cx - bw / 2) / iw,
                    (cy - bh / 2) / ih,
                    (cx + bw / 2) / iw,
                    (cy + bh / 2) / ih,
                ]
                out.append([min(max(v, 0.0), 1.0) for v in box] if clip else box)
    boxes = np.array(out).reshape(fh, fw, -1, 4)
    return boxes, np.broadcast_to(np.array(variance), boxes.shape)


@pytest.mark.parametrize("options", CASES)
def test_it_matches_the_scalar_reference(options) -> None:
    feature, image = framework.to_tensor(FEATURE), framework.to_tensor(IMAGE)
    boxes, variances = ops.prior_box(feature, image, **options)
    want_boxes, want_variances = reference(**options)
    assert boxes.dtype == framework.float32
    np.testing.assert_allclose(boxes.numpy(), want_boxes, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(variances.numpy(), want_variances, rtol=1e-7)


@pytest.mark.parametrize("options", CASES)
def test_it_matches_paddle(options) -> None:
    paddle = pytest.importorskip("paddle")
    want = paddle.vision.ops.prior_box(
        paddle.to_tensor(FEATURE), paddle.to_tensor(IMAGE), **options
    )
    got = ops.prior_box(framework.to_tensor(FEATURE), framework.to_tensor(IMAGE), **options)
    for g, w in zip(got, want, strict=True):
        assert g.shape == list(w.shape)
        assert g.numpy().dtype == w.numpy().dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6, atol=2e-7)
