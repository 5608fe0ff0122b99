"""`flash_attention_v3_varlen` (= `flash_attn_varlen_func`): attention over sequences of
different lengths packed end to end, as FlashAttention-3's varlen API (Paddle runs it only on
Hopper GPUs; here each sequence runs through plain differentiable ops).

Sequence `b` holds tokens `cu_seqlens[b]:cu_seqlens[b + 1]` (its first `seqused[b]` when
given). A causal mask and a sliding window are aligned to the bottom-right corner, as in
FlashAttention: query `i` of `lq` sits at key position `i + lk - lq`. Rows with no key to
attend (and tokens past `seqused`) give zeros, and -inf in the log-sum-exp.
"""

from __future__ import annotations

import math

from framework.core import backend
from framework.core.tensor import Tensor
from framework.nn.functional.attention import _repeat_heads
from framework.ops.linalg.matmul import matmul
from framework.ops.manipulation.join import concat
from framework.ops.manipulation.where import where
from framework.ops.math.trigonometric import tanh
from framework.ops.reduction.logsumexp import logsumexp


def _lengths(cu_seqlens: Tensor, used: Tensor | None) -> list[tuple[int, int, int]]:
    """(start, length used, length held) per sequence."""
    cu = backend.to_numpy(cu_seqlens._data).astype(int).tolist()
    held = [b - a for a, b in zip(cu[:-1], cu[1:], strict=True)]
    if used is None:
        return [(a, n, n) for a, n in zip(cu[:-1], held, strict=True)]
    counts = backend.to_numpy(used._data).astype(int).tolist()
    return [(a, min(u, n), n) for a, u, n in zip(cu[:-1], counts, held, strict=True)]


def _masked(xp, lq: int, lk: int, causal: bool, window: tuple[int, int]):
    """True where query i may not see key j (bottom-right aligned)."""
    offset = xp.arange(lk)[None, :] - (xp.arange(lq)[:, None] + lk - lq)  # j - aligned i
    left, right = window
    right = 0 if causal else right
    masked = xp.zeros((lq, lk), dtype=bool)
    if right >= 0:
        masked |= offset > right
    if left >= 0:
        masked |= offset < -left
    return masked


def _one_sequence(q, k, v, scale, causal, window, softcap):
    """q `[lq, H, D]`, k/v `[lk, Hk, D]` -> out `[lq, H, D]`, lse `[H, lq]`."""
    xp = backend.get_array_module(q._data)
    q, k, v = (t.transpose([1, 0, 2]) for t in (q, k, v))
    groups = q.shape[0] // k.shape[0]
    if groups > 1:
        k, v = _repeat_heads(k[None], groups)[0], _repeat_heads(v[None], groups)[0]
    scores = matmul(q * scale, k, transpose_y=True)
    if softcap > 0:
        scores = tanh(scores / softcap) * softcap
    masked = _masked(xp, q.shape[1], k.shape[1], causal, window)
    empty = Tensor._wrap(
        xp.broadcast_to(masked.all(axis=-1, keepdims=True), (*scores.shape[:-1], 1))
    )
    minus_inf = Tensor._wrap(xp.asarray(-math.inf, scores.dtype))
    zero = Tensor._wrap(xp.zeros((), scores.dtype))
    scores = where(Tensor._wrap(masked), minus_inf, scores)
    lse = where(empty, zero, logsumexp(where(empty, zero, scores), axis=-1, keepdim=True))
    out = matmul((scores - lse).exp(), v).transpose([1, 0, 2])
    return out, where(empty, minus_inf, lse).squeeze(-1)


