"""top_p_sampling: the draw follows the truncated nucleus distribution, thresholds and seeds
behave as Paddle documents, and Paddle's documented example gives its printed result.
(Paddle has no CPU kernel for it, so there is no Paddle run to compare with here.)"""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.search.top_p_sampling import top_p_sampling

PROBS = np.array([0.05, 0.4, 0.1, 0.3, 0.15], dtype=np.float32)


def _draws(p: float, mode: str, n: int = 20000, threshold: float | None = None) -> np.ndarray:
    x = framework.to_tensor(np.tile(PROBS, (n, 1)))
    ps = framework.to_tensor(np.full(n, p, np.float32))
    floor = None if threshold is None else framework.to_tensor(np.full(n, threshold, np.float32))
    value, ids = top_p_sampling(x, ps, threshold=floor, seed=7, mode=mode)
    assert ids.dtype == np.int64 and list(ids.shape) == [n, 1]
    assert value.dtype == np.float32 and list(value.shape) == [n, 1]
    np.testing.assert_array_equal(value.numpy()[:, 0], PROBS[ids.numpy()[:, 0]])
    return np.bincount(ids.numpy()[:, 0], minlength=5) / n


@pytest.mark.parametrize(
    "p,mode,expected",
    [
        # Sorted: 0.4 (id 1), 0.3 (id 3), 0.15 (id 4), 0.1, 0.05. p=0.8 truncates id 4 to 0.1.
        (0.8, "truncated", {1: 0.4 / 0.8, 3: 0.3 / 0.8, 4: 0.1 / 0.8}),
        (0.8, "non-truncated", {1: 0.4 / 0.85, 3: 0.3 / 0.85, 4: 0.15 / 0.85}),
        (0.5, "truncated", {1: 0.4 / 0.5, 3: 0.1 / 0.5}),
        (1.0, "truncated", {1: 0.4, 3: 0.3, 4: 0.15, 2: 0.1, 0: 0.05}),
    ],
)
def test_the_draws_follow_the_nucleus(p, mode, expected):
    freq = _draws(p, mode)
    want = np.zeros(5)
    for token, share in expected.items():
        want[token] = share
    # 20000 draws: a share's standard error is below 0.0036.
    np.testing.assert_allclose(freq, want, atol=0.015)
    assert freq[want == 0].sum() == 0


def test_a_threshold_removes_low_tokens():
    freq = _draws(1.0, "truncated", threshold=0.12)
    assert freq[0] == 0 and freq[2] == 0 and freq[4] > 0


def test_paddles_documented_example():
    # x and ps as printed in Paddle's docstring (from paddle.randn on a GPU).
    x = framework.to_tensor(
        [[-0.32012719, -0.07942779, 0.26011357], [0.79003978, -0.39958701, 1.42184138]]
    )
    ps = framework.to_tensor([-0.32012719, -0.07942779])
    value, index = framework.Tensor.top_p_sampling(x, ps)
    np.testing.assert_allclose(value.numpy(), [[0.26011357], [1.42184138]], rtol=1e-6)
    assert index.numpy().tolist() == [[2], [2]]


def test_seeds_make_draws_repeatable():
    x = framework.to_tensor(np.tile(PROBS, (6, 1)))
    ps = framework.to_tensor(np.full(6, 0.9, np.float32))
    seeds = framework.to_tensor(np.arange(6, dtype=np.int64))
    first = top_p_sampling(x, ps, topp_seed=seeds)[1].numpy()
    assert (top_p_sampling(x, ps, topp_seed=seeds)[1].numpy() == first).all()
    framework.seed(3)
    a = top_p_sampling(x, ps)[1].numpy()
    framework.seed(3)
    assert (top_p_sampling(x, ps)[1].numpy() == a).all()
    assert (
        top_p_sampling(x, ps, seed=5)[1].numpy() == top_p_sampling(x, ps, seed=5)[1].numpy()
    ).all()


def test_return_top_gives_the_k_largest():
    x = framework.to_tensor(np.stack([PROBS, PROBS[::-1].copy()]))
    out = top_p_sampling(x, framework.to_tensor([0.5, 0.5]), k=2, return_top=True)
    assert len(out) == 4
    assert out[3].numpy().tolist() == [[1, 3], [3, 1]] and out[3].dtype == np.int64
    np.testing.assert_allclose(out[2].numpy(), [[0.4, 0.3], [0.4, 0.3]])


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: top_p_sampling(framework.ones([3]), framework.ones([1])), "2-D float tensor"),
        (lambda: top_p_sampling(framework.ones([2, 3]), framework.ones([3])), "one value per row"),
        (lambda: top_p_sampling(framework.ones([2, 3]), framework.ones([2]), mode="x"), "mode"),
    ],
)
def test_it_rejects_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()
