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


UNARY_INPLACE = [
    "abs_", "acos_", "asin_", "atan_", "ceil_", "cos_", "cosh_", "erf_", "exp_", "expm1_",
    "floor_", "frac_", "log_", "log1p_", "log2_", "log10_", "nan_to_num_", "neg_",
    "reciprocal_", "round_", "rsqrt_", "sin_", "sinh_", "sqrt_", "square_", "tan_", "tanh_",
    "trunc_",
]  # fmt: skip
BINARY_INPLACE = [
    "add_", "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_", "mod_",
    "floor_mod_", "pow_",
]  # fmt: skip


@pytest.mark.parametrize("name", UNARY_INPLACE)
def test_unary_inplace_forms_equal_the_ops(name):
    values = np.array([0.2, 0.7, 0.9])
    x = framework.to_tensor(values)
    assert getattr(x, name)() is x
    expected = getattr(framework, name[:-1])(framework.to_tensor(values))
    np.testing.assert_allclose(x.numpy(), expected.numpy(), rtol=1e-6)
    if hasattr(framework, name):  # Paddle's top-level in-place names
        y = framework.to_tensor(values)
        assert getattr(framework, name)(y) is y


@pytest.mark.parametrize("name", BINARY_INPLACE)
def test_binary_inplace_forms_equal_the_ops(name):
    a, b = np.array([1.5, 2.5, 4.0]), np.array([2.0, 0.5, 3.0])
    x = framework.to_tensor(a)
    assert getattr(x, name)(framework.to_tensor(b)) is x
    expected = getattr(framework, name[:-1])(framework.to_tensor(a), framework.to_tensor(b))
    np.testing.assert_allclose(x.numpy(), expected.numpy(), rtol=1e-6)


def test_inplace_forms_with_extra_arguments():
    x = framework.to_tensor([1.0, 2.0])
    x.lerp_(framework.to_tensor([3.0, 4.0]), 0.5)
    np.testing.assert_allclose(x.numpy(), [2.0, 3.0])
    x.pow_(2)
    np.testing.assert_allclose(x.numpy(), [4.0, 9.0])
    x.round_(decimals=0)


def test_recorded_unary_inplace_has_the_right_gradient():
    x = framework.to_tensor([0.5, 1.0], dtype="float64", stop_gradient=False)
    h = x * 1.0
    h.exp_()
    h.sin_()
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos(np.exp([0.5, 1.0])) * np.exp([0.5, 1.0]))


def test_an_earlier_backward_sees_the_value_before_the_inplace_change():
    x = framework.to_tensor([1.0, 2.0], stop_gradient=False)
    h = x * 3.0
    y = h * h  # saves h = 3x
    h.add_(framework.to_tensor([100.0, 100.0]))
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 18.0 * np.array([1.0, 2.0]))
