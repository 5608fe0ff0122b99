"""`nn.initializer.Bilinear`: Paddle 3.3's upsampling kernel for transposed convolutions."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework import nn
from framework.regularizer import L2Decay

# paddle 3.3.1, nn.Conv2DTranspose(2, 2, kernel_size=4, ...) with Bilinear(): weight[0, 0].
PADDLE_K4 = [
    [0.0625, 0.28125, 0.375, 0.15625],
    [0.1875, 0.65625, 0.75, 0.21875],
    [0.1875, 0.46875, 0.375, 0.09375],
    [0.0625, 0.09375, 0.0, -0.03125],
]
# ... and nn.Conv2DTranspose(3, 1, kernel_size=3): weight[0, 0].
PADDLE_K3 = [[0.0625, 0.3125, 0.4375], [0.1875, 0.6875, 0.6875], [0.1875, 0.4375, 0.3125]]


def _reference(shape: tuple[int, ...]) -> np.ndarray:
    """Paddle's loop, element by element in Python floats."""
    size = shape[3]
    f = math.ceil(size / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    weight = np.zeros(math.prod(shape), dtype=np.float32)
    for i in range(weight.size):
        x = i % size
        y = (i / size) % size
        weight[i] = (1 - abs(x / f - c)) * (1 - abs(y / f - c))
    return weight.reshape(shape)


def _draw(shape, dtype="float32"):
    return framework.create_parameter(
        list(shape), dtype, default_initializer=nn.initializer.Bilinear()
    ).numpy()


@pytest.mark.parametrize("shape", [(2, 2, 4, 4), (3, 1, 3, 3), (1, 1, 1, 1), (4, 3, 5, 5)])
def test_it_matches_paddles_loop_bit_for_bit(shape):
    np.testing.assert_array_equal(_draw(shape), _reference(shape))


def test_it_gives_paddles_own_weights():
    weight = _draw((2, 2, 4, 4))
    for out_channel in range(2):
        for in_channel in range(2):
            np.testing.assert_array_equal(weight[out_channel, in_channel], PADDLE_K4)
    np.testing.assert_array_equal(_draw((3, 1, 3, 3))[2, 0], PADDLE_K3)


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_other_float_dtypes_are_cast_from_float32(dtype):
    weight = _draw((1, 1, 4, 4), dtype)
    assert weight.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(weight, _reference((1, 1, 4, 4)).astype(dtype))


@pytest.mark.parametrize(
    ("shape", "dtype", "error", "match"),
    [
        ((4, 4, 4), "float32", ValueError, "length of shape must be 4"),
        ((1, 1, 3, 4), "float32", ValueError, r"shape\[2\] must be equal to shape\[3\]"),
        ((1, 1, 3, 3), "int64", TypeError, "Unsupported dtype"),
        ((1025, 1024, 1, 1), "float32", ValueError, "too big"),
    ],
)
def test_it_rejects_what_paddle_rejects(shape, dtype, error, match):
    with pytest.raises(error, match=match):
        nn.initializer.Bilinear()(framework.zeros(list(shape), dtype=dtype))


def test_paddles_documented_upsampling_example_runs():
    factor, channels = 2, 2
    attr = framework.ParamAttr(
        learning_rate=0.0, regularizer=L2Decay(0.0), initializer=nn.initializer.Bilinear()
    )
    conv_up = nn.Conv2DTranspose(
        3,
        out_channels=channels,
        kernel_size=2 * factor - factor % 2,
        padding=int(math.ceil((factor - 1) / 2.0)),
        stride=factor,
        weight_attr=attr,
        bias_attr=False,
    )
    out = conv_up(framework.rand([8, 3, 32, 32], dtype="float32"))
    assert out.shape == [8, channels, 64, 64]
    np.testing.assert_array_equal(conv_up.weight.numpy(), _reference((3, channels, 4, 4)))
