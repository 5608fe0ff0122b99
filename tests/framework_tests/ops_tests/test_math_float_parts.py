"""copysign, signbit, frexp, ldexp, nextafter, isposinf, isneginf, gcd, lcm: NumPy reference,
gradients of two orders for copysign and ldexp, PaddlePaddle and PyTorch parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

F = np.array([1.5, -2.0, 0.0, -0.0, 8.0, 1e-3, np.inf, -np.inf], np.float32)


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


def test_sign_and_infinity_predicates_match_numpy():
    for ours, ref in (
        (framework.signbit, np.signbit),
        (framework.isposinf, np.isposinf),
        (framework.isneginf, np.isneginf),
    ):
        got = ours(_t(F))
        np.testing.assert_array_equal(got.numpy(), ref(F))
        assert got.dtype == np.bool_
        assert ours(_t([1, -2, 0])).numpy().tolist() == ref(np.array([1, -2, 0])).tolist()


def test_copysign_matches_numpy_and_has_gradients():
    x, y = _rand((2, 3)), _rand((3,), 1)
    got = framework.copysign(_t(x), _t(y))
    np.testing.assert_array_equal(got.numpy(), np.copysign(x, y))
    assert got.dtype == np.float64
    np.testing.assert_array_equal(framework.copysign(_t(F), -0.0).numpy(), np.copysign(F, -0.0))
    check_backward(lambda t: framework.copysign(t, _t(y)), [x])
    check_double_backward(lambda t: framework.copysign(t * t, _t(y)), [x])
    ints = framework.copysign(_t([1, -2]), _t([-1, 1]))
    assert ints.dtype == np.int64 and ints.numpy().tolist() == [-1, 2]
    mixed = framework.copysign(_t([1.0, -2.0], "float32"), _t([-1.0, 1.0], "float64"))
    assert mixed.dtype == np.float64


def test_copysign_gradient_matches_torch_including_zero():
    torch = pytest.importorskip("torch")
    x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    y = np.array([-0.0, 0.0, -1.0, 2.0], np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    framework.copysign(ours, _t(y)).sum().backward()
    theirs = torch.tensor(x, requires_grad=True)
    torch.copysign(theirs, torch.tensor(y)).sum().backward()
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_frexp_and_ldexp_match_numpy():
    x = np.array([8.0, -3.0, 0.0, 0.1, 1e30])
    mantissa, exponent = framework.frexp(_t(x))
    want_m, want_e = np.frexp(x)
    np.testing.assert_array_equal(mantissa.numpy(), want_m)
    np.testing.assert_array_equal(exponent.numpy(), want_e)
    assert mantissa.dtype == exponent.dtype == np.float64
    assert framework.frexp(_t(x, "float32"))[1].dtype == np.float32
    e = np.array([2, -3, 0, 5, -60])
    got = framework.ldexp(_t(x), _t(e))
    np.testing.assert_array_equal(got.numpy(), np.ldexp(x, e))
    assert framework.ldexp(_t([1, 2]), _t([2, 3])).dtype == np.float32
    assert framework.ldexp(_t([1.0], "float32"), _t([2], "int32")).dtype == np.float32
    np.testing.assert_array_equal(
        framework.ldexp(_t(np.ones((2, 2))), _t([1, 2])).numpy(), np.ldexp(np.ones((2, 2)), [1, 2])
    )
    # 1e30 would swamp the numerical difference of the others: check on moderate values.
    check_backward(lambda t: framework.ldexp(t, _t(e[:4])), [x[:4]])
    check_double_backward(lambda t: framework.ldexp(t * t, _t(e[:4])), [x[:4]])


def test_nextafter_matches_numpy_in_each_float_dtype():
    for dtype in (np.float32, np.float64):
        x, y = np.array([1.0, 2.0, 0.0], dtype), np.array([2.0, 1.0, -1.0], dtype)
        got = framework.nextafter(_t(x), _t(y))
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), np.nextafter(x, y))


def test_gcd_lcm_match_numpy_and_widen():
    a, b = np.array([[12, 0, -4, 7]]), np.array([[18], [0], [6]])
    np.testing.assert_array_equal(framework.gcd(_t(a), _t(b)).numpy(), np.gcd(a, b))
    np.testing.assert_array_equal(framework.lcm(_t(a), _t(b)).numpy(), np.lcm(a, b))
    assert framework.gcd(_t([12], "int32"), _t([18], "int32")).dtype == np.int32
    big = framework.lcm(_t([2], "int32"), _t([2**40], "int64"))
    assert big.dtype == np.int64 and big.item() == 2**40
    assert framework.gcd(_t([12, 9]), 6).numpy().tolist() == [6, 3]


PARITY = {
    "signbit": lambda m: m.signbit(m.to_tensor(F)),
    "copysign": lambda m: m.copysign(m.to_tensor(F), m.to_tensor(-F[::-1].copy())),
    "copysign_broadcast": lambda m: m.copysign(
        m.ones([2, 3]), m.to_tensor(np.array([-1.0, 1, -0.0], np.float32))
    ),
    "copysign_ints": lambda m: m.copysign(m.to_tensor([1, -2]), m.to_tensor([-1, 1])),
    "copysign_float32_float64": lambda m: m.copysign(
        m.to_tensor(np.array([1.0, -2.0], np.float32)), m.to_tensor([-1.0, 1.0])
    ),
    "frexp": lambda m: list(m.frexp(m.to_tensor(F[:6]))),
    "frexp_float64": lambda m: list(m.frexp(m.to_tensor([8.0, -3.0]))),
    "ldexp": lambda m: m.ldexp(m.to_tensor(np.array([1.0, 2.0], np.float32)), m.to_tensor([2, 3])),
    "ldexp_int_x": lambda m: m.ldexp(m.to_tensor([1, 2]), m.to_tensor([2, 3])),
    "ldexp_int32_exponent": lambda m: m.ldexp(
        m.to_tensor([1.0, 2.0]), m.to_tensor(np.array([2, -3], np.int32))
    ),
    "nextafter": lambda m: m.nextafter(
        m.to_tensor(np.array([1.0, 2.0], np.float32)), m.to_tensor(np.array([2.0, 1.0], np.float32))
    ),
    "isposinf": lambda m: m.isposinf(m.to_tensor(F)),
    "isneginf_ints": lambda m: m.isneginf(m.to_tensor([1, 2])),
    "gcd": lambda m: m.gcd(m.to_tensor([12, 0, -4, 7]), m.to_tensor([18, 0, 6, 0])),
    "gcd_broadcast": lambda m: m.gcd(m.to_tensor([[12], [9]]), m.to_tensor([18, 6])),
    "lcm": lambda m: m.lcm(m.to_tensor([4, 0, -4, 3]), m.to_tensor([6, 5, 6, 7])),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    ours = ours if isinstance(ours, list) else [ours]
    theirs = theirs if isinstance(theirs, list) else [theirs]
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == list(b.shape)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="floating point"):
        framework.frexp(_t([8, 3]))
    with pytest.raises(TypeError, match="integer tensor"):
        framework.ldexp(_t([1.0]), _t([2.0]))
    with pytest.raises(TypeError, match="floating point"):
        framework.nextafter(_t([1]), _t([2]))
    with pytest.raises(TypeError, match="integer tensors"):
        framework.gcd(_t([1.0]), _t([2]))
    with pytest.raises(TypeError, match="integer tensors"):
        framework.lcm(_t([1]), _t([2.5]))
