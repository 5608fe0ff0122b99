"""F.flash_attn_qkvpacked: Paddle parity (its CPU "math" path), torch SDPA for grouped-query
heads, gradients of two orders, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("return_softmax", [False, True])
def test_it_matches_paddle(causal, return_softmax):
    paddle = pytest.importorskip("paddle")
    qkv = RNG.standard_normal((2, 40, 3, 2, 16)).astype(np.float32)
    ours = F.flash_attn_qkvpacked(framework.to_tensor(qkv), 0.0, causal, return_softmax)
    theirs = paddle.nn.functional.flash_attn_qkvpacked(
        paddle.to_tensor(qkv), 0.0, causal, return_softmax
    )
    assert ours[0].dtype == np.float32 and list(ours[0].shape) == list(theirs[0].shape)
    np.testing.assert_allclose(ours[0].numpy(), theirs[0].numpy(), rtol=1e-5, atol=1e-5)
    if return_softmax:
        np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-5, atol=1e-6)
    else:
        assert ours[1] is None and theirs[1] is None


@pytest.mark.parametrize("causal", [False, True])
def test_grouped_heads_match_torch(causal):
    torch = pytest.importorskip("torch")
    qkv = RNG.standard_normal((2, 7, 5, 2, 8))  # 3 query heads per key/value head
    out, _ = F.flash_attn_qkvpacked(framework.to_tensor(qkv), causal=causal)
    t = torch.tensor(qkv)
    q = t[:, :, :-2].reshape(2, 7, 6, 8).transpose(1, 2)
    k, v = t[:, :, -2].transpose(1, 2), t[:, :, -1].transpose(1, 2)
    ref = torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=causal, enable_gqa=True
    ).transpose(1, 2)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-10, atol=1e-12)


def test_gradients_match_central_differences():
    qkv = RNG.standard_normal((1, 3, 4, 1, 2))
    check_backward(lambda t: F.flash_attn_qkvpacked(t, causal=True)[0], [qkv])
    check_double_backward(lambda t: F.flash_attn_qkvpacked(t)[0], [qkv])


def test_dropout_runs_only_in_training():
    qkv = framework.to_tensor(RNG.standard_normal((1, 6, 3, 1, 4)).astype(np.float32))
    plain = F.flash_attn_qkvpacked(qkv)[0].numpy()
    np.testing.assert_array_equal(
        F.flash_attn_qkvpacked(qkv, 0.5, training=False)[0].numpy(), plain
    )
    _, weights = F.flash_attn_qkvpacked(qkv, 0.5, return_softmax=True)
    kept = weights.numpy()
    assert (kept == 0).any() and not np.allclose(F.flash_attn_qkvpacked(qkv, 0.5)[0].numpy(), plain)


def test_it_rejects_a_tensor_that_is_not_packed():
    with pytest.raises(ValueError, match="num_heads/num_heads_k \\+ 2"):
        F.flash_attn_qkvpacked(framework.ones([1, 4, 2, 8]))
