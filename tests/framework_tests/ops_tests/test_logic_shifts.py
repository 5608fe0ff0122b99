"""bitwise_left_shift, bitwise_right_shift (arithmetic and logical), bitwise_invert and their
in-place forms: NumPy reference, shifts past the bit width, PaddlePaddle parity."""

from __future__ import annotations

import numpy as np
import pytest

import framework

X8 = np.array([-16, 5, 127, -128, 3], np.int8)
S8 = np.array([2, 1, 3, 7, 0], np.int8)
X64 = np.array([-16, 5, 1 << 40, -1, 9], np.int64)
S64 = np.array([2, 1, 63, 64, 70], np.int64)


def _t(a):
    return framework.to_tensor(np.asarray(a))


def test_left_shift_matches_numpy_and_wraps():
    got = framework.bitwise_left_shift(_t(X8), _t(S8))
    np.testing.assert_array_equal(got.numpy(), np.left_shift(X8, S8))
    assert got.dtype == np.int8


def test_right_shift_arithmetic_keeps_the_sign_and_logical_fills_zeros():
    arithmetic = framework.bitwise_right_shift(_t(X8), _t(S8))
    np.testing.assert_array_equal(arithmetic.numpy(), np.right_shift(X8, S8))
    logical = framework.bitwise_right_shift(_t(X8), _t(S8), is_arithmetic=False)
    expected = np.right_shift(X8.view(np.uint8), S8.view(np.uint8)).view(np.int8)
    np.testing.assert_array_equal(logical.numpy(), expected)


def test_shifts_past_the_bit_width():
    right = framework.bitwise_right_shift(_t(X64), _t(S64)).numpy()
    assert right[3] == -1 and right[4] == 0
    left = framework.bitwise_left_shift(_t(X64), _t(S64)).numpy()
    assert left[3] == 0 and left[4] == 0


def test_shifts_reject_floats():
    with pytest.raises(TypeError):
        framework.bitwise_left_shift(_t([1.0]), _t([1]))


def test_invert_and_inplace_forms():
    np.testing.assert_array_equal(framework.bitwise_invert(_t([True, False])).numpy(),
                                  [False, True])  # fmt: skip
    x = _t(np.array([3, 5]))
    assert framework.bitwise_left_shift_(x, _t([1, 2])) is x
    np.testing.assert_array_equal(x.numpy(), [6, 20])
    x.bitwise_right_shift_(_t([1, 1]))
    np.testing.assert_array_equal(x.numpy(), [3, 10])
    framework.bitwise_invert_(x)
    np.testing.assert_array_equal(x.numpy(), [-4, -11])


@pytest.mark.parametrize("x, s", [(X8, S8), (X64[:3], S64[:3])])
@pytest.mark.parametrize("arithmetic", [True, False])
def test_shifts_match_paddle(x, s, arithmetic):
    paddle = pytest.importorskip("paddle")
    for name in ("bitwise_left_shift", "bitwise_right_shift"):
        ours = getattr(framework, name)(_t(x), _t(s), is_arithmetic=arithmetic)
        theirs = getattr(paddle, name)(paddle.to_tensor(x), paddle.to_tensor(s), arithmetic)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
        assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
