"""F.flash_attention_v3_varlen: a per-sequence NumPy reference (FlashAttention's bottom-right
causal alignment, windows, softcap, seqused), torch SDPA per sequence, gradients of two orders
and errors. Paddle runs it only on Hopper GPUs, so there is no Paddle run here."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)


def _reference(
    q, k, v, cu_q, cu_k, causal=False, window=(-1, -1), softcap=0.0, used_q=None, used_k=None
):
    out = np.zeros_like(q[..., : v.shape[-1]])
    lse = np.full((q.shape[1], q.shape[0]), -np.inf)
    groups = q.shape[1] // k.shape[1]
    for b in range(len(cu_q) - 1):
        qa, ka = cu_q[b], cu_k[b]
        lq = cu_q[b + 1] - qa if used_q is None else used_q[b]
        lk = cu_k[b + 1] - ka if used_k is None else used_k[b]
        qs, ks, vs = (
            q[qa : qa + lq],
            np.repeat(k[ka : ka + lk], groups, 1),
            np.repeat(v[ka : ka + lk], groups, 1),
        )
        s = np.einsum("qhd,khd->hqk", qs, ks) / np.sqrt(q.shape[-1])
        if softcap:
            s = softcap * np.tanh(s / softcap)
        i, j = np.arange(lq)[:, None] + lk - lq, np.arange(lk)[None, :]
        left, right = window
        right = 0 if causal else right
        bad = np.zeros((lq, lk), bool)
        if right >= 0:
            bad |= j - i > right
        if left >= 0:
            bad |= j - i < -left
        s = np.where(bad, -np.inf, s)
        for h in range(s.shape[0]):
            for r in range(lq):
                row = s[h, r]
                if np.isinf(row).all():
                    continue
                m = row.max()
                w = np.exp(row - m)
                lse[h, qa + r] = m + np.log(w.sum())
                out[qa + r, h] = (w / w.sum()) @ vs[:, h]
    return out, lse


CU_Q, CU_K = np.array([0, 3, 8, 9], np.int32), np.array([0, 5, 7, 11], np.int32)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"causal": True},
        {"window_size": (1, 2)},
        {"causal": True, "window_size": (2, -1)},
        {"softcap": 2.0},
    ],
)
@pytest.mark.parametrize("kv_heads", [1, 2])
def test_it_matches_a_per_sequence_reference(kwargs, kv_heads):
    q = RNG.standard_normal((9, 4, 8))
    k, v = RNG.standard_normal((2, 11, kv_heads, 8))
    out, lse = F.flash_attention_v3_varlen(
        framework.to_tensor(q),
        framework.to_tensor(k),
        framework.to_tensor(v),
        framework.to_tensor(CU_Q),
        framework.to_tensor(CU_K),
        5,
        5,
        **kwargs,
    )
    want, want_lse = _reference(
        q,
        k,
        v,
        CU_Q,
        CU_K,
        kwargs.get("causal", False),
        kwargs.get("window_size", (-1, -1)),
        kwargs.get("softcap", 0.0),
    )
    assert out.dtype == np.float64 and lse.dtype == np.float32 and list(lse.shape) == [4, 9]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(lse.numpy(), want_lse, rtol=1e-6)


def test_seqused_leaves_the_rest_zero():
    q, k, v = RNG.standard_normal((3, 9, 2, 4))
    cu = np.array([0, 4, 9], np.int32)
    used = np.array([2, 5], np.int32)
    out, lse = F.flash_attention_v3_varlen(
        *(framework.to_tensor(t) for t in (q, k, v)),
        framework.to_tensor(cu),
        framework.to_tensor(cu),
        5,
        5,
        seqused_q=framework.to_tensor(used),
        seqused_k=framework.to_tensor(used),
    )
    want, want_lse = _reference(q, k, v, cu, cu, used_q=used, used_k=used)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-12)
    assert (out.numpy()[2:4] == 0).all() and np.isinf(lse.numpy()[:, 2:4]).all()


def test_equal_lengths_match_torch_per_sequence():
    torch = pytest.importorskip("torch")
    q, k, v = RNG.standard_normal((3, 9, 2, 8)).astype(np.float32)
    cu = np.array([0, 4, 9], np.int32)
    out, _ = F.flash_attention_v3_varlen(
        *(framework.to_tensor(t) for t in (q, k, v)),
        framework.to_tensor(cu),
        framework.to_tensor(cu),
        5,
        5,
        causal=True,
    )
    for a, b in zip(cu[:-1], cu[1:], strict=True):
        ref = torch.nn.functional.scaled_dot_product_attention(
            *(torch.tensor(t[a:b]).transpose(0, 1) for t in (q, k, v)), is_causal=True
        ).transpose(0, 1)
        np.testing.assert_allclose(out.numpy()[a:b], ref.numpy(), rtol=1e-5, atol=1e-6)


def test_gradients_match_central_differences():
    q, k, v = RNG.standard_normal((3, 5, 2, 2))
    cu = framework.to_tensor(np.array([0, 2, 5], np.int32))

    def attend(q, k, v):
        return F.flash_attention_v3_varlen(q, k, v, cu, cu, 3, 3, causal=True, softcap=1.5)[0]

    check_backward(attend, [q, k, v])
    check_double_backward(attend, [q, k, v])


def test_it_rejects_what_it_cannot_run():
    q = framework.ones([4, 2, 8])
    cu = framework.to_tensor(np.array([0, 4], np.int32))
    with pytest.raises(ValueError, match="does not support setting qv"):
        F.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, qv=q)
    with pytest.raises(NotImplementedError, match="float8"):
        F.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, q_descale=q)
    with pytest.raises(ValueError, match="longer than max_seqlen"):
        F.flash_attention_v3_varlen(q, q, q, cu, cu, 3, 3)
    assert (
        F.flash_attention_v3_varlen
        is framework.nn.functional.flash_attention_varlen.flash_attn_varlen_func
    )


def test_paddles_module_path_imports():
    from framework.nn.functional.flash_attention import (
        flash_attention_v3_varlen,
        flash_attn_qkvpacked,
        flashmask_attention,
    )

    assert flash_attention_v3_varlen is F.flash_attention_v3_varlen
    assert (flash_attn_qkvpacked, flashmask_attention) == (
        F.flash_attn_qkvpacked,
        F.flashmask_attention,
    )
