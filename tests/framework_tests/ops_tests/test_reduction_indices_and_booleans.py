"""Reductions without a gradient: argmax argmin all any count_nonzero."""

from __future__ import annotations

import numpy as np
import pytest

import framework


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_arg_extrema_match_numpy(name, axis, keepdim, dtype):
    x = np.random.default_rng(0).permutation(12).reshape(3, 4).astype(dtype)
    out = getattr(framework, name)(framework.to_tensor(x), axis=axis, keepdim=keepdim)
    expected = getattr(np, name)(x, axis=axis, keepdims=keepdim)
    assert out.dtype == np.int64 and out.stop_gradient
    np.testing.assert_array_equal(out.numpy(), expected)


def test_argmax_takes_a_dtype_and_picks_the_first_tie():
    x = framework.to_tensor([[1.0, 3.0, 3.0]], stop_gradient=False)
    out = framework.argmax(x, axis=1, dtype="int32")
    assert out.dtype == np.int32 and out.numpy().tolist() == [1]
    assert x.argmin().item() == 0
    assert framework.argmax(framework.to_tensor(2.0)).item() == 0


def test_arg_extrema_of_an_empty_tensor_are_a_clear_error():
    with pytest.raises(ValueError, match="empty"):
        framework.argmax(framework.zeros([0]))


@pytest.mark.parametrize("name", ["all", "any"])
@pytest.mark.parametrize("axis", [None, 0, [0, 1], -1])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", ["bool", "float32"])
def test_all_and_any_match_numpy(name, axis, keepdim, dtype):
    x = np.array([[True, False, True], [True, True, True]]).astype(dtype)
    out = getattr(framework, name)(framework.to_tensor(x), axis=axis, keepdim=keepdim)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    expected = getattr(np, name)(x, axis=np_axis, keepdims=keepdim)
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.numpy(), expected)


def test_all_and_any_of_empty_tensors():
    assert framework.all(framework.zeros([0], dtype="bool")).item() is True
    assert framework.any(framework.zeros([0], dtype="bool")).item() is False


@pytest.mark.parametrize("axis", [None, 0, 1, [0, 1]])
@pytest.mark.parametrize("keepdim", [False, True])
def test_count_nonzero(axis, keepdim):
    x = np.array([[0, 1, 2], [0, 0, 3]])
    out = framework.count_nonzero(framework.to_tensor(x), axis=axis, keepdim=keepdim)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    expected = np.count_nonzero(x, axis=np_axis, keepdims=keepdim)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out.numpy(), expected)


def test_axis_out_of_range_is_a_clear_error():
    with pytest.raises(ValueError, match="out of range"):
        framework.sum(framework.ones([2, 3]), axis=2)
    with pytest.raises(ValueError, match="out of range"):
        framework.any(framework.ones([2, 3]), axis=[-3])


def test_axis_may_be_a_tensor():
    x = framework.ones([2, 3])
    assert framework.sum(x, axis=framework.to_tensor([1])).numpy().tolist() == [3.0, 3.0]
    assert x.all(axis=framework.to_tensor(0)).shape == [3]
