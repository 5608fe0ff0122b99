"""PixelShuffle, PixelUnshuffle, ChannelShuffle layers: they run their functionals (tested in
test_functional_rearrange.py), match real Paddle in both layouts with equal reprs, check their
arguments, and carry gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.testing import check_backward

X = np.random.default_rng(0).standard_normal((2, 8, 4, 8)).astype(np.float32)
CASES = [
    ("PixelShuffle", 2, "NCHW"),
    ("PixelShuffle", 2, "NHWC"),
    ("PixelUnshuffle", 2, "NCHW"),
    ("PixelUnshuffle", 2, "NHWC"),
    ("ChannelShuffle", 4, "NCHW"),
    ("ChannelShuffle", 2, "NHWC"),
]


@pytest.mark.parametrize("name, factor, fmt", CASES)
def test_it_matches_paddle(name, factor, fmt):
    paddle = pytest.importorskip("paddle")
    ours = getattr(nn, name)(factor, fmt)
    theirs = getattr(paddle.nn, name)(factor, fmt)
    got, want = ours(framework.to_tensor(X)), theirs(paddle.to_tensor(X))
    assert got.shape == list(want.shape)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name, factor, fmt", CASES[::2])
def test_it_has_gradients(name, factor, fmt):
    check_backward(getattr(nn, name)(factor, fmt), [X[:1, :, :2, :4].astype(np.float64)])


def test_a_name_shows_in_the_repr():
    assert repr(nn.PixelShuffle(3, "NHWC", name="up")) == (
        "PixelShuffle(upscale_factor=3, data_format=NHWC, name=up)"
    )


def test_it_rejects_bad_arguments():
    with pytest.raises(TypeError, match="upscale_factor must be an int"):
        nn.PixelShuffle(2.0)
    with pytest.raises(ValueError, match="downscale_factor must be positive"):
        nn.PixelUnshuffle(0)
    with pytest.raises(ValueError, match="groups must be positive"):
        nn.ChannelShuffle(-1)
    with pytest.raises(ValueError, match="data_format"):
        nn.ChannelShuffle(2, "NCL")
