"""scaled_dot_product_attention, as `paddle.nn.functional.scaled_dot_product_attention`.

Composed from matmul, softmax and dropout, so every order of gradient exists. Inputs are
Paddle's layout `[batch, seq_len, num_heads, head_dim]`.
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.softmax import softmax
from framework.ops.linalg import matmul


def _repeat_heads(x: Tensor, groups: int) -> Tensor:
    """`[B, Hk, S, D]` -> `[B, Hk * groups, S, D]`, each head repeated `groups` times."""
    if groups == 1:
        return x
    batch, heads, length, dim = x.shape
    expanded = x.unsqueeze(2).expand([batch, heads, groups, length, dim])
    return expanded.reshape([batch, heads * groups, length, dim])


def _additive_mask(attn_mask: Tensor, dtype) -> Tensor:
    """A bool mask (True = take part) becomes 0 / -inf; a float mask is added as it is."""
    if attn_mask.dtype.kind == "b":
        xp = get_array_module(attn_mask._data)
        return Tensor._wrap(xp.where(attn_mask._data, 0.0, -xp.inf).astype(dtype))
    return attn_mask if attn_mask.dtype == dtype else attn_mask.astype(dtype)


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    training: bool = True,
    backend: str | None = None,
    scale: float | None = None,
    enable_gqa: bool = True,
    name: str | None = None,
) -> Tensor:
    """Scaled dot-product attention, as `paddle.nn.functional.scaled_dot_product_attention`.

    `softmax(Q K^T * scale + mask) V` per head.

    query: `[batch, seq_q, heads, head_dim]`; key and value: `[batch, seq_k, kv_heads, ...]`
    where `kv_heads` divides `heads` (grouped-query attention repeats them). `attn_mask`
    broadcasts to `[batch, heads, seq_q, seq_k]`: bool (True takes part) or additive float.
    `is_causal=True` masks future positions (and ignores `attn_mask`). `scale` defaults to
    `1 / sqrt(head_dim)`. Returns `[batch, seq_q, heads, head_dim]`.

    Args:
        query (Tensor): `[batch, seq_q, heads, head_dim]`; float16, float32 or float64.
        key (Tensor): `[batch, seq_k, kv_heads, head_dim]`, `kv_heads` dividing `heads`.
        value (Tensor): `[batch, seq_k, kv_heads, head_dim_v]`.
        attn_mask (Tensor, optional): broadcast to `[batch, heads, seq_q, seq_k]`; bool (True
            attends) or additive float. Default: None.
        dropout_p (float, optional): dropout on the weights. Default: 0.0.
        is_causal (bool, optional): mask future positions. Default: False.
        training (bool, optional): apply `dropout_p` only in training. Default: True.
        backend (str, optional): accepted for Paddle's signature. Default: None.
        scale (float, optional): None is `1 / sqrt(head_dim)`. Default: None.
        enable_gqa (bool, optional): repeat key/value heads for grouped-query attention. Default:
            True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[batch, seq_q, heads, head_dim_v]`, the dtype of `query`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> q = paddle.to_tensor([[[[1.0, 0.0]], [[0.0, 1.0]]]])
        >>> v = paddle.to_tensor([[[[1.0, 2.0]], [[3.0, 4.0]]]])
        >>> print(F.scaled_dot_product_attention(q, q, v, is_causal=True))
        Tensor(shape=[1, 2, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1.        , 2.        ]],
        <BLANKLINE>
                 [[2.33952308, 3.33952308]]]])
        >>> q, kv = paddle.ones([2, 16, 8, 64]), paddle.ones([2, 16, 2, 64])  # 8 heads share 2
        >>> F.scaled_dot_product_attention(q, kv, kv).shape
        paddle.Size([2, 16, 8, 64])
    """
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(
            "scaled_dot_product_attention expects 4-D [batch, seq_len, num_heads, head_dim] "
            f"inputs, got {query.shape}, {key.shape}, {value.shape}"
        )
    q = query.transpose([0, 2, 1, 3])
    k = key.transpose([0, 2, 1, 3])
    v = value.transpose([0, 2, 1, 3])
    heads, kv_heads = q.shape[1], k.shape[1]
    if heads != kv_heads:
        if not enable_gqa or heads % kv_heads:
            raise ValueError(
                f"query has {heads} heads and key/value {kv_heads}; grouped-query attention "
                "needs enable_gqa=True and key/value heads dividing query heads"
            )
        k = _repeat_heads(k, heads // kv_heads)
        v = _repeat_heads(v, heads // kv_heads)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = matmul(q * scale, k, transpose_y=True)
    if is_causal:
        xp = get_array_module(scores._data)
        length_q, length_k = scores.shape[-2:]
        future = xp.triu(xp.ones((length_q, length_k), dtype=bool), 1)
        scores = scores + Tensor._wrap(xp.where(future, -xp.inf, 0.0).astype(scores.dtype))
    elif attn_mask is not None:
        scores = scores + _additive_mask(attn_mask, scores.dtype)
    weights = softmax(scores, axis=-1)
    if dropout_p > 0.0 and training:
        from framework.nn.functional import dropout

        weights = dropout(weights, dropout_p, training=True)
    return matmul(weights, v).transpose([0, 2, 1, 3])
