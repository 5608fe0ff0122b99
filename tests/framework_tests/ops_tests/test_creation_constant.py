"""Filled tensors and ranges: zeros ones full empty *_like arange linspace eye."""

from __future__ import annotations

import numpy as np
import pytest

import framework


@pytest.mark.parametrize(("name", "value"), [("zeros", 0.0), ("ones", 1.0)])
@pytest.mark.parametrize("shape", [[2, 3], (4,), 3, [], [0, 2]])
@pytest.mark.parametrize("dtype", [None, "float64", "int32", "bool"])
def test_zeros_and_ones(name, value, shape, dtype):
    out = getattr(framework, name)(shape, dtype=dtype)
    expected_shape = [shape] if isinstance(shape, int) else list(shape)
    assert out.shape == expected_shape
    assert out.dtype == np.dtype(dtype or "float32")
    assert out.stop_gradient
    np.testing.assert_array_equal(out.numpy(), np.full(expected_shape, value))


def test_shape_may_hold_tensors_or_be_a_tensor():
    assert framework.zeros([framework.to_tensor(2), 3]).shape == [2, 3]
    assert framework.ones(framework.to_tensor([3, 1])).shape == [3, 1]
    with pytest.raises(ValueError, match="negative"):
        framework.zeros([-1, 2])


@pytest.mark.parametrize(
    ("value", "dtype", "expected"),
    [(1, None, "float32"), (1.5, None, "float32"), (True, None, "bool"), (7, "int64", "int64")],
)
def test_full_dtype_rules(value, dtype, expected):
    out = framework.full([2, 2], value, dtype=dtype)
    assert out.dtype == np.dtype(expected)
    np.testing.assert_array_equal(out.numpy(), np.full((2, 2), value, dtype=expected))
    assert framework.full([1], framework.to_tensor(2.5)).numpy().tolist() == [2.5]


def test_empty_has_the_shape_and_dtype():
    out = framework.empty([2, 3], dtype="int64")
    assert out.shape == [2, 3] and out.dtype == np.int64
    assert framework.empty([1]).dtype == np.float32


def test_default_dtype_is_respected():
    framework.set_default_dtype("float64")
    try:
        assert framework.zeros([1]).dtype == np.float64
        assert framework.full([1], 2).dtype == np.float64
        assert framework.arange(0.0, 1.0, 0.5).dtype == np.float64
    finally:
        framework.set_default_dtype("float32")


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
def test_like_ops_keep_shape_and_dtype_unless_told(name):
    x = framework.to_tensor([[1, 2, 3]], dtype="int32", stop_gradient=False)
    out = getattr(framework, name)(x)
    assert out.shape == [1, 3] and out.dtype == np.int32 and out.stop_gradient
    assert getattr(framework, name)(x, dtype="float64").dtype == np.float64


def test_zeros_like_and_ones_like_values():
    x = framework.to_tensor([1.5, 2.5])
    assert framework.zeros_like(x).numpy().tolist() == [0.0, 0.0]
    assert framework.ones_like(x).numpy().tolist() == [1.0, 1.0]


def test_full_like():
    x = framework.to_tensor([1, 2])
    out = framework.full_like(x, 2.5)
    assert out.dtype == np.int64 and out.numpy().tolist() == [2, 2]
    assert framework.full_like(x, 2.5, dtype="float32").numpy().tolist() == [2.5, 2.5]


@pytest.mark.parametrize(
    ("args", "dtype", "expected"),
    [
        ((5,), None, np.arange(5)),
        ((2, 8, 3), None, np.arange(2, 8, 3)),
        ((0, 1, 0.25), None, np.arange(0, 1, 0.25, dtype=np.float32)),
        ((0.0, 3), None, np.arange(0.0, 3, dtype=np.float32)),
        ((5, 0, -2), None, np.arange(5, 0, -2)),
        ((3,), "float64", np.arange(3.0)),
        ((0,), None, np.arange(0)),
    ],
)
def test_arange(args, dtype, expected):
    out = framework.arange(*args, dtype=dtype)
    assert out.dtype == (np.dtype(dtype) if dtype else expected.dtype)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_arange_accepts_tensors_and_rejects_a_zero_step():
    out = framework.arange(framework.to_tensor(1), framework.to_tensor(4))
    assert out.numpy().tolist() == [1, 2, 3] and out.dtype == np.int64
    with pytest.raises(ValueError, match="step"):
        framework.arange(0, 3, 0)


@pytest.mark.parametrize(
    ("args", "dtype"),
    [((0, 1, 5), None), ((-1, 1, 1), None), ((0, 10, 5), "int64"), ((2, 3, 0), None)],
)
def test_linspace(args, dtype):
    out = framework.linspace(*args, dtype=dtype)
    expected = np.linspace(*args).astype(dtype or "float32")
    assert out.dtype == expected.dtype
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize(("rows", "columns"), [(3, None), (2, 4), (4, 2), (0, None)])
def test_eye(rows, columns):
    out = framework.eye(rows, columns)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), np.eye(rows, columns))
    assert framework.eye(2, dtype="int64").dtype == np.int64


def test_assign_copies_a_tensor_and_keeps_it_in_the_graph():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    y = framework.assign(x)
    assert y._data is not x._data
    (y * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_assign_from_python_values_and_arrays():
    assert framework.assign(3.0).shape == [1]
    assert framework.assign([1, 2]).dtype == np.int64
    array = np.array([1.5, 2.5])
    copy = framework.assign(array)
    array[0] = 0.0
    assert copy.numpy().tolist() == [1.5, 2.5] and copy.dtype == np.float64


def test_assign_into_an_output():
    out = framework.zeros([2])
    assert framework.assign(framework.to_tensor([5.0, 6.0], "float64"), out) is out
    assert (
        out.numpy().tolist() == [5.0, 6.0] and out.dtype == np.float64
    )  # Paddle: out takes the dtype
    framework.assign([1.0, 2.0, 3.0], out)  # another shape: out takes it, as in Paddle
    assert out.shape == [3] and out.numpy().tolist() == [1.0, 2.0, 3.0]


def test_assign_into_a_parameter_keeps_it_trainable():
    weight = framework.Parameter(np.zeros(2, dtype=np.float32))
    framework.assign(framework.to_tensor([1.0, 2.0]), weight)
    assert weight.numpy().tolist() == [1.0, 2.0] and not weight.stop_gradient and weight.is_leaf
    (weight * 2.0).sum().backward()
    assert weight.grad.numpy().tolist() == [2.0, 2.0]