def flash_attention_v3_varlen(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    cu_seqlens_q: Tensor,
    cu_seqlens_k: Tensor,
    max_seqlen_q: int,
    max_seqlen_k: int,
    seqused_q: Tensor | None = None,
    seqused_k: Tensor | None = None,
    softmax_scale: float | None = None,
    causal: bool = False,
    qv: Tensor | None = None,
    q_descale: Tensor | None = None,
    k_descale: Tensor | None = None,
    v_descale: Tensor | None = None,
    window_size: tuple[int, int] = (-1, -1),
    softcap: float = 0.0,
    num_splits: int = 1,
    pack_gqa: bool | None = None,
    sm_margin: int = 0,
) -> tuple[Tensor, Tensor]:
    """Attention within each packed sequence.

    `query`: `[total_q, heads, head_dim]`; `key`/`value`: `[total_k, kv_heads, head_dim]`,
    `kv_heads` dividing `heads`; `cu_seqlens_q`/`_k`: int32 `[batch + 1]` offsets;
    `seqused_q`/`_k`: int32 `[batch]` tokens used per sequence. `window_size=(left, right)`,
    -1 for unbounded; `softcap > 0` caps scores with `softcap * tanh(s / softcap)`.
    `softmax_scale` defaults to `1 / sqrt(head_dim)`. Returns `(out [total_q, heads,
    head_dim], softmax_lse [heads, total_q] float32)`. `num_splits`, `pack_gqa` and
    `sm_margin` tune Paddle's kernel and change nothing here; `max_seqlen_*` are checked.

        q = framework.rand([10, 2, 128])
        cu = framework.to_tensor([0, 10], dtype="int32")
        out, lse = F.flash_attention_v3_varlen(q, q, q, cu, cu, 10, 10, causal=True)
    """
    if qv is not None:
        raise ValueError("flash_attn_varlen_func does not support setting qv")
    if any(t is not None for t in (q_descale, k_descale, v_descale)):
        raise NotImplementedError(
            "flash_attention_v3_varlen: q/k/v_descale scale float8 inputs, which the "
            "framework has no dtype for"
        )
    if query.ndim != 3 or key.ndim != 3 or value.ndim != 3:
        raise ValueError(
            "flash_attention_v3_varlen: query, key and value must be [token_num, num_heads, "
            f"head_dim], got {query.shape}, {key.shape}, {value.shape}"
        )
    if query.shape[1] % key.shape[1]:
        raise ValueError(
            f"flash_attention_v3_varlen: key/value heads ({key.shape[1]}) must divide query "
            f"heads ({query.shape[1]})"
        )
    seqs_q = _lengths(cu_seqlens_q, seqused_q)
    seqs_k = _lengths(cu_seqlens_k, seqused_k)
    if len(seqs_q) != len(seqs_k):
        raise ValueError(
            "flash_attention_v3_varlen: cu_seqlens_q and cu_seqlens_k differ in length"
        )
    if max(n for _, _, n in seqs_q) > max_seqlen_q or max(n for _, _, n in seqs_k) > max_seqlen_k:
        raise ValueError(
            "flash_attention_v3_varlen: a sequence is longer than max_seqlen_q / max_seqlen_k"
        )
    scale = softmax_scale if softmax_scale is not None else query.shape[-1] ** -0.5
    xp = backend.get_array_module(query._data)
    heads, dim = query.shape[1], value.shape[2]
    outs, lses = [], []
    for (qa, qn, q_held), (ka, kn, _) in zip(seqs_q, seqs_k, strict=True):
        if qn and kn:
            out, lse = _one_sequence(
                query[qa : qa + qn],
                key[ka : ka + kn],
                value[ka : ka + kn],
                scale,
                causal,
                tuple(window_size),
                softcap,
            )
        else:
            out = Tensor._wrap(xp.zeros((qn, heads, dim), query._data.dtype))
            lse = Tensor._wrap(xp.full((heads, qn), -math.inf, query._data.dtype))
        outs.append(out)
        lses.append(lse)
        if q_held > qn:  # tokens past seqused
            outs.append(Tensor._wrap(xp.zeros((q_held - qn, heads, dim), query._data.dtype)))
            lses.append(Tensor._wrap(xp.full((heads, q_held - qn), -math.inf, query._data.dtype)))
    return concat(outs, axis=0), concat(lses, axis=1).astype("float32")


flash_attn_varlen_func = flash_attention_v3_varlen
