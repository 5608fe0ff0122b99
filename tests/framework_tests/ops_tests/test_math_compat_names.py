"""Paddle 3's PyTorch-style spellings: sub (alpha), true_divide, positive, and the plain
renames in `framework/__init__.py` (div, mul, negative, clamp, cat, concatenate, reverse,
take_along_dim, eq/ne/gt/ge/lt/le, greater, less, ger): NumPy reference, gradients, PaddlePaddle
parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


@pytest.mark.parametrize("alpha", [1, 2, -0.5])
def test_sub_matches_numpy_and_has_gradients(alpha):
    x, y = _rand((2, 3)), _rand((3,), 1)
    got = framework.sub(_t(x), _t(y), alpha=alpha)
    np.testing.assert_allclose(got.numpy(), x - alpha * y)
    assert got.dtype == np.float64
    check_backward(lambda a, b: framework.sub(a, b, alpha=alpha), [x, y])
    check_double_backward(lambda a, b: framework.sub(a * a, b * b, alpha=alpha), [x, y])
    ints = framework.sub(_t([5, 3]), _t([1, 2]), alpha=2)
    assert ints.dtype == np.int64 and ints.numpy().tolist() == [3, -1]


def test_true_divide_and_positive():
    got = framework.true_divide(_t([5, 3]), _t([2, 2]))
    assert got.dtype == np.float32 and got.numpy().tolist() == [2.5, 1.5]
    x, y = _rand((2, 3)), _rand((2, 3), 1) + 3.0
    np.testing.assert_allclose(framework.true_divide(_t(x), _t(y)).numpy(), x / y)
    check_backward(framework.true_divide, [x, y])
    check_double_backward(framework.true_divide, [x, y])
    ints = _t([-1, 2], "int32")
    assert framework.positive(ints).dtype == np.int32
    assert framework.positive(ints).numpy().tolist() == [-1, 2]
    check_backward(framework.positive, [x])


RENAMES = {
    "div": "divide",
    "mul": "multiply",
    "negative": "neg",
    "clamp": "clip",
    "cat": "concat",
    "concatenate": "concat",
    "reverse": "flip",
    "take_along_dim": "take_along_axis",
    "eq": "equal",
    "ne": "not_equal",
    "gt": "greater_than",
    "greater": "greater_than",
    "ge": "greater_equal",
    "lt": "less_than",
    "less": "less_than",
    "le": "less_equal",
    "ger": "outer",
}


@pytest.mark.parametrize("alias", sorted(RENAMES))
def test_renames_are_the_ops_they_name(alias):
    assert getattr(framework, alias) is getattr(framework, RENAMES[alias])


A = np.array([1.0, 2.0, 3.0], np.float32)
B = np.array([1.0, 3.0, 2.0], np.float32)
PARITY = {
    "sub_alpha": lambda m: m.sub(m.to_tensor(A), m.to_tensor(B), alpha=2),
    "sub_ints": lambda m: m.sub(m.to_tensor([5, 3]), m.to_tensor([1, 2]), alpha=2),
    "true_divide_ints": lambda m: m.true_divide(m.to_tensor([5, 3]), m.to_tensor([2, 2])),
    "positive": lambda m: m.positive(m.to_tensor([5, -3])),
    "div": lambda m: m.div(m.to_tensor(A), m.to_tensor(B)),
    "mul_ints": lambda m: m.mul(m.to_tensor([5, 3]), m.to_tensor([2, 2])),
    "negative": lambda m: m.negative(m.to_tensor([5, -3])),
    "clamp": lambda m: m.clamp(m.to_tensor([5.0, -3.0, 0.5]), -1.0, 1.0),
    "cat": lambda m: m.cat([m.to_tensor(X), m.to_tensor(X)], axis=1),
    "concatenate": lambda m: m.concatenate([m.to_tensor([5]), m.to_tensor([3])]),
    "reverse": lambda m: m.reverse(m.to_tensor(X), [0, 2]),
    "take_along_dim": lambda m: m.take_along_dim(m.to_tensor([[5, 3]]), m.to_tensor([[1]]), 1),
    "eq": lambda m: m.eq(m.to_tensor(A), m.to_tensor(B)),
    "ne": lambda m: m.ne(m.to_tensor(A), m.to_tensor(B)),
    "gt": lambda m: m.gt(m.to_tensor(A), m.to_tensor(B)),
    "ge": lambda m: m.ge(m.to_tensor(A), m.to_tensor(B)),
    "lt": lambda m: m.lt(m.to_tensor(A), m.to_tensor(B)),
    "le": lambda m: m.le(m.to_tensor(A), m.to_tensor(B)),
    "greater": lambda m: m.greater(m.to_tensor(A), m.to_tensor(B)),
    "less": lambda m: m.less(m.to_tensor(A), m.to_tensor(B)),
    "ger": lambda m: m.ger(m.to_tensor(A), m.to_tensor(B[:2])),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="bool"):
        framework.positive(_t([True]))
    with pytest.raises(TypeError, match="must be a Tensor"):
        framework.positive([1.0])
    with pytest.raises(TypeError, match="Tensor operand"):
        framework.sub([1.0], [2.0])
