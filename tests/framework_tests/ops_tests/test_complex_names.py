"""Paddle's complex names polar, view_as_complex, view_as_real, cfloat and cdouble: values and
dtypes against NumPy and Paddle, and polar's gradient by central differences."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward

RNG = np.random.default_rng(7)


def _paddle():
    return pytest.importorskip("paddle")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polar_matches_numpy_and_paddle_dtype(dtype):
    paddle = _paddle()
    r, theta = RNG.uniform(0.1, 2, (2, 3)).astype(dtype), RNG.normal(size=(3,)).astype(dtype)
    ours = framework.polar(framework.to_tensor(r), framework.to_tensor(theta))
    theirs = paddle.polar(paddle.to_tensor(r), paddle.to_tensor(np.broadcast_to(theta, (2, 3))))
    assert str(theirs.dtype) == f"paddle.{ours.dtype}"
    tol = 1e-6 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ours.numpy(), r * np.exp(1j * theta), rtol=tol, atol=tol)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=tol, atol=tol)


def test_polar_gradient_matches_central_differences():
    check_backward(framework.polar, [RNG.uniform(0.1, 2, (4,)), RNG.normal(size=(4,))])


def test_view_as_complex_and_view_as_real_round_trip_like_paddle():
    paddle = _paddle()
    pairs = RNG.normal(size=(2, 3, 2)).astype("float32")
    ours = framework.view_as_complex(framework.to_tensor(pairs))
    theirs = paddle.view_as_complex(paddle.to_tensor(pairs))
    assert str(theirs.dtype) == f"paddle.{ours.dtype}" == "paddle.complex64"
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    back = framework.view_as_real(ours)
    assert back.dtype == framework.float32
    np.testing.assert_array_equal(back.numpy(), pairs)


def test_cfloat_and_cdouble_name_paddles_complex_dtypes():
    paddle = _paddle()
    assert framework.cfloat == framework.complex64 and str(paddle.cfloat) == "paddle.complex64"
    assert framework.cdouble == framework.complex128 and str(paddle.cdouble) == "paddle.complex128"
    assert framework.zeros([2], dtype=framework.cdouble).dtype == framework.complex128
