"""F.feature_alpha_dropout and nn.FeatureAlphaDropout: whole channels dropped to SELU's
saturation value then Paddle's affine map (checked per channel against NumPy and against the
values real Paddle produces), SELU statistics kept, identity in eval, p = 0 and p = 1 as Paddle,
gradients of two orders for a fixed draw."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

ALPHA_P = -1.6732632423543772 * 1.0507009873554805


def _affine(p: float) -> tuple[float, float]:
    a = ((1 - p) * (1 + p * ALPHA_P**2)) ** -0.5
    return a, -a * ALPHA_P * p


def _assert_channelwise_alpha_dropout(x: np.ndarray, y: np.ndarray, p: float) -> np.ndarray:
    """Each [n, c] channel of y is a * x + b (kept) or a * alpha' + b (dropped); returns the
    kept flags."""
    a, b = _affine(p)
    flat_x, flat_y = x.reshape(*x.shape[:2], -1), y.reshape(*y.shape[:2], -1)
    kept = np.isclose(flat_y, a * flat_x + b, rtol=1e-5, atol=1e-6).all(-1)
    dropped = np.isclose(flat_y, a * ALPHA_P + b, rtol=1e-5, atol=1e-6).all(-1)
    assert (kept | dropped).all()
    return kept


@pytest.mark.parametrize("shape", [(4, 6), (3, 5, 4), (2, 6, 3, 3), (2, 3, 2, 2, 2)], ids=str)
def test_it_drops_whole_channels_with_paddles_affine_map(shape):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    y = F.feature_alpha_dropout(framework.to_tensor(x), p=0.4)
    assert y.shape == list(shape) and y.dtype == framework.float32
    _assert_channelwise_alpha_dropout(x, y.numpy(), 0.4)


def test_it_keeps_a_standard_normal_input_standard():
    x = framework.randn([4000, 3, 2])
    y = F.feature_alpha_dropout(x, p=0.3).numpy()
    assert abs(y.mean()) < 0.05 and abs(y.std() - 1.0) < 0.05
    kept = _assert_channelwise_alpha_dropout(x.numpy(), y, 0.3)
    assert abs(kept.mean() - 0.7) < 0.03


@pytest.mark.parametrize("shape", [(64, 3), (8, 4, 3, 3)], ids=str)
def test_paddle_gives_the_same_channel_values(shape):
    paddle = pytest.importorskip("paddle")
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    theirs = paddle.nn.functional.feature_alpha_dropout(paddle.to_tensor(x), p=0.4)
    assert str(theirs.dtype).split(".")[-1] == "float32"
    _assert_channelwise_alpha_dropout(x, theirs.numpy(), 0.4)  # the same map as ours


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_the_end_probabilities_match_paddle(p):
    paddle = pytest.importorskip("paddle")
    x = np.random.default_rng(2).standard_normal((3, 4, 2)).astype(np.float32)
    ours = F.feature_alpha_dropout(framework.to_tensor(x), p=p)
    theirs = paddle.nn.functional.feature_alpha_dropout(paddle.to_tensor(x), p=p)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-7)


def test_it_is_the_identity_in_eval_and_the_layer_follows_the_mode():
    x = framework.randn([2, 3, 4])
    assert F.feature_alpha_dropout(x, 0.5, training=False) is x
    layer = nn.FeatureAlphaDropout(0.5)
    layer.eval()
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    layer.train()
    _assert_channelwise_alpha_dropout(x.numpy(), layer(x).numpy(), 0.5)


def test_the_layer_repr_matches_paddle():
    paddle = pytest.importorskip("paddle")
    assert repr(nn.FeatureAlphaDropout(0.2)) == repr(paddle.nn.FeatureAlphaDropout(0.2))
    assert repr(nn.FeatureAlphaDropout(0.2, "d")) == repr(paddle.nn.FeatureAlphaDropout(0.2, "d"))


def test_it_has_gradients_for_a_fixed_draw():
    def fixed(t):
        framework.seed(7)  # the same channel mask on every call of the numerical check
        return F.feature_alpha_dropout(t, p=0.5)

    x = np.random.default_rng(3).standard_normal((3, 4, 2))
    check_backward(fixed, [x])
    check_double_backward(lambda t: fixed(t * t), [x])


def test_it_rejects_bad_arguments():
    with pytest.raises(ValueError, match="at least 2-D"):
        F.feature_alpha_dropout(framework.ones([4]), 0.5)
    with pytest.raises(ValueError, match="probability"):
        F.feature_alpha_dropout(framework.ones([2, 4]), 1.5)
