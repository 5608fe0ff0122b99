"""Complex creation: randn/rand/full with complex dtypes, dtypes and moments against Paddle's
rules (parts independent; randn's parts have variance 1/2 so that E|z|^2 = 1)."""

from __future__ import annotations

import numpy as np
import pytest

import framework

paddle = pytest.importorskip("paddle")


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_randn_complex_has_paddle_dtype_and_unit_power(dtype):
    framework.seed(0)
    z = framework.randn([40000], dtype=dtype)
    assert str(z.dtype) == str(paddle.randn([2], dtype=dtype).dtype).replace("paddle.", "")
    data = z.numpy()
    assert data.dtype == np.dtype(dtype)
    assert abs(np.mean(np.abs(data) ** 2) - 1.0) < 0.03
    assert abs(np.var(data.real) - 0.5) < 0.02 and abs(np.var(data.imag) - 0.5) < 0.02
    assert abs(np.corrcoef(data.real, data.imag)[0, 1]) < 0.03


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_rand_complex_draws_each_part_uniform_in_unit_interval(dtype):
    framework.seed(1)
    data = framework.rand([20000], dtype=dtype).numpy()
    assert data.dtype == np.dtype(dtype)
    for part in (data.real, data.imag):
        assert part.min() >= 0.0 and part.max() < 1.0
        assert abs(part.mean() - 0.5) < 0.02
    assert str(paddle.rand([2], dtype=dtype).dtype) == f"paddle.{dtype}"


def test_real_randn_and_rand_keep_float32():
    assert framework.randn([2]).dtype == framework.float32
    assert framework.rand([2]).dtype == framework.float32


@pytest.mark.parametrize("value", [1 + 1j, -0.5j])
def test_full_with_complex_value_matches_paddle_dtype_and_values(value):
    ours = framework.full([2, 3], value)
    theirs = paddle.full([2, 3], value)
    assert str(theirs.dtype) == f"paddle.{ours.dtype}"
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
