"""`paddle.tensor.fill_constant`, Paddle's older `full`: values, dtypes and shapes against
Paddle, writing into `out` (same object, dtype required to match, as Paddle requires)."""

from __future__ import annotations

import numpy as np
import pytest

import framework

CASES = [
    ([2, 3], "float32", 7),
    ([2], "int64", 7.9),
    ([3], "bool", 1),
    ((2, 2), "float16", 1.5),
    ([4], "float64", -0.25),
    ([], "int32", 3),
]


@pytest.mark.parametrize("shape, dtype, value", CASES)
def test_fill_constant_matches_paddle(shape, dtype, value):
    paddle = pytest.importorskip("paddle")
    ours = framework.tensor.fill_constant(shape, dtype, value)
    theirs = paddle.tensor.fill_constant(shape, dtype, value)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_fill_constant_takes_a_tensor_shape_and_value():
    paddle = pytest.importorskip("paddle")
    results = [
        m.tensor.fill_constant(m.to_tensor([2, 2]), "float32", m.to_tensor(3.0)).numpy()
        for m in (framework, paddle)
    ]
    np.testing.assert_array_equal(*results)


def test_fill_constant_writes_into_out_and_returns_it():
    out = framework.zeros([2], dtype="float32")
    result = framework.tensor.fill_constant([2, 3], "float32", 7.0, out=out)
    assert result is out
    assert out.shape == [2, 3]
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), 7.0, np.float32))


def test_fill_constant_refuses_an_out_of_another_dtype_as_paddle_does():
    paddle = pytest.importorskip("paddle")
    for module in (framework, paddle):
        out = module.zeros([2], dtype="float32")
        with pytest.raises(TypeError, match="Required out.dtype == dtype"):
            module.tensor.fill_constant([2], "int64", 1, out=out)
    with pytest.raises(TypeError, match="out must be a Tensor"):
        framework.tensor.fill_constant([2], "float32", 1.0, out=np.zeros(2, np.float32))
