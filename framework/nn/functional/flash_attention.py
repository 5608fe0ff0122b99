"""`paddle.nn.functional.flash_attention`, the module path Paddle code imports FlashAttention
entry points from (`from paddle.nn.functional.flash_attention import flashmask_attention`).
The functions live in their own modules."""

from framework.nn.functional.flash_attention_packed import flash_attn_qkvpacked
from framework.nn.functional.flash_attention_varlen import (
    flash_attention_v3_varlen,
    flash_attn_varlen_func,
)
from framework.nn.functional.flashmask_attention import flashmask_attention

__all__ = [
    "flash_attention_v3_varlen",
    "flash_attn_qkvpacked",
    "flash_attn_varlen_func",
    "flashmask_attention",
]
