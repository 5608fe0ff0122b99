"""ONNX transformer ops of opset 23: Attention and RotaryEmbedding, on the framework's ops.

Both follow the ONNX reference implementation (`onnx.reference.ops`), including its edge
cases: a query row whose keys are all masked attends to nothing (zeros, not NaN), and a
causal mask with a key/value cache is aligned bottom-right (query i sees keys up to
i + past length).
"""

from __future__ import annotations

import math

import numpy as np

import framework
import framework.nn.functional as F
from framework.onnx.import_.registry import array_op, imports, new_array
from framework.onnx.tensor_proto import numpy_type


def _attention_check(node, opset) -> str | None:
    if len(node.inputs) > 6 and node.inputs[6]:
        return "Attention(nonpad_kv_seqlen input, opset 24)"
    return None


def _split_heads(x, heads: int | None, role: str):
    """`[B, S, heads * D]` -> `[B, heads, S, D]`."""
    if not heads:
        raise ValueError(f"ONNX Attention with 3-D inputs needs the {role}_num_heads attribute")
    b, s, hidden = x.shape
    return framework.transpose(x.reshape([b, s, heads, hidden // heads]), [0, 2, 1, 3])


def _additive(mask, sq: int, skv: int, dtype):
    """The attention mask as an additive float bias, its last axis padded to `skv`."""
    if mask._data.dtype == np.bool_:
        mask = array_op(
            lambda xp, m: xp.where(m, dtype.type(0), dtype.type(-np.inf)).astype(dtype), mask
        )
    short = skv - mask.shape[-1]
    if short > 0:
        fill = framework.full([*mask.shape[:-1], short], float("-inf"), mask.dtype)
        mask = framework.concat([mask, fill], axis=-1)
    return mask


@imports("Attention", check=_attention_check)
def _attention(ctx, node, args):
    q, k, v, mask, past_key, past_value = (list(args) + [None] * 6)[:6]
    rank3 = q.ndim == 3
    q_heads = node.attrs.get("q_num_heads")
    kv_heads = node.attrs.get("kv_num_heads")
    if rank3:
        q = _split_heads(q, q_heads, "q")
        k = _split_heads(k, kv_heads, "kv")
        v = _split_heads(v, kv_heads, "kv")
    if (past_key is None) != (past_value is None):
        raise ValueError("ONNX Attention: past_key and past_value must be given together")
    past = 0
    if past_key is not None:
        past = past_key.shape[2]
        k = framework.concat([past_key, k], axis=2)
        v = framework.concat([past_value, v], axis=2)
    present_key, present_value = k, v
    dtype = np.dtype(q._data.dtype)
    sq, skv = q.shape[2], k.shape[2]

    bias = None if mask is None else _additive(mask, sq, skv, dtype)
    if node.attrs.get("is_causal", 0):
        allowed = np.arange(skv)[None, :] <= np.arange(sq)[:, None] + past
        causal = new_array(q, np.where(allowed, 0, -np.inf).astype(dtype))
        bias = causal if bias is None else bias + causal

    if q.shape[1] != k.shape[1]:  # grouped-query attention: each K/V head serves a group
        repeats = q.shape[1] // k.shape[1]
        k = framework.repeat_interleave(k, repeats, axis=1)
        v = framework.repeat_interleave(v, repeats, axis=1)

    # ONNX scales Q and K by sqrt(scale) each, and rounds that factor to the input type.
    scale = node.attrs.get("scale")
    scale = 1.0 / math.sqrt(q.shape[3]) if scale is None else float(scale)
    root = float(dtype.type(math.sqrt(scale)))
    scores = framework.matmul(q * root, framework.transpose(k * root, [0, 1, 3, 2]))
    softcap = float(node.attrs.get("softcap", 0.0))
    if softcap > 0:
        scores = framework.tanh(scores / softcap) * softcap
    mode = int(node.attrs.get("qk_matmul_output_mode", 0))
    qk_output = scores
    if bias is not None:
        scores = scores + bias
    if mode == 2:
        qk_output = scores

    precision = node.attrs.get("softmax_precision")
    logits = scores
    if precision is not None and numpy_type(int(precision)) != dtype:
        logits = framework.cast(scores, numpy_type(int(precision)).name)
    probs = F.softmax(logits, axis=-1)
    if bias is not None:  # rows with no attendable key give zeros, not NaN
        blocked = array_op(lambda xp, b: xp.isneginf(b.max(axis=-1, keepdims=True)), bias)
        probs = framework.where(blocked, framework.zeros_like(probs), probs)
    if probs.dtype != q.dtype:
        probs = framework.cast(probs, dtype.name)
    if mode == 3:
        qk_output = probs

    y = framework.matmul(probs, v)
    if rank3:
        b, heads, s, d = y.shape
        y = framework.transpose(y, [0, 2, 1, 3]).reshape([b, s, heads * d])
    return (y, present_key, present_value, qk_output)[: len(node.outputs)]


@imports("RotaryEmbedding")
def _rotary_embedding(ctx, node, args):
    x, cos, sin, positions = (list(args) + [None])[:4]
    shape = x.shape
    if x.ndim == 4:  # [B, heads, S, D] -> [B, S, heads, D]
        x = framework.transpose(x, [0, 2, 1, 3])
    else:
        heads = int(node.attrs.get("num_heads", 0))
        if not heads:
            raise ValueError("ONNX RotaryEmbedding with a 3-D input needs num_heads")
        b, s, hidden = x.shape
        x = x.reshape([b, s, heads, hidden // heads])
    head = x.shape[3]
    dim = int(node.attrs.get("rotary_embedding_dim", 0)) or head
    if positions is not None:
        index = positions
        cos, sin = (
            framework.gather(cos, index.reshape([-1])),
            framework.gather(sin, index.reshape([-1])),
        )
        cos = cos.reshape([*positions.shape, dim // 2])
        sin = sin.reshape([*positions.shape, dim // 2])
    if cos.shape[-1] != dim // 2 or sin.shape[-1] != dim // 2:
        raise ValueError(
            f"ONNX RotaryEmbedding: the cos/sin caches end in {cos.shape[-1]}/{sin.shape[-1]} "
            f"values, rotary_embedding_dim/2 is {dim // 2}"
        )
    cos, sin = framework.unsqueeze(cos, 2), framework.unsqueeze(sin, 2)
    rotate, keep = x[:, :, :, :dim], x[:, :, :, dim:]
    interleaved = bool(node.attrs.get("interleaved", 0))
    if interleaved:
        x1, x2 = rotate[:, :, :, 0::2], rotate[:, :, :, 1::2]
    else:
        x1, x2 = rotate[:, :, :, : dim // 2], rotate[:, :, :, dim // 2 :]
    real = cos * x1 - sin * x2
    imag = sin * x1 + cos * x2
    if interleaved:
        rotated = framework.stack([real, imag], axis=-1).reshape(rotate.shape)
    else:
        rotated = framework.concat([real, imag], axis=-1)
    y = framework.concat([rotated, keep], axis=-1) if dim < head else rotated
    if len(shape) == 3:
        return y.reshape(shape)
    return framework.transpose(y, [0, 2, 1, 3])
