"""Random boxes for the box-op, NMS and detection tests. Not a test module."""

from __future__ import annotations

import numpy as np


def random_boxes(n: int, seed: int, dtype=np.float64, extent: float = 10.0) -> np.ndarray:
    """`n` valid `[x1, y1, x2, y2]` boxes with corners in [0, extent + 6] and sides >= 0.5."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, extent, (n, 2))
    wh = rng.uniform(0.5, 6, (n, 2)) * (extent / 10.0)
    return np.concatenate([xy, xy + wh], axis=1).astype(dtype)
