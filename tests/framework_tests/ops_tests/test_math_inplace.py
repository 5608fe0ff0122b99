"""In-place math: add_ subtract_ multiply_ scale_ zero_ fill_ (rebinding the tensor)."""

from __future__ import annotations

import numpy as np
import pytest

import framework


def test_inplace_ops_update_the_tensor_and_return_it():
    x = framework.to_tensor([1.0, 2.0])
    assert x.add_(framework.to_tensor([1.0, 1.0])) is x
    np.testing.assert_array_equal(x.numpy(), [2.0, 3.0])
    x.subtract_(framework.to_tensor(0.5))
    x.multiply_(framework.to_tensor([2.0, 10.0]))
    np.testing.assert_array_equal(x.numpy(), [3.0, 25.0])
    x.scale_(2.0, bias=1.0)
    np.testing.assert_array_equal(x.numpy(), [7.0, 51.0])
    assert framework.subtract_(x, framework.to_tensor(1.0)) is x
    assert framework.multiply_(x, framework.to_tensor(0.5)) is x
    np.testing.assert_array_equal(x.numpy(), [3.0, 25.0])


def test_zero_and_fill_keep_shape_and_dtype():
    x = framework.to_tensor([[1, 2], [3, 4]])
    assert x.zero_() is x
    assert x.numpy().tolist() == [[0, 0], [0, 0]] and x.dtype == np.int64
    x.fill_(7)
    assert x.numpy().tolist() == [[7, 7], [7, 7]]
    y = framework.to_tensor([1.0, 2.0])
    y.fill_(framework.to_tensor(2.5))
    assert y.numpy().tolist() == [2.5, 2.5] and y.dtype == np.float32


def test_inplace_on_a_leaf_that_needs_a_gradient_is_refused():
    w = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    for op in (lambda: w.add_(w), lambda: w.scale_(2.0), lambda: w.zero_(), lambda: w.fill_(1)):
        with pytest.raises(RuntimeError, match="inplace"):
            op()
    with framework.no_grad():
        w.add_(framework.to_tensor([1.0, 1.0]))
    np.testing.assert_array_equal(w.numpy(), [2.0, 3.0])


def test_inplace_on_an_intermediate_is_recorded():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    h = x * 2.0
    h.add_(framework.to_tensor([1.0, 1.0]))
    h.multiply_(x)  # h = (2x + 1) * x
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 4 * np.array([1.0, 2.0]) + 1)


def test_inplace_cannot_broadcast_its_target():
    x = framework.to_tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="cannot broadcast its target"):
        x.add_(framework.to_tensor([[1.0], [2.0]]))


def test_inplace_keeps_the_targets_dtype():
    x = framework.to_tensor([1.0, 2.0], dtype="float32")
    x.add_(framework.to_tensor([0.5, 0.5], dtype="float64"))
    assert x.dtype == np.float32
    np.testing.assert_array_equal(x.numpy(), [1.5, 2.5])


def test_inplace_with_itself_as_the_operand():
    x = framework.to_tensor([1.0, 3.0], stop_gradient=False)
    h = x + 0.0
    h.multiply_(h)  # h = x^2
    h.add_(h)  # h = 2 x^2
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 12.0])
