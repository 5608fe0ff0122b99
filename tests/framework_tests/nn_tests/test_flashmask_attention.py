"""F.flashmask_attention: the mask read element by element as Paddle's FlashMask tests build
it (`flashmask_to_densemask`), a NumPy reference, torch SDPA with that dense mask, gradients
of two orders, fully masked rows, windows, block masks and errors. Paddle runs FlashMask only
on GPUs, so there is no Paddle run here."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)


def _loop_mask(indices, causal, seq_q):
    """True where masked, column by column, as in Paddle's `flashmask_to_densemask`."""
    batch, heads, seq_k, count = indices.shape
    masked = np.zeros((batch, heads, seq_q, seq_k), bool)
    has_end = (causal and count == 2) or (not causal and count == 4)
    for b in range(batch):
        for h in range(heads):
            for j in range(seq_k):
                bounds = indices[b, h, j]
                if has_end:
                    masked[b, h, bounds[0] : bounds[1], j] = True
                else:
                    masked[b, h, bounds[0] :, j] = True
                if causal:
                    masked[b, h, :j, j] = True
                elif has_end:
                    masked[b, h, bounds[2] : bounds[3], j] = True
                else:
                    masked[b, h, : bounds[1], j] = True
    return masked


def _reference(q, k, v, masked):
    groups = q.shape[2] // k.shape[2]
    k, v = np.repeat(k, groups, axis=2), np.repeat(v, groups, axis=2)
    scores = np.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(q.shape[-1])
    scores = np.where(np.repeat(masked, q.shape[2] // masked.shape[1], axis=1), -np.inf, scores)
    top = scores.max(axis=-1, keepdims=True)
    top = np.where(np.isinf(top), 0.0, top)
    weights = np.exp(scores - top)
    total = weights.sum(axis=-1, keepdims=True)
    weights = np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)
    return np.einsum("bhqk,bkhd->bqhd", weights, v)


def _indices(seq, count, causal, heads=1, seed=0):
    rng = np.random.default_rng(seed)
    if count == 1:
        return rng.integers(1, seq + 1, (1, heads, seq, 1)).astype(np.int32)
    low = rng.integers(0, seq + 1, (1, heads, seq, count // 2 * 2))
    low = np.sort(low.reshape(1, heads, seq, -1, 2), axis=-1).reshape(1, heads, seq, -1)
    if causal:
        # Keep the diagonal: causal bounds start below it.
        j = np.arange(seq)[None, None, :, None]
        low = np.maximum(low, j + 1)
    return low.astype(np.int32)


CASES = [(True, 1), (True, 2), (False, 2), (False, 4)]


@pytest.mark.parametrize("causal,count", CASES)
@pytest.mark.parametrize("kv_heads", [1, 2])
def test_it_matches_the_elementwise_mask(causal, count, kv_heads):
    q = RNG.standard_normal((1, 9, 4, 8))
    k, v = RNG.standard_normal((2, 1, 9, kv_heads, 8))
    indices = _indices(9, count, causal, heads=kv_heads)
    out = F.flashmask_attention(
        framework.to_tensor(q),
        framework.to_tensor(k),
        framework.to_tensor(v),
        framework.to_tensor(indices),
        causal=causal,
    )
    want = _reference(q, k, v, _loop_mask(indices, causal, 9))
    assert out.dtype == np.float64 and list(out.shape) == [1, 9, 4, 8]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-12)


def test_paddles_documented_mask_matches_torch():
    torch = pytest.importorskip("torch")
    q, k, v = RNG.standard_normal((3, 1, 10, 2, 32)).astype(np.float32)
    indices = np.array([8] * 10 + [5] * 10, np.int32).reshape(1, 2, 10, 1)
    out = F.flashmask_attention(
        *(framework.to_tensor(t) for t in (q, k, v)), framework.to_tensor(indices), causal=True
    )
    keep = ~_loop_mask(indices, True, 10)
    ref = torch.nn.functional.scaled_dot_product_attention(
        *(torch.tensor(t).transpose(1, 2) for t in (q, k, v)), attn_mask=torch.tensor(keep)
    ).transpose(1, 2)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)


def test_fully_masked_rows_give_zeros_and_lse():
    q = framework.to_tensor(RNG.standard_normal((1, 4, 1, 8)))
    indices = framework.to_tensor(np.full((1, 1, 4, 1), 2, np.int32))  # rows 2: masked
    out, lse = F.flashmask_attention(q, q, q, indices, causal=True, return_softmax_lse=True)
    got = out.numpy()
    assert np.isfinite(got).all() and (got[0, 2:] == 0).all() and (got[0, :2] != 0).all()
    assert lse.dtype == np.float32 and list(lse.shape) == [1, 1, 4]
    assert np.isinf(lse.numpy()[0, 0, 2:]).all()


def test_window_and_block_masks():
    q, k, v = RNG.standard_normal((3, 1, 12, 2, 4))
    offsets = np.arange(12)[None, :] - np.arange(12)[:, None]
    for causal, window, outside in [
        (True, 3, (offsets < -3) | (offsets > 0)),
        (False, (2, 1), (offsets < -2) | (offsets > 1)),
    ]:
        out = F.flashmask_attention(
            *(framework.to_tensor(t) for t in (q, k, v)), causal=causal, window_size=window
        )
        np.testing.assert_allclose(
            out.numpy(), _reference(q, k, v, outside[None, None]), atol=1e-12
        )
    blocks = np.array([[[[1]], [[0]]]], np.int32)  # head 1 masks everything
    out = F.flashmask_attention(
        *(framework.to_tensor(t) for t in (q, k, v)), block_mask=framework.to_tensor(blocks)
    )
    np.testing.assert_array_equal(out.numpy()[:, :, 1], 0.0)
    np.testing.assert_allclose(
        out.numpy()[:, :, 0], _reference(q, k, v, np.zeros((1, 1, 12, 12), bool))[:, :, 0]
    )


@pytest.mark.parametrize("causal,count", CASES)
def test_gradients_match_central_differences(causal, count):
    q, k, v = RNG.standard_normal((3, 1, 4, 2, 2))
    indices = framework.to_tensor(_indices(4, count, causal, heads=2, seed=3))

    def attend(q, k, v):
        return F.flashmask_attention(q, k, v, indices, causal=causal)

    check_backward(attend, [q, k, v])
    check_double_backward(attend, [q, k, v])


@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        ({"startend_row_indices": np.zeros((1, 1, 5, 1), np.int32)}, ValueError, "must be"),
        ({"startend_row_indices": np.zeros((1, 1, 4, 1), np.int64)}, TypeError, "int32"),
        (
            {"startend_row_indices": np.zeros((1, 1, 4, 4), np.int32), "causal": True},
            ValueError,
            "1 or 2",
        ),
        ({"return_seed_offset": True}, NotImplementedError, "seed"),
    ],
)
def test_it_rejects_bad_arguments(kwargs, error, message):
    q = framework.ones([1, 4, 2, 8])
    kwargs = {
        name: framework.to_tensor(value) if isinstance(value, np.ndarray) else value
        for name, value in kwargs.items()
    }
    with pytest.raises(error, match=message):
        F.flashmask_attention(q, q, q, **kwargs)
