"""`flashmask_attention`: attention under FlashMask's column-wise sparse mask (Paddle's
`nn.functional.flashmask_attention`, https://arxiv.org/abs/2410.01359).

Paddle runs it only on GPUs with FlashAttention kernels; here the mask is expanded to a dense
one and attention runs as plain differentiable ops. For key column `j`, `startend_row_indices
[b, h, j]` holds row bounds: `[start]` masks rows `start:` (causal); `[start, end]` masks
`start:end` (causal) or rows `start:` and `:end` (bidirectional); `[ls, le, us, ue]` masks
`ls:le` and `us:ue`. `causal` also masks the rows above the diagonal. A row with every key
masked gives zeros, as FlashAttention does.
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.attention import _repeat_heads
from framework.ops.linalg.matmul import matmul
from framework.ops.manipulation.where import where
from framework.ops.reduction.logsumexp import logsumexp


def _lse_shape(scores: Tensor) -> tuple[int, ...]:
    return (*scores.shape[:-1], 1)


def _between(rows, low, high):
    return (rows >= low) & (rows < high)


def dense_flashmask(xp, indices, causal: bool, seq_q: int):
    """The bool mask `[batch, heads, seq_q, seq_k]` (True = masked) that `indices`
    (`[batch, heads, seq_k, {1, 2, 4}]`) stands for."""
    rows = xp.arange(seq_q)[:, None]
    bounds = [indices[..., k][:, :, None, :] for k in range(indices.shape[-1])]
    count = len(bounds)
    if causal and count == 1:
        return rows >= bounds[0]
    if causal and count == 2:
        return _between(rows, bounds[0], bounds[1])
    if not causal and count == 2:
        return (rows >= bounds[0]) | (rows < bounds[1])
    if not causal and count == 4:
        return _between(rows, bounds[0], bounds[1]) | _between(rows, bounds[2], bounds[3])
    kind = "causal" if causal else "bidirectional"
    allowed = "1 or 2" if causal else "2 or 4"
    raise ValueError(
        f"flashmask_attention: startend_row_indices for {kind} attention needs {allowed} "
        f"bounds in its last dim, got {count}"
    )


def _window_mask(xp, window_size, causal: bool, seq_q: int, seq_k: int):
    left, right = (window_size, window_size) if isinstance(window_size, int) else window_size
    offset = xp.arange(seq_k)[None, :] - xp.arange(seq_q)[:, None]  # key minus query position
    outside = offset < -left
    return outside if causal else outside | (offset > right)


def _check(query: Tensor, key: Tensor, value: Tensor, indices: Tensor | None) -> None:
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(
            "flashmask_attention: query, key and value must be [batch, seq_len, num_heads, "
            f"head_dim], got {query.shape}, {key.shape}, {value.shape}"
        )
    if query.shape[2] % key.shape[2]:
        raise ValueError(
            f"flashmask_attention: key/value heads ({key.shape[2]}) must divide query heads "
            f"({query.shape[2]})"
        )
    if indices is None:
        return
    batch, seq_k, kv_heads = key.shape[0], key.shape[1], key.shape[2]
    shape = list(indices.shape)
    if len(shape) != 4 or shape[0] != batch or shape[1] not in (1, kv_heads) or shape[2] != seq_k:
        raise ValueError(
            "flashmask_attention: startend_row_indices must be [batch_size, k_num_heads, "
            f"k_seq_len, {{1, 2, 4}}] = [{batch}, 1 or {kv_heads}, {seq_k}, ...], got {shape}"
        )
    if indices._data.dtype.name != "int32":
        raise TypeError(
            f"flashmask_attention: startend_row_indices must be int32, got {indices.dtype}"
        )


def _masks(xp, query, key, startend_row_indices, causal, window_size, block_mask):
    seq_q, seq_k = query.shape[1], key.shape[1]
    masked = xp.zeros((1, 1, seq_q, seq_k), dtype=bool)
    if startend_row_indices is not None:
        dense = dense_flashmask(xp, startend_row_indices._data, causal, seq_q)
        groups = query.shape[2] // dense.shape[1] if dense.shape[1] > 1 else 1
        masked = masked | (xp.repeat(dense, groups, axis=1) if groups > 1 else dense)
    if causal:
        masked = masked | xp.triu(xp.ones((seq_q, seq_k), dtype=bool), 1)
    if window_size is not None:
        masked = masked | _window_mask(xp, window_size, causal, seq_q, seq_k)
    if block_mask is not None:
        blocks = block_mask._data == 0
        dense = xp.repeat(xp.repeat(blocks, 128, axis=2), 128, axis=3)[:, :, :seq_q, :seq_k]
        masked = masked | dense
    return masked


def flashmask_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    startend_row_indices: Tensor | None = None,
    *,
    dropout: float = 0.0,
    causal: bool = False,
    window_size: int | tuple | None = None,
    return_softmax_lse: bool = False,
    return_seed_offset: bool = False,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
    softmax_scale: float | None = None,
    block_mask: Tensor | None = None,
):
    """`softmax(Q K^T * scale + M) V` with FlashMask's mask `M` (see the module docstring).

    `query`: `[batch, seq_q, heads, head_dim]`; `key`/`value`: `[batch, seq_k, kv_heads,
    head_dim]`, `kv_heads` dividing `heads` (grouped-query attention); `startend_row_indices`:
    int32 `[batch, 1 or kv_heads, seq_k, {1, 2, 4}]`; `window_size`: sliding-window bounds
    `w` or `(left, right)`; `block_mask`: int `[batch, heads, ceil(seq_q/128),
    ceil(seq_k/128)]`, 0 masking a 128x128 block. `softmax_scale` defaults to
    `1 / sqrt(head_dim)`. Returns `out` in the shape and dtype of `query`, and with
    `return_softmax_lse` also the float32 log-sum-exp `[batch, heads, seq_q]`.

        q = framework.rand([1, 10, 2, 32])
        rows = framework.to_tensor([8] * 10 + [5] * 10, dtype="int32").reshape([1, 2, 10, 1])
        out = F.flashmask_attention(q, q, q, rows, causal=True)   # [1, 10, 2, 32]
    """
    if return_seed_offset:
        raise NotImplementedError(
            "flashmask_attention: return_seed_offset is the CUDA dropout state of Paddle's "
            "kernel; dropout here draws from framework.seed, so there is no offset to return"
        )
    _check(query, key, value, startend_row_indices)
    xp = get_array_module(query._data)
    q = query.transpose([0, 2, 1, 3])
    k, v = key.transpose([0, 2, 1, 3]), value.transpose([0, 2, 1, 3])
    groups = q.shape[1] // k.shape[1]
    if groups > 1:
        k, v = _repeat_heads(k, groups), _repeat_heads(v, groups)
    scale = softmax_scale if softmax_scale is not None else 1.0 / math.sqrt(query.shape[-1])
    masked = _masks(xp, query, key, startend_row_indices, causal, window_size, block_mask)
    scores = matmul(q * scale, k, transpose_y=True)
    scores = where(Tensor._wrap(masked), Tensor._wrap(xp.asarray(-math.inf, scores.dtype)), scores)
    # A row with every key masked gives zeros: its log-sum-exp is taken over zeros instead,
    # so no -inf - -inf reaches the gradient.
    empty = Tensor._wrap(xp.broadcast_to(masked.all(axis=-1, keepdims=True), _lse_shape(scores)))
    zero = Tensor._wrap(xp.zeros((), scores.dtype))
    safe_lse = logsumexp(where(empty, zero, scores), axis=-1, keepdim=True)
    safe_lse = where(empty, zero, safe_lse)
    weights = (scores - safe_lse).exp()
    if dropout > 0.0 and training:
        from framework.nn.functional import dropout as dropout_fn

        weights = dropout_fn(weights, dropout, training=True)
    out = matmul(weights, v).transpose([0, 2, 1, 3])
    if return_softmax_lse:
        lse = where(empty, Tensor._wrap(xp.asarray(-math.inf, scores.dtype)), safe_lse)
        return out, lse.squeeze(-1).astype("float32")
    return out
