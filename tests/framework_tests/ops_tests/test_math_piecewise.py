"""fmax, fmin, heaviside, sinc, stanh: NumPy reference, gradients of two orders, PaddlePaddle
and PyTorch parity (NaN handling, ints, broadcasting), bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

N = np.array([1.0, np.nan, -2.0, np.nan, 0.0, -0.0], np.float32)
M = np.array([2.0, 3.0, np.nan, np.nan, -0.0, 0.0], np.float32)


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


@pytest.mark.parametrize("op,ref", [("fmax", np.fmax), ("fmin", np.fmin)])
def test_fmax_fmin_match_numpy_and_route_gradients(op, ref):
    f = getattr(framework, op)
    np.testing.assert_array_equal(f(_t(N), _t(M)).numpy(), ref(N, M))
    x, y = _rand((2, 3)), _rand((3,), 1)
    got = f(_t(x), _t(y))
    np.testing.assert_array_equal(got.numpy(), ref(x, y))
    assert got.dtype == np.float64
    check_backward(f, [x, y])
    check_double_backward(lambda a, b: f(a * a, b), [x, y])
    ints = f(_t([1, 5]), _t([3, 2]))
    assert ints.dtype == np.int64 and ints.numpy().tolist() == ref([1, 5], [3, 2]).tolist()


def test_heaviside_matches_numpy_and_is_differentiable_in_y():
    x = np.array([[-1.0, 0.0, 2.0], [0.0, 3.0, -0.0]])
    y = np.array([0.5, 0.25, 0.75])
    got = framework.heaviside(_t(x), _t(y))
    np.testing.assert_array_equal(got.numpy(), np.heaviside(x, y))
    check_backward(lambda b: framework.heaviside(_t(x), b), [y])
    check_double_backward(lambda b: framework.heaviside(_t(x), b * b), [y])
    ints = framework.heaviside(_t([-1, 0, 2]), _t([5, 6, 7]))
    assert ints.dtype == np.int64 and ints.numpy().tolist() == [0, 6, 1]


def test_sinc_and_stanh_match_numpy_and_have_gradients():
    x = np.concatenate([_rand(6), [0.0, 1.0, -2.5]])
    np.testing.assert_allclose(framework.sinc(_t(x)).numpy(), np.sinc(x), rtol=1e-12)
    check_backward(framework.sinc, [x])
    check_double_backward(framework.sinc, [x])
    zero = framework.to_tensor([0.0], stop_gradient=False)
    framework.sinc(zero).sum().backward()
    assert zero.grad.numpy().tolist() == [0.0]
    np.testing.assert_allclose(framework.stanh(_t(x)).numpy(), 1.7159 * np.tanh(0.67 * x))
    np.testing.assert_allclose(framework.stanh(_t(x), 1.0, 2.0).numpy(), 2.0 * np.tanh(x))
    check_backward(lambda t: framework.stanh(t, 0.5, 3.0), [x])
    check_double_backward(framework.stanh, [x])
    assert framework.sinc(_t([0, 1])).dtype == np.float32


def test_sinc_and_fmax_gradients_match_torch():
    torch = pytest.importorskip("torch")
    x = np.array([0.0, 0.3, -1.2, 2.0], np.float32)
    y = np.array([0.0, 1.0, -2.0, 2.0], np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    (framework.sinc(ours) + framework.fmax(ours, _t(y))).sum().backward()
    (torch.sinc(theirs) + torch.fmax(theirs, torch.tensor(y))).sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)


PARITY = {
    "fmax_nan": lambda m: m.fmax(m.to_tensor(N), m.to_tensor(M)),
    "fmin_nan": lambda m: m.fmin(m.to_tensor(N), m.to_tensor(M)),
    "fmax_broadcast": lambda m: m.fmax(m.ones([2, 1]), m.to_tensor(M)),
    "fmin_float32_float64": lambda m: m.fmin(m.to_tensor(N), m.to_tensor(M.astype(np.float64))),
    "fmax_ints": lambda m: m.fmax(m.to_tensor([1, 5]), m.to_tensor([3, 2])),
    "heaviside": lambda m: m.heaviside(
        m.to_tensor(np.array([-1.0, 0.0, 2.0], np.float32)),
        m.to_tensor(np.array([0.5, 0.5, 0.5], np.float32)),
    ),
    "heaviside_nan_x": lambda m: m.heaviside(
        m.to_tensor(np.array([np.nan], np.float32)), m.to_tensor(np.array([0.5], np.float32))
    ),
    "heaviside_broadcast_ints": lambda m: m.heaviside(
        m.to_tensor([[-1], [0]]), m.to_tensor([5, 6])
    ),
    "sinc": lambda m: m.sinc(m.to_tensor(np.array([0.0, 0.5, -1.5, 3.0], np.float32))),
    "stanh": lambda m: m.stanh(m.to_tensor(np.array([0.0, 0.5, -1.5], np.float32))),
    "stanh_scales_ints": lambda m: m.stanh(m.to_tensor([0, 1]), 1.0, 2.0),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="Tensor operand"):
        framework.fmax([1.0], [2.0])
    with pytest.raises(TypeError, match="must be a Tensor"):
        framework.sinc([1.0])
    with pytest.raises(TypeError, match="must be a Tensor"):
        framework.stanh([1.0])
    with pytest.raises(ValueError):
        framework.heaviside(_t([1.0, 2.0]), _t([1.0, 2.0, 3.0]))
