"""temporal_shift: NumPy reference, real Paddle parity (NCHW and NHWC, values and dtypes), and
float64 gradient checks."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((6, 8, 2, 3))  # 2 clips of 3 frames


def reference_temporal_shift(x, seg_num, shift_ratio):
    n, c, h, w = x.shape
    clips = x.reshape(n // seg_num, seg_num, c, h, w)
    out = np.zeros_like(clips)
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    out[:, 1:, :c1] = clips[:, :-1, :c1]
    out[:, :-1, c1:c2] = clips[:, 1:, c1:c2]
    out[:, :, c2:] = clips[:, :, c2:]
    return out.reshape(x.shape)


@pytest.mark.parametrize("shift_ratio", [0.25, 0.125, 0.5, 0.1])
def test_temporal_shift_matches_numpy(shift_ratio):
    out = F.temporal_shift(tensor(X), 3, shift_ratio)
    np.testing.assert_array_equal(out.numpy(), reference_temporal_shift(X, 3, shift_ratio))


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("shift_ratio", [0.25, 0.4])
def test_temporal_shift_matches_paddle(data_format, shift_ratio):
    paddle = pytest.importorskip("paddle")
    x = X.astype(np.float32)
    if data_format == "NHWC":
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    ours = F.temporal_shift(tensor(x), 3, shift_ratio, data_format=data_format).numpy()
    theirs = paddle.nn.functional.temporal_shift(
        paddle.to_tensor(x), 3, shift_ratio, data_format=data_format
    ).numpy()
    assert ours.dtype == theirs.dtype == np.float32
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_temporal_shift_gradients_in_float64(data_format):
    def fn(x):
        return F.temporal_shift(x, 3, 0.25, data_format=data_format)

    check_backward(fn, [X[:, :4]])
    check_double_backward(fn, [X[:, :4]])


def test_temporal_shift_rejects_bad_arguments():
    with pytest.raises(ValueError, match="multiple of seg_num"):
        F.temporal_shift(tensor(X), 4)
    with pytest.raises(ValueError, match="data_format"):
        F.temporal_shift(tensor(X), 3, data_format="NCL")
