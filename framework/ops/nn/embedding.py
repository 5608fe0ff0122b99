"""Embedding lookup `y = W[ids]` and its adjoint, the row scatter-add.

Rows looked up at `padding_idx` read as zeros and get no gradient (Paddle's behaviour), so the
lookup is `(P W)[ids]` with P zeroing that row, and its exact adjoint is `P (scatter-add)`.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.nn.dropout import MaskedScale


class EmbeddingLookup(Function):
    """`[V, D] -> ids.shape + [D]`. `row_scale` (per id, optional) scales the gradient only."""

    def __init__(self, ids, padding_idx: int | None, row_scale=None) -> None:
        self.ids = ids
        self.padding_idx = padding_idx
        self.row_scale = row_scale

    def forward(self, weight):
        self.rows = weight.shape[0]
        out = weight[self.ids]
        if self.padding_idx is not None:
            out[self.ids == self.padding_idx] = 0
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return EmbeddingScatter(self.ids, self.rows, self.padding_idx, self.row_scale).apply(gy)


class EmbeddingScatter(Function):
    """`ids.shape + [D] -> [V, D]`: add each row of g at its id (the adjoint of the lookup)."""

    def __init__(self, ids, rows: int, padding_idx: int | None, row_scale=None) -> None:
        self.ids = ids
        self.num_rows = rows
        self.padding_idx = padding_idx
        self.row_scale = row_scale

    def forward(self, g):
        xp = get_array_module(g)
        d = g.shape[-1]
        values = g.reshape(-1, d)
        if self.row_scale is not None:
            values = values * self.row_scale.reshape(-1, 1)
        out = xp.zeros((self.num_rows, d), dtype=g.dtype)
        xp.add.at(out, self.ids.reshape(-1), values)
        if self.padding_idx is not None:
            out[self.padding_idx] = 0
        return out

    def backward(self, gg: Tensor) -> Tensor:
        lookup = EmbeddingLookup(self.ids, self.padding_idx)
        out = lookup.apply(gg)
        if self.row_scale is None:
            return out
        scale = self.row_scale.reshape(*self.ids.shape, 1).astype(gg._data.dtype)
        return MaskedScale(scale).apply(out)
