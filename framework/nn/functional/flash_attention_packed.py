"""`flash_attn_qkvpacked`: attention on one tensor holding queries, keys and values (Paddle's
`nn.functional.flash_attn_qkvpacked`). Paddle runs FlashAttention kernels on GPUs and this
same composition of plain ops elsewhere (its "math" backend), which is what runs here.
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.attention import _repeat_heads
from framework.nn.functional.softmax import softmax
from framework.ops.linalg.matmul import matmul
from framework.ops.manipulation.shape import reshape


def flash_attn_qkvpacked(
    qkv: Tensor,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    *,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None]:
    """`softmax(Q K^T / sqrt(d)) V` with Q, K and V unpacked from `qkv`.

    `qkv`: `[batch, seq, groups + 2, kv_heads, head_dim]`: `qkv[:, :, :-2]` are the queries
    (`groups * kv_heads` heads, in that row-major order), `qkv[:, :, -2]` the keys and
    `qkv[:, :, -1]` the values; query head `h` reads key/value head `h // groups`, as
    FlashAttention's grouped-query attention does. `causal` masks future positions. Returns
    `(out [batch, seq, groups * kv_heads, head_dim], softmax or None)`, the softmax being
    `[batch, heads, seq, seq]` after dropout. `fixed_seed_offset` and `rng_name` are
    accepted for Paddle's signature; dropout draws from `framework.seed`.

        q = framework.rand([1, 128, 2, 16])
        qkv = framework.stack([q, q, q], axis=2)
        out, _ = F.flash_attn_qkvpacked(qkv)   # out: [1, 128, 2, 16]
    """
    if qkv.ndim != 5 or qkv.shape[2] < 3:
        raise ValueError(
            "flash_attn_qkvpacked: qkv must be [batch, seq, num_heads/num_heads_k + 2, "
            f"num_heads_k, head_dim], got {qkv.shape}"
        )
    batch, seq, packed, kv_heads, head_dim = qkv.shape
    groups = packed - 2
    q = reshape(qkv[:, :, :-2], [batch, seq, groups * kv_heads, head_dim]).transpose([0, 2, 1, 3])
    k = qkv[:, :, -2].transpose([0, 2, 1, 3])
    v = qkv[:, :, -1].transpose([0, 2, 1, 3])
    if groups > 1:
        k, v = _repeat_heads(k, groups), _repeat_heads(v, groups)
    scale = head_dim**-0.5 if head_dim else 1.0
    scores = matmul(q * scale, k, transpose_y=True)
    if causal:
        xp = get_array_module(scores._data)
        future = xp.triu(xp.ones((seq, seq), dtype=bool), 1)
        scores = scores + Tensor._wrap(xp.where(future, -math.inf, 0.0).astype(scores.dtype))
    weights = softmax(scores, axis=-1)
    if dropout > 0.0 and training:
        from framework.nn.functional import dropout as dropout_fn

        weights = dropout_fn(weights, dropout, training=True)
    out = matmul(weights, v).transpose([0, 2, 1, 3])
    return out, weights if return_softmax else None
