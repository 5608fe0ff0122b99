"""What the RoI ops share: a sparse weighted mix of feature rows (`SparseRowMix`, the core of
`roi_align` and `psroi_pool`), the image each box belongs to, and argument checks.

RoI align and position-sensitive RoI pooling are linear in the feature map: every output value
is a weighted sum of input pixels, with weights fixed by the boxes. Laid out channel-last, the
pixels of one image are rows of a `[pixels, channels]` matrix and all channels share the
weights, so each op is one table of `(output row, input row, weight)` taps. `SparseRowMix` adds
the taps up; its adjoint is the same table read the other way, so these ops have gradients of
any order in `x`. Boxes get no gradient (as in Paddle).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module, to_numpy
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor

# taps x channels per bincount: bounds the temporaries (values, flat index, float64 weights)
CHUNK_VALUES = 1 << 21


class SparseRowMix(Function):
    """`out[r, :] = sum over taps t with row[t] == r of weight[t] * x[col[t], :]`.

    `x` is `[n_cols, C]`, the result `[n_rows, C]`; `row`, `col` (int64) and `weight` are 1-D
    tap tables on the device of `x`. Taps go through in chunks of `CHUNK_VALUES` values, so
    big boxes on wide maps do not materialise taps x channels at once.
    """

    def __init__(self, row: Any, col: Any, weight: Any, n_rows: int) -> None:
        self.row = row
        self.col = col
        self.weight = weight
        self.n_rows = n_rows

    def forward(self, x):
        xp = get_array_module(x)
        self.n_cols = x.shape[0]
        channels = x.shape[1]
        if self.row.size == 0:
            return xp.zeros((self.n_rows, channels), dtype=x.dtype)
        x = xp.ascontiguousarray(x)
        lanes = xp.arange(channels, dtype=np.int64)
        size = self.n_rows * channels
        out = None
        step = max(1, CHUNK_VALUES // channels)
        for start in range(0, self.row.size, step):
            part = slice(start, start + step)
            values = x[self.col[part]] * self.weight[part, None]
            flat = self.row[part, None] * channels + lanes
            chunk = xp.bincount(flat.ravel(), weights=values.ravel(), minlength=size)
            out = chunk if out is None else out + chunk
        return out.astype(x.dtype, copy=False).reshape(self.n_rows, channels)

    def backward(self, gy: Tensor) -> Tensor:
        return SparseRowMix(self.col, self.row, self.weight, self.n_cols).apply(gy)


def pair(value: int | Sequence[int], name: str) -> tuple[int, int]:
    """`output_size` (or a stride, ...) as `(height, width)`."""
    if isinstance(value, int | np.integer):
        return int(value), int(value)
    values = tuple(int(v) for v in value)
    if len(values) != 2:
        raise ValueError(f"{name} must be an int or a pair, got {value!r}")
    return values


def box_images(boxes: Tensor, boxes_num: Any, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """The boxes as float64 NumPy `[K, 4]`, and the image (int64 `[K]`) each belongs to:
    `boxes_num[i]` consecutive boxes per image `i`."""
    b = to_numpy(boxes._data).astype(np.float64)
    if b.ndim != 2 or b.shape[1] != 4:
        raise ValueError(f"boxes must be [K, 4], got {list(b.shape)}")
    counts = to_numpy(as_tensor(boxes_num)._data).astype(np.int64).ravel()
    if counts.size != batch:
        raise ValueError(f"boxes_num has {counts.size} entries for a batch of {batch} images")
    if counts.sum() != b.shape[0]:
        raise ValueError(f"boxes_num adds up to {counts.sum()}, but there are {b.shape[0]} boxes")
    return b, np.repeat(np.arange(batch, dtype=np.int64), counts)


def round_half_away(values: np.ndarray) -> np.ndarray:
    """C's `round` (halves away from zero), which Paddle's kernels use; NumPy rounds to even."""
    return np.sign(values) * np.floor(np.abs(values) + 0.5)


def mix_rows(
    rows: Tensor, row: np.ndarray, col: np.ndarray, weight: np.ndarray, n_rows: int
) -> Tensor:
    """`SparseRowMix` of `rows` with NumPy tap tables moved to its device and dtype."""
    xp = get_array_module(rows._data)
    keep = weight != 0
    tables = (
        xp.asarray(row[keep], dtype=np.int64),
        xp.asarray(col[keep], dtype=np.int64),
        xp.asarray(weight[keep], dtype=rows._data.dtype),
    )
    return SparseRowMix(*tables, n_rows).apply(rows)
