"""TransformerDecoderLayer, TransformerDecoder and Transformer, as in `paddle.nn`.

Batch-first like the encoder (`transformer.py`): `tgt` is `[batch, target_length, d_model]`,
`memory` (the encoder output) `[batch, source_length, d_model]`.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.common import Linear
from framework.nn.layer.container import LayerList
from framework.nn.layer.dropout import Dropout
from framework.nn.layer.layers import Layer
from framework.nn.layer.norm import LayerNorm
from framework.nn.layer.transformer import (
    MultiHeadAttention,
    TransformerEncoder,
    TransformerEncoderLayer,
    convert_attention_mask,
    param_attr_list,
)
from framework.ops.creation import full


class TransformerDecoderLayer(Layer):
    """One Transformer decoder layer, as `paddle.nn.TransformerDecoderLayer`.

    Self-attention, cross-attention over `memory`, then a feed-forward block; each with
    dropout, a residual connection and LayerNorm (before each block when `normalize_before`).

    Sublayers as in Paddle: `self_attn`, `cross_attn`, `linear1`, `dropout`, `linear2`,
    `norm1`..`norm3`, `dropout1`..`dropout3`. A list of three `weight_attr`/`bias_attr` goes to
    self-attention, cross-attention and the feed-forward block.

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
        - tgt: `[batch, tgt_length, d_model]`; float32 or float64.
        - memory: `[batch, src_length, d_model]`, the encoder's output.
        - tgt_mask, memory_mask: additive or bool masks, or None.
        - output: `[batch, tgt_length, d_model]`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32)
        >>> layer(paddle.ones([2, 3, 16]), paddle.ones([2, 5, 16])).shape
        paddle.Size([2, 3, 16])
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
        weight_attrs = param_attr_list(weight_attr, 3)
        bias_attrs = param_attr_list(bias_attr, 3)
        self.self_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[0],
            bias_attr=bias_attrs[0],
        )
        self.cross_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[1],
            bias_attr=bias_attrs[1],
        )
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[2], bias_attr=bias_attrs[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[2], bias_attr=bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = getattr(F, activation)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        cache: tuple | None = None,
    ):
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory: Tensor) -> tuple:
        """`(incremental_cache, static_cache)`: an empty self-attention cache and the
        projected keys/values of `memory` for cross-attention."""
        incremental = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental, static


class TransformerDecoder(Layer):
    """A stack of Transformer decoder layers, as `paddle.nn.TransformerDecoder`.

    `num_layers` decoder layers in a `LayerList` named `layers` (fresh ones built from the
    first one's configuration), then the optional `norm`.

    Args:
        decoder_layer (TransformerDecoderLayer): the first layer; the others copy its configuration.
        num_layers (int): the layers.
        norm (LayerNorm, optional): applied after the last layer. Default: None.

    Shape:
        - tgt: `[batch, tgt_length, d_model]`; float32 or float64.
        - memory: `[batch, src_length, d_model]`.
        - output: `[batch, tgt_length, d_model]`.

    Examples:
        >>> import framework as paddle
        >>> layer = paddle.nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32)
        >>> decoder = paddle.nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(paddle.ones([2, 3, 16]), paddle.ones([2, 5, 16])).shape
        paddle.Size([2, 3, 16])
    """

    def __init__(
        self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: LayerNorm | None = None
    ) -> None:
        super().__init__()
        self.layers = LayerList(
            [
                decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                for i in range(num_layers)
            ]
        )
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        cache: Sequence | None = None,
    ):
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, new_cache = layer(
                    output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i]
                )
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory: Tensor, do_zip: bool = False) -> list:
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache, strict=True)) if do_zip else cache


def _split_attrs(attr: object, what: str) -> tuple[object, object]:
    """Paddle's rule for Transformer: a list of 1, 2 or 3 attrs is spread over the encoder's
    two groups and the decoder's three."""
    if not isinstance(attr, list | tuple):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"length of {what} should be 1 or 2 or 3 when it is a list/tuple")


class Transformer(Layer):
    """An encoder-decoder Transformer, as `paddle.nn.Transformer`.

    An encoder-decoder Transformer (Vaswani et al.), with final LayerNorms on both stacks.

    Args:
        d_model (int, optional): the model width. Default: 512.
        nhead (int, optional): attention heads. Default: 8.
        num_encoder_layers (int, optional): Default: 6.
        num_decoder_layers (int, optional): Default: 6.
        dim_feedforward (int, optional): Default: 2048.
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
        custom_encoder, custom_decoder (Layer, optional): used instead of the built stacks. Default:
            None.

    Shape:
        - src: `[batch, src_length, d_model]`; float32 or float64.
        - tgt: `[batch, tgt_length, d_model]`.
        - src_mask, tgt_mask, memory_mask: masks, or None.
        - output: `[batch, tgt_length, d_model]`.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.nn.Transformer(
        ...     d_model=16, nhead=4, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32
        ... )
        >>> mask = model.generate_square_subsequent_mask(3)
        >>> print(mask)
        Tensor(shape=[3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[ 0.  , -inf., -inf.],
                [ 0.  ,  0.  , -inf.],
                [ 0.  ,  0.  ,  0.  ]])
        >>> model(paddle.ones([2, 5, 16]), paddle.ones([2, 3, 16]), tgt_mask=mask).shape
        paddle.Size([2, 3, 16])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: object = None,
        bias_attr: object = None,
        custom_encoder: Layer | None = None,
        custom_decoder: Layer | None = None,
    ) -> None:
        super().__init__()
        encoder_weight, decoder_weight = _split_attrs(weight_attr, "weight_attr")
        encoder_bias, decoder_bias = _split_attrs(bias_attr, "bias_attr")
        shared = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*shared, normalize_before, encoder_weight, encoder_bias)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*shared, normalize_before, decoder_weight, decoder_bias)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
    ) -> Tensor:
        src_mask = convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: int) -> Tensor:
        """`[length, length]` float mask: 0 on and below the diagonal, -inf above it."""
        dtype = dtypes.get_default_dtype()
        return full([length, length], float("-inf"), dtype).triu(1)
