"""paddle.signal.frame and overlap_add: Paddle parity on both axes, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.signal as S
from framework.testing import check_backward, check_double_backward


@pytest.mark.parametrize("shape,axis", [((8,), -1), ((2, 3, 9), -1), ((9,), 0), ((9, 2, 3), 0)])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_frame_and_overlap_add_match_paddle(shape, axis, dtype):
    paddle = pytest.importorskip("paddle")
    x = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    ours = S.frame(framework.to_tensor(x), 4, 2, axis=axis)
    theirs = paddle.signal.frame(paddle.to_tensor(x), 4, 2, axis=axis)
    assert ours.numpy().dtype == theirs.numpy().dtype
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    added = S.overlap_add(ours, 2, axis=axis)
    added_paddle = paddle.signal.overlap_add(theirs, 2, axis=axis)
    np.testing.assert_array_equal(added.numpy(), added_paddle.numpy())


def test_overlap_add_sums_the_overlaps():
    out = S.overlap_add(framework.ones([4, 3]), hop_length=2)
    assert out.numpy().tolist() == [1, 1, 2, 2, 2, 2, 1, 1]


def test_gradients_match_central_differences():
    x = np.random.default_rng(0).standard_normal((2, 9))
    check_backward(lambda t: S.frame(t, 4, 3), [x])
    check_double_backward(lambda t: S.frame(t * t, 4, 2, axis=0), [x.T.copy()])
    frames = np.random.default_rng(1).standard_normal((2, 4, 3))
    check_backward(lambda t: S.overlap_add(t, 2), [frames])
    check_double_backward(lambda t: S.overlap_add(t * t, 3), [frames])


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda m: m.signal.frame(m.ones([8]), 4, 2, axis=1), "Unexpected axis: 1"),
        (lambda m: m.signal.frame(m.ones([8]), 0, 2), "Unexpected frame_length: 0"),
        (lambda m: m.signal.frame(m.ones([8]), 4, 0), "Unexpected hop_length: 0"),
        (lambda m: m.signal.frame(m.ones([8]), 9, 2), r"\(9\) > \(8\)"),
        (lambda m: m.signal.overlap_add(m.ones([4, 3]), 2, axis=2), "Unexpected axis: 2"),
        (lambda m: m.signal.overlap_add(m.ones([4, 3]), -1), "Unexpected hop_length: -1"),
    ],
)
def test_bad_arguments_raise_paddles_errors(call, message):
    paddle = pytest.importorskip("paddle")
    with pytest.raises(ValueError, match=message):
        call(paddle)
    with pytest.raises(ValueError, match=message):
        call(framework)
