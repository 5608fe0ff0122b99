"""Exact int8 x int8 -> int32 matrix products on a float32 BLAS.

NumPy has no integer BLAS: an `int32` matmul runs a naive loop, two orders of magnitude below
the float32 GEMM. But a float32 GEMM over integer-valued operands is exact as long as every
partial sum stays within 2**24 (float32 represents every integer up to there, and a product of
two int8 values is exact). With inputs of magnitude at most `bound` (128 for int8 values, 255
for unsigned values shifted by their zero point), every partial sum of output `o` is bounded by
`bound * sum_k |w[o, k]|`; the weights are known when the kernel is built, so the reduction
axis is cut into the fewest pieces whose bound fits (usually one: per-channel abs-max weights
average well below 127), each piece is one float32 GEMM, and pieces are summed in float64
(exact to 2**53). The result equals the int32 accumulator bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.inference.kernels.conv_gemm import product

EXACT_LIMIT = float(1 << 24)  # every integer of magnitude <= 2**24 is a float32
ACTIVATION_BOUND = 128  # the largest |q| of an int8 activation


def exact_pieces(
    weight_rows: np.ndarray, bound: int = ACTIVATION_BOUND, step: int = 1
) -> list[slice]:
    """Cut the reduction axis of `weight_rows` ([O, K] integers) into consecutive slices whose
    partial sums `bound * sum |w[o, k]|` stay within 2**24 for every output o (`bound`: the
    largest |input|). Cuts fall on multiples of `step` (whole groups of columns)."""
    groups = weight_rows.shape[1] // step
    magnitude = np.abs(weight_rows.astype(np.int64)).reshape(len(weight_rows), groups, step)
    pieces = _cut(np.cumsum(magnitude.sum(axis=2) * bound, axis=1))
    return [slice(p.start * step, p.stop * step) for p in pieces]


def _cut(totals: np.ndarray) -> list[slice]:
    """Consecutive column ranges of the running sums `totals` ([O, K]) within the limit."""
    k = totals.shape[1]
    if k == 0 or totals[:, -1].max() <= EXACT_LIMIT:
        return [slice(0, k)]
    if np.diff(totals, axis=1, prepend=0).max() > EXACT_LIMIT:
        raise ValueError("a single column exceeds 2**24: not an int8 weight")
    pieces, start = [], 0
    while start < k:
        before = totals[:, start - 1] if start else np.zeros(len(totals), np.int64)
        low, high = start + 1, k  # the largest stop with max_o(totals[o, stop-1] - before) ok
        while low < high:
            middle = (low + high + 1) // 2
            if (totals[:, middle - 1] - before).max() <= EXACT_LIMIT:
                low = middle
            else:
                high = middle - 1
        pieces.append(slice(start, low))
        start = low
    return pieces


class IntegerGemm:
    """`rows @ weight.T` for integer-valued float32 `rows` [M, K] and int8 `weight` [O, K].

    `__call__(rows, out=None)` returns the exact accumulator: float32 [M, O] when one piece
    suffices (written into `out` when given), else float64.
    """

    def __init__(self, xp: Any, weight_rows: Any) -> None:
        weight_rows = np.asarray(weight_rows)
        self.pieces = exact_pieces(weight_rows)
        self.out_features = weight_rows.shape[0]
        # [O, K] C-contiguous, used transposed: BLAS reads it as a column-major [K, O].
        self.weight = xp.asarray(np.ascontiguousarray(weight_rows, dtype=np.float32))
        self.xp = xp

    @property
    def single(self) -> bool:
        return len(self.pieces) == 1

    def __call__(self, rows: Any, out: Any = None) -> Any:
        xp = self.xp
        if self.single:
            if out is None:
                out = xp.empty((rows.shape[0], self.out_features), dtype=xp.float32)
            product(xp, rows, self.weight, out)
            return out
        total = xp.zeros((rows.shape[0], self.out_features), dtype=xp.float64)
        for piece in self.pieces:
            total += rows[:, piece] @ self.weight[:, piece].T
        return total
