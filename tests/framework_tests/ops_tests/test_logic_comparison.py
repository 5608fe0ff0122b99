"""Comparisons: bool outputs with broadcasting, no gradient, operator forms, *_all and *close."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import framework

COMPARISONS = [
    ("equal", operator.eq, np.equal),
    ("not_equal", operator.ne, np.not_equal),
    ("less_than", operator.lt, np.less),
    ("less_equal", operator.le, np.less_equal),
    ("greater_than", operator.gt, np.greater),
    ("greater_equal", operator.ge, np.greater_equal),
]


@pytest.mark.parametrize(("name", "python_op", "reference"), COMPARISONS, ids=lambda v: str(v))
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((0, 3), (1,)), ((), ())])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_comparison_matches_numpy(name, python_op, reference, shapes, dtype):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 3, shapes[0]).astype(dtype)
    y = rng.integers(0, 3, shapes[1]).astype(dtype)
    tx, ty = framework.to_tensor(x, stop_gradient=False), framework.to_tensor(y)
    for out in (getattr(framework, name)(tx, ty), getattr(tx, name)(ty), python_op(tx, ty)):
        assert out.dtype == np.bool_ and out.stop_gradient
        np.testing.assert_array_equal(out.numpy(), reference(x, y))


def test_comparison_with_python_scalars_on_either_side():
    x = framework.to_tensor([1, 2, 3])
    assert (x > 1).numpy().tolist() == [False, True, True]
    assert (2 <= x).numpy().tolist() == [False, True, True]
    assert (x == 2.5).numpy().tolist() == [False, False, False]
    assert (framework.to_tensor([1.5]) == 1.5).numpy().tolist() == [True]


def test_equality_with_unrelated_objects_is_false_not_an_error():
    x = framework.to_tensor([1.0])
    assert (x == None) is False  # noqa: E711 - the operator is what is tested
    assert (x != "a") is True
    assert x in [x]
    assert len({x, x}) == 1  # still hashable, by identity


def test_equal_all():
    x = framework.to_tensor([1, 2])
    assert framework.equal_all(x, framework.to_tensor([1, 2])).item() is True
    assert framework.equal_all(x, framework.to_tensor([1, 3])).item() is False
    assert framework.equal_all(x, framework.to_tensor([[1, 2]])).item() is False
    assert x.equal_all(x).shape == []


@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_and_allclose_match_numpy(equal_nan):
    x = np.array([1.0, 1.0 + 1e-7, 2.0, np.nan])
    y = np.array([1.0, 1.0, 2.1, np.nan])
    tx, ty = framework.to_tensor(x, "float64"), framework.to_tensor(y, "float64")
    got = framework.isclose(tx, ty, rtol=1e-5, atol=1e-8, equal_nan=equal_nan)
    np.testing.assert_array_equal(got.numpy(), np.isclose(x, y, 1e-5, 1e-8, equal_nan))
    assert framework.allclose(tx, ty, equal_nan=equal_nan).item() is False
    head_x, head_y = framework.to_tensor(x[:2], "float64"), framework.to_tensor(y[:2], "float64")
    assert framework.allclose(head_x, head_y).item() is True
    assert tx.isclose(tx, equal_nan=True).numpy().all()
