"""MultiHeadAttention, TransformerEncoderLayer and TransformerEncoder, as in `paddle.nn`.

Inputs are batch-first, `[batch_size, sequence_length, d_model]`. An attention mask broadcasts
to `[batch_size, num_heads, query_length, key_length]`: bool or int masks keep the positions
that are True/1, float masks are added to the attention logits.
"""

from __future__ import annotations

import collections
import copy
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.common import Linear
from framework.nn.layer.container import LayerList
from framework.nn.layer.dropout import Dropout
from framework.nn.layer.layers import Layer
from framework.nn.layer.norm import LayerNorm
from framework.nn.param_attr import ParamAttr
from framework.ops.creation import full
from framework.ops.linalg import matmul
from framework.ops.manipulation import concat


def convert_attention_mask(attn_mask: Tensor | None, dtype: object) -> Tensor | None:
    """A bool/int mask (keep = True/1) becomes an additive float mask (0 or -1e9)."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.dtype.kind in "biu":
        return (attn_mask.astype(dtype) - 1.0) * 1e9
    return attn_mask.astype(dtype)


def param_attr_list(attr: object, n: int) -> list:
    """Paddle's `_convert_param_attr_to_list`: one attr per sublayer group; a named attr is
    copied with suffixes `_0`, `_1`, ... so parameter names stay unique."""
    if isinstance(attr, list | tuple):
        if len(attr) != n:
            raise ValueError(f"length of param_attr should be {n} when it is a list/tuple")
        return [
            (ParamAttr._to_attr(None) if a else False)
            if isinstance(a, bool)
            else ParamAttr._to_attr(a)
            for a in attr
        ]
    if isinstance(attr, bool):
        return [ParamAttr._to_attr(None) for _ in range(n)] if attr else [False] * n
    base = ParamAttr._to_attr(attr)
    attrs = []
    for i in range(n):
        copied = copy.deepcopy(base)
        if base.name:
            copied.name = f"{base.name}_{i}"
        attrs.append(copied)
    return attrs


class MultiHeadAttention(Layer):
    """Multi-head attention, as `paddle.nn.MultiHeadAttention`.

    Multi-head scaled dot-product attention with projections `q_proj`, `k_proj`, `v_proj`
    and `out_proj` (Linear layers, weights `[in, embed_dim]`).

    `forward(query, key=None, value=None, attn_mask=None, cache=None)` returns the output
    `[batch, query_length, embed_dim]`, plus the attention weights
    `[batch, num_heads, query_length, key_length]` when `need_weights=True`, plus the updated
    cache when one is given (see `gen_cache`).

    Args:
        embed_dim (int): the model width.
        num_heads (int): divides `embed_dim`.
        dropout (float, optional): dropout on the attention weights. Default: 0.0.
        kdim (int, optional): the keys' width; None is `embed_dim`. Default: None.
        vdim (int, optional): the values' width; None is `embed_dim`. Default: None.
        need_weights (bool, optional): also return the attention weights. Default: False.
        weight_attr (ParamAttr, optional): the projections' weight attribute. Default: None.
        bias_attr (ParamAttr|bool, optional): their bias attribute. Default: None.

    Shape:
        - query: `[batch, query_length, embed_dim]`; float32 or float64.
        - key, value: `[batch, key_length, kdim / vdim]`, or None for `query`.
        - attn_mask: broadcast to `[batch, num_heads, query_length, key_length]`, or None.
        - output: `[batch, query_length, embed_dim]` (and the weights with `need_weights`).

    Examples:
        >>> import framework as paddle
        >>> mha = paddle.nn.MultiHeadAttention(embed_dim=16, num_heads=4, need_weights=True)
        >>> out, weights = mha(paddle.ones([2, 5, 16]))
        >>> out.shape, weights.shape
        (paddle.Size([2, 5, 16]), paddle.Size([2, 4, 5, 5]))
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        kdim: int | None = None,
        vdim: int | None = None,
        need_weights: bool = False,
        weight_attr: object = None,
        bias_attr: object = None,
    ) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be positive, got {embed_dim} and {num_heads}"
            )
        if embed_dim % num_heads:
            raise ValueError(
                f"embed_dim must be divisible by num_heads, got {embed_dim} and {num_heads}"
            )
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _split_heads(self, x: Tensor) -> Tensor:
        batch, length = x._data.shape[:2]
        return x.reshape([batch, length, self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])

    def compute_kv(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        """Project and split keys and values: both `[batch, num_heads, length, head_dim]`."""
        return self._split_heads(self.k_proj(key)), self._split_heads(self.v_proj(value))

    def gen_cache(self, key: Tensor, value: Tensor | None = None, type: type = Cache):  # noqa: A002
        """A `StaticCache` of projected key/value (cross attention), an empty `Cache` to grow
        during incremental decoding (`value=None`), or a `Cache` of the given tensors."""
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(full(shape, 0, key.dtype), full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def _prepare_qkv(self, query: Tensor, key: Tensor, value: Tensor, cache):
        q = self._split_heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = concat([cache.k, k], axis=2)
            v = concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        return q, k, v, cache

    def forward(
        self,
        query: Tensor,
        key: Tensor | None = None,
        value: Tensor | None = None,
        attn_mask: Tensor | None = None,
        cache=None,
    ):
        key = query if key is None else key
        value = query if value is None else value
        if query.ndim != 3 or query.shape[-1] != self.embed_dim:
            raise ValueError(
                f"MultiHeadAttention(embed_dim={self.embed_dim}, num_heads={self.num_heads}) "
                f"expects query of shape [batch, length, {self.embed_dim}], got {query.shape}"
            )
        q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        product = matmul(q * (self.head_dim**-0.5), k, transpose_y=True)
        if attn_mask is not None:
            product = product + convert_attention_mask(attn_mask, product.dtype)
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(
                weights, self.dropout, training=self.training, mode="upscale_in_train"
            )
        out = matmul(weights, v).transpose([0, 2, 1, 3])
        batch, length = out._data.shape[:2]
        out = self.out_proj(out.reshape([batch, length, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"


class TransformerEncoderLayer(Layer):
    """One Transformer encoder layer, as `paddle.nn.TransformerEncoderLayer`.

    Self-attention then a feed-forward block, each with dropout, a residual connection and
    LayerNorm (applied before each block with `normalize_before=True`, after otherwise).

    Sublayers as in Paddle: `self_attn`, `linear1`, `dropout`, `linear2`, `norm1`, `norm2`,
    `dropout1`, `dropout2`; `activation` names a function of `framework.nn.functional`.

    Args:
        d_model (int): the model width.
        nhead (int): attention heads.
        dim_feedforward (int): the feed-forward block's hidden width.
        dropout (float, optional): dropout after each block. Default: 0.1.
        activation (str, optional): the feed-forward activation, e.g. 'relu' or 'gelu'. Default:
            'relu'.
        attn_dropout (float, optional): dropout on the attention weights; None is `dropout`.
            Default: None.
        act_dropout (float, optional): dropout after the activation; None is `dropout`. Default:
            None.
        normalize_before (bool, optional): LayerNorm before each block instead of after. Default:
            False.
        weight_attr (ParamAttr, optional): the weights' attribute. Default: None.
        bias_attr (ParamAttr|bool, optional): the biases' attribute. Default: None.
        layer_norm_eps (float, optional): LayerNorm's epsilon. Default: 1e-05.

    Shape:
        - src: `[batch, length, d_model]`; float32 or float64.
        - src_mask: broadcast to `[batch, nhead, length, length]`, or None.
        - output: `[batch, length, d_model]`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32)
        >>> layer(paddle.ones([2, 5, 16])).shape
        paddle.Size([2, 5, 16])
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: object = None,
        bias_attr: object = None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        self._config = config
        if d_model <= 0 or nhead <= 0 or dim_feedforward <= 0:
            raise ValueError(
                "d_model, nhead and dim_feedforward must be positive, got "
                f"{d_model}, {nhead} and {dim_feedforward}"
            )
        if not hasattr(F, activation):
            raise ValueError(f"unknown activation {activation!r}: not in framework.nn.functional")
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = param_attr_list(weight_attr, 2)
        bias_attrs = param_attr_list(bias_attr, 2)
        self.self_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[0],
            bias_attr=bias_attrs[0],
        )
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[1], bias_attr=bias_attrs[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[1], bias_attr=bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(F, activation)

    def forward(self, src: Tensor, src_mask: Tensor | None = None, cache=None):
        src_mask = convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src: Tensor):
        """An empty incremental `MultiHeadAttention.Cache` for this layer's self-attention."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """A stack of Transformer encoder layers, as `paddle.nn.TransformerEncoder`.

    `num_layers` encoder layers in a `LayerList` named `layers` (the first is the given
    layer, the others are fresh ones built from its configuration, as in Paddle), then the
    optional `norm`.

    Args:
        encoder_layer (TransformerEncoderLayer): the first layer; the others copy its configuration.
        num_layers (int): the layers.
        norm (LayerNorm, optional): applied after the last layer. Default: None.

    Shape:
        - src: `[batch, length, d_model]`; float32 or float64.
        - src_mask: as `TransformerEncoderLayer`'s, or None.
        - output: `[batch, length, d_model]`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32)
        >>> encoder = paddle.nn.TransformerEncoder(layer, num_layers=2)
        >>> encoder(paddle.ones([2, 5, 16])).shape, len(encoder.layers)
        (paddle.Size([2, 5, 16]), 2)
    """

    def __init__(
        self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: LayerNorm | None = None
    ) -> None:
        super().__init__()
        self.layers = LayerList(
            [
                encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                for i in range(num_layers)
            ]
        )
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src: Tensor, src_mask: Tensor | None = None, cache: Sequence | None = None):
        src_mask = convert_attention_mask(src_mask, src.dtype)
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src: Tensor) -> list:
        return [layer.gen_cache(src) for layer in self.layers]


# --- Paddle's layout: `paddle.nn.layer.transformer` also holds these layers, defined in sibling
# modules of this package. Imported last: those modules import this one's base classes. -----
from framework.nn.layer.transformer_decoder import (  # noqa: E402, F401
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
)
