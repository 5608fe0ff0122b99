"""dropout1d (whole channels of [N, C, L] / [C, L]) and zeropad2d: references, real Paddle
parity of shapes, values and dtypes, and gradient checks."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 3, 4))


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


@pytest.mark.parametrize("shape", [(40, 30, 5), (200, 6)])
def test_dropout1d_zeros_whole_channels_and_rescales(shape):
    framework.seed(0)
    x = np.ones(shape)
    out = F.dropout1d(tensor(x), p=0.3).numpy()
    assert set(np.unique(out)) <= {0.0, 1.0 / 0.7}
    np.testing.assert_array_equal(out.min(-1), out.max(-1))  # a channel is kept or dropped
    kept = (out[..., 0] > 0).mean()
    assert abs(kept - 0.7) < 0.06


def test_dropout1d_is_the_identity_out_of_training_and_keeps_dtype():
    paddle = pytest.importorskip("paddle")
    x = tensor(X.astype(np.float32))
    assert F.dropout1d(x, 0.5, training=False) is x
    ours = F.dropout1d(x, 0.5).numpy()
    theirs = paddle.nn.functional.dropout1d(paddle.to_tensor(X.astype(np.float32)), 0.5).numpy()
    assert ours.dtype == theirs.dtype == np.float32 and ours.shape == theirs.shape


def test_dropout1d_gradient_flows_through_the_kept_channels():
    def fn(x):
        framework.seed(5)
        return F.dropout1d(x, 0.4)

    check_backward(fn, [X])
    check_double_backward(fn, [X])


def test_dropout1d_refuses_other_ranks():
    with pytest.raises(ValueError, match="2-D or 3-D"):
        F.dropout1d(tensor(np.ones((2, 2, 2, 2))))


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("padding", [[1, 0, 2, 1], 2])
def test_zeropad2d_matches_numpy_and_paddle(padding, data_format):
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
    ours = F.zeropad2d(tensor(x), padding, data_format).numpy()
    left, right, top, bottom = [padding] * 4 if isinstance(padding, int) else padding
    # Paddle's functional form takes only the list (an int is its ZeroPad2D layer's shorthand).
    as_list = [left, right, top, bottom]
    theirs = paddle.nn.functional.zeropad2d(paddle.to_tensor(x), as_list, data_format).numpy()
    assert ours.dtype == theirs.dtype == np.float32
    np.testing.assert_array_equal(ours, theirs)
    widths = [(0, 0), (0, 0), (top, bottom), (left, right)]
    if data_format == "NHWC":
        widths = [(0, 0), (top, bottom), (left, right), (0, 0)]
    np.testing.assert_array_equal(ours, np.pad(x, widths))


def test_zeropad2d_gradients_in_float64():
    def fn(x):
        return F.zeropad2d(x, [1, 2, 0, 1])

    check_backward(fn, [X[None]])
    check_double_backward(fn, [X[None]])
    with pytest.raises(ValueError, match="4 values"):
        F.zeropad2d(tensor(X[None]), [1, 2])
