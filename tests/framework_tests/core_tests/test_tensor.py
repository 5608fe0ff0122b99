"""Tensor construction, dtypes, metadata, conversion and Parameter."""

from __future__ import annotations

import numpy as np
import pytest

import framework


@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        (1.5, "float32"),
        ([1.0, 2.0], "float32"),
        (3, "int64"),
        ([1, 2], "int64"),
        (True, "bool"),
        (np.zeros(2, np.float64), "float64"),
        (np.zeros(2, np.int32), "int32"),
        (np.zeros(2, np.float16), "float16"),
    ],
)
def test_to_tensor_follows_paddles_dtype_rules(data, dtype):
    assert framework.to_tensor(data).dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64", "bool"])
def test_to_tensor_honours_an_explicit_dtype(dtype):
    t = framework.to_tensor([0, 1], dtype=dtype)
    assert t.dtype == np.dtype(dtype)
    assert t.dtype == getattr(framework, dtype)


def test_to_tensor_copies_its_input():
    array = np.zeros(3, np.float32)
    t = framework.to_tensor(array)
    array[0] = 5
    assert t.numpy()[0] == 0


def test_it_rejects_unknown_dtypes_and_strings():
    with pytest.raises(TypeError, match="unknown dtype"):
        framework.to_tensor([1.0], dtype="float128x")
    with pytest.raises(TypeError, match="cannot make a tensor"):
        framework.to_tensor(["a", "b"])


def test_metadata_and_conversions():
    t = framework.to_tensor([[1.0, 2.0, 3.0]])
    assert t.shape == [1, 3] and t.ndim == 2 and t.size == 3 and t.numel() == 3
    assert t.place == framework.CPUPlace()
    assert t.tolist() == [[1.0, 2.0, 3.0]]
    assert np.asarray(t).shape == (1, 3)
    assert framework.to_tensor([4.0]).item() == 4.0
    assert float(framework.to_tensor(2.5)) == 2.5
    assert "shape=[1, 3]" in repr(t) and "float32" in repr(t)
    with pytest.raises(ValueError, match="one element"):
        t.item()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(t)


def test_detach_shares_data_but_leaves_the_graph():
    x = framework.to_tensor([1.0], stop_gradient=False)
    d = (x * 2.0).detach()
    assert d.stop_gradient and d.grad_fn is None


def test_set_value_keeps_identity_and_checks_shape():
    p = framework.Parameter(np.zeros((2, 2), np.float32))
    p.set_value(np.ones((2, 2)))
    assert p.dtype == np.float32 and p.numpy().sum() == 4
    with pytest.raises(ValueError, match="shape"):
        p.set_value(np.ones(3))


def test_parameter_trainable_is_the_inverse_of_stop_gradient():
    p = framework.Parameter(np.zeros(2, np.float32))
    assert p.trainable and not p.stop_gradient and p.persistable
    p.trainable = False
    assert p.stop_gradient


def test_backward_defaults_to_ones_and_checks_grad_shape():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3.0).backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])
    with pytest.raises(ValueError, match="grad_tensor has shape"):
        (x * 3.0).backward(framework.to_tensor([1.0]))


def test_clear_grad_drops_or_zeroes():
    x = framework.to_tensor([1.0], stop_gradient=False)
    (x * 2.0).backward()
    x.clear_grad(set_to_zero=True)
    assert x.grad.numpy().tolist() == [0.0]
    x.clear_grad()
    assert x.grad is None


def test_numpy_operands_defer_to_tensor():
    t = framework.to_tensor([1.0, 2.0])
    result = np.array([1.0, 1.0], np.float32) + t
    assert isinstance(result, framework.Tensor)


def test_scalar_operands_keep_the_tensor_dtype():
    assert (framework.to_tensor([1.0], dtype="float32") * 2.0).dtype == np.float32
    assert (framework.to_tensor([1], dtype="int32") * 2).dtype == np.int32
    assert (framework.to_tensor([1], dtype="int64") * 0.5).dtype == np.float32
