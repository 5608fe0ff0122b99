"""F.dropout1d: Paddle's channel dropout of `[N, C, L]` / `[C, L]` inputs (one draw per channel,
shared across the batch as Paddle's `dropout(axis=1)`), scaling, eval identity, gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward


@pytest.mark.parametrize("shape", [(4, 8, 16), (8, 16)], ids=str)
def test_it_drops_whole_channels_and_scales_the_rest(shape):
    y = F.dropout1d(framework.ones(list(shape)), p=0.5).numpy()
    channels = y.reshape(-1, shape[-2], shape[-1])
    assert set(np.unique(channels)) <= {0.0, 2.0}
    assert (channels == channels[:1, :, :1]).all()  # one value per channel, for every sample
    assert y.shape == shape


def test_it_is_the_identity_in_eval_and_matches_paddle_there():
    paddle = pytest.importorskip("paddle")
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    ours = F.dropout1d(framework.to_tensor(x), 0.3, training=False)
    theirs = paddle.nn.functional.dropout1d(paddle.to_tensor(x), 0.3, training=False)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    # Paddle shares the draw across the batch too
    drawn = paddle.nn.functional.dropout1d(paddle.ones([6, 5, 4]), 0.5).numpy()
    assert (drawn == drawn[:1, :, :1]).all()


def test_it_has_gradients_for_a_fixed_draw():
    def fixed(t):
        framework.seed(5)
        return F.dropout1d(t, 0.5)

    x = np.random.default_rng(1).standard_normal((2, 4, 3))
    check_backward(fixed, [x])
    check_double_backward(lambda t: fixed(t * t), [x])


def test_it_rejects_other_ranks():
    with pytest.raises(ValueError, match="2-D or 3-D"):
        F.dropout1d(framework.ones([2, 3, 4, 5]))
