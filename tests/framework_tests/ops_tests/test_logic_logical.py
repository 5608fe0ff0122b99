"""Logical and bitwise ops, and the `&`, `|`, `^`, `~` operators."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import framework

BINARY = [
    ("logical_and", np.logical_and),
    ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
]
BITWISE = [
    ("bitwise_and", np.bitwise_and, operator.and_),
    ("bitwise_or", np.bitwise_or, operator.or_),
    ("bitwise_xor", np.bitwise_xor, operator.xor),
]


@pytest.mark.parametrize(("name", "reference"), BINARY)
@pytest.mark.parametrize("dtype", ["bool", "int64", "float32"])
@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((0,), (1,))])
def test_logical_ops_give_bool_for_any_dtype(name, reference, dtype, shapes):
    rng = np.random.default_rng(0)
    x, y = (rng.integers(0, 2, s).astype(dtype) for s in shapes)
    out = getattr(framework, name)(framework.to_tensor(x), framework.to_tensor(y))
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.numpy(), reference(x, y))
    method = getattr(framework.to_tensor(x), name)(framework.to_tensor(y))
    np.testing.assert_array_equal(method.numpy(), reference(x, y))


def test_logical_not():
    out = framework.logical_not(framework.to_tensor([0.0, 2.0]))
    assert out.numpy().tolist() == [True, False]


@pytest.mark.parametrize(("name", "reference", "python_op"), BITWISE)
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64"])
def test_bitwise_ops_and_operators(name, reference, python_op, dtype):
    x = np.array([5, 3, 0, 1]).astype(dtype)
    y = np.array([3, 1, 1, 1]).astype(dtype)
    tx, ty = framework.to_tensor(x), framework.to_tensor(y)
    for out in (getattr(framework, name)(tx, ty), python_op(tx, ty)):
        assert out.dtype == x.dtype
        np.testing.assert_array_equal(out.numpy(), reference(x, y))


def test_bitwise_not_and_invert_operator():
    assert (~framework.to_tensor([True, False])).numpy().tolist() == [False, True]
    assert framework.bitwise_not(framework.to_tensor([5])).numpy().tolist() == [-6]


def test_operators_with_a_scalar_on_the_left():
    x = framework.to_tensor([True, False])
    assert (True & x).numpy().tolist() == [True, False]
    assert (False | x).numpy().tolist() == [True, False]
    assert (True ^ x).numpy().tolist() == [False, True]


def test_bitwise_ops_refuse_floats():
    with pytest.raises(TypeError, match="bool or integer"):
        framework.bitwise_and(framework.to_tensor([1.0]), framework.to_tensor([1.0]))


def test_out_receives_the_result():
    out = framework.zeros([2], dtype="bool")
    x, y = framework.to_tensor([True, False]), framework.to_tensor([True, True])
    assert framework.logical_and(x, y, out=out) is out
    assert out.numpy().tolist() == [True, False]
    ints = framework.zeros([2], dtype="int64")
    framework.bitwise_or(framework.to_tensor([1, 2]), framework.to_tensor([4, 4]), ints)
    assert ints.numpy().tolist() == [5, 6]
