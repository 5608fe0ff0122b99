"""F.pixel_shuffle, F.pixel_unshuffle, F.channel_shuffle: NumPy reference, round trips,
gradients of two orders, PaddlePaddle parity in both layouts, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

IMG = np.arange(2 * 8 * 3 * 5, dtype=np.float32).reshape(2, 8, 3, 5) / 50.0 - 1.0
IH = np.ascontiguousarray(IMG.transpose(0, 2, 3, 1))


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _np_pixel_shuffle(x, r):
    n, c, h, w = x.shape
    y = x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3)
    return y.reshape(n, c // (r * r), h * r, w * r)


def _nhwc(fn, x, *args):
    return np.ascontiguousarray(fn(x.transpose(0, 3, 1, 2), *args).transpose(0, 2, 3, 1))


@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
def test_pixel_shuffle_round_trip_matches_numpy_and_has_gradients(fmt):
    x = _rand((2, 8, 3, 5)) if fmt == "NCHW" else _rand((2, 3, 5, 8))
    got = F.pixel_shuffle(framework.to_tensor(x), 2, fmt)
    want = _np_pixel_shuffle(x, 2) if fmt == "NCHW" else _nhwc(_np_pixel_shuffle, x, 2)
    np.testing.assert_array_equal(got.numpy(), want)
    back = F.pixel_unshuffle(got, 2, fmt)
    np.testing.assert_array_equal(back.numpy(), x)
    check_backward(lambda t: F.pixel_shuffle(t, 2, fmt), [x])
    check_double_backward(lambda t: F.pixel_unshuffle(F.pixel_shuffle(t * t, 2, fmt), 2, fmt), [x])


@pytest.mark.parametrize("fmt", ["NCHW", "NHWC"])
def test_channel_shuffle_matches_numpy_and_has_gradients(fmt):
    x = _rand((2, 6, 3, 4)) if fmt == "NCHW" else _rand((2, 3, 4, 6))
    got = F.channel_shuffle(framework.to_tensor(x), 3, fmt)
    perm = np.arange(6).reshape(3, 2).T.ravel()  # channel i * groups + g comes from g * 2 + i
    want = x[:, perm] if fmt == "NCHW" else x[..., perm]
    np.testing.assert_array_equal(got.numpy(), want)
    check_backward(lambda t: F.channel_shuffle(t, 3, fmt), [x])
    check_double_backward(lambda t: F.channel_shuffle(t * t, 3, fmt), [x])


PARITY = {
    "pixel_shuffle": lambda f, m: f.pixel_shuffle(m.to_tensor(IMG), 2),
    "pixel_shuffle_nhwc": lambda f, m: f.pixel_shuffle(m.to_tensor(IH), 2, "NHWC"),
    "pixel_unshuffle": lambda f, m: f.pixel_unshuffle(m.to_tensor(IMG[:, :, :2, :4]), 2),
    "pixel_unshuffle_nhwc": lambda f, m: f.pixel_unshuffle(
        m.to_tensor(np.ascontiguousarray(IH[:, :2, :4])), 2, "NHWC"
    ),
    "channel_shuffle": lambda f, m: f.channel_shuffle(m.to_tensor(IMG), 4),
    "channel_shuffle_nhwc": lambda f, m: f.channel_shuffle(m.to_tensor(IH), 2, "NHWC"),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours = PARITY[case](F, framework)
    theirs = PARITY[case](paddle.nn.functional, paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_bad_input_raises_clear_errors():
    x = framework.to_tensor(IMG)
    with pytest.raises(ValueError, match="data_format"):
        F.pixel_shuffle(x, 2, "NCL")
    with pytest.raises(ValueError, match="4-D"):
        F.pixel_shuffle(framework.ones([8, 3, 5]), 2)
    with pytest.raises(ValueError, match="positive int"):
        F.pixel_shuffle(x, 0)
    with pytest.raises(ValueError, match="divisible by upscale_factor"):
        F.pixel_shuffle(x, 3)
    with pytest.raises(ValueError, match="divisible by downscale_factor"):
        F.pixel_unshuffle(x, 2)
    with pytest.raises(ValueError, match="divisible by groups"):
        F.channel_shuffle(x, 3)
    with pytest.raises(ValueError, match="positive int"):
        F.channel_shuffle(x, 2.0)
