"""Unary elementwise math: forward vs NumPy, gradients (first and second order), PyTorch parity,
dtypes and shapes (including 0-D and empty)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


@dataclass(frozen=True)
class Unary:
    name: str
    op: Callable
    reference: Callable
    low: float = -2.0
    high: float = 2.0
    torch_name: str | None = None  # defaults to `name`

    def sample(self, shape, dtype, seed=0) -> np.ndarray:
        rng = np.random.default_rng(seed)
        return rng.uniform(self.low, self.high, shape).astype(dtype)


_erf = np.vectorize(math.erf, otypes=[np.float64])

OPS = [
    Unary("neg", framework.neg, np.negative),
    Unary("abs", framework.abs, np.abs),
    Unary("exp", framework.exp, np.exp),
    Unary("expm1", framework.expm1, np.expm1),
    Unary("log", framework.log, np.log, 0.2, 3.0),
    Unary("log2", framework.log2, np.log2, 0.2, 3.0),
    Unary("log10", framework.log10, np.log10, 0.2, 3.0),
    Unary("log1p", framework.log1p, np.log1p, -0.5, 3.0),
    Unary("sqrt", framework.sqrt, np.sqrt, 0.2, 3.0),
    Unary("rsqrt", framework.rsqrt, lambda x: 1 / np.sqrt(x), 0.2, 3.0),
    Unary("square", framework.square, np.square),
    Unary("reciprocal", framework.reciprocal, np.reciprocal, 0.3, 3.0),
    Unary("sin", framework.sin, np.sin),
    Unary("cos", framework.cos, np.cos),
    Unary("tan", framework.tan, np.tan, -1.2, 1.2),
    Unary("asin", framework.asin, np.arcsin, -0.9, 0.9),
    Unary("acos", framework.acos, np.arccos, -0.9, 0.9),
    Unary("atan", framework.atan, np.arctan),
    Unary("sinh", framework.sinh, np.sinh),
    Unary("cosh", framework.cosh, np.cosh),
    Unary("tanh", framework.tanh, np.tanh),
    Unary("erf", framework.erf, _erf),
    Unary("frac", framework.frac, lambda x: x - np.trunc(x), torch_name="frac"),
    Unary("logit", framework.logit, lambda x: np.log(x / (1 - x)), 0.1, 0.9),
    Unary("deg2rad", framework.deg2rad, np.deg2rad, -200.0, 200.0),
    Unary("rad2deg", framework.rad2deg, np.rad2deg),
    Unary("nan_to_num", framework.nan_to_num, np.nan_to_num),
]
PIECEWISE = [
    Unary("floor", framework.floor, np.floor),
    Unary("ceil", framework.ceil, np.ceil),
    Unary("round", framework.round, np.round),
    Unary("trunc", framework.trunc, np.trunc),
    Unary("sign", framework.sign, np.sign),
    Unary("sgn", framework.sgn, np.sign),
]
ALL = OPS + PIECEWISE
SHAPES = [(), (5,), (2, 3), (0, 3)]


def ids(ops):
    return [op.name for op in ops]


@pytest.mark.parametrize("op", ALL, ids=ids(ALL))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_forward_matches_numpy(op, shape, dtype):
    x = op.sample(shape, dtype)
    out = op.op(framework.to_tensor(x))
    assert out.dtype == dtype
    assert out.shape == list(shape)
    rtol = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(
        out.numpy(), op.reference(x.astype(np.float64)), rtol=rtol, atol=rtol
    )


@pytest.mark.parametrize("op", ALL, ids=ids(ALL))
@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_unary_backward(op, shape):
    check_backward(op.op, [op.sample(shape, np.float64)])


@pytest.mark.parametrize("op", ALL, ids=ids(ALL))
def test_unary_double_backward(op):
    check_double_backward(op.op, [op.sample((2, 3), np.float64)])


@pytest.mark.parametrize("op", ALL, ids=ids(ALL))
def test_unary_float32_gradient_stays_float32(op):
    x = framework.to_tensor(op.sample((3,), np.float32), stop_gradient=False)
    op.op(x).sum().backward()
    assert x.grad.dtype == np.float32


@pytest.mark.parametrize("op", ALL, ids=ids(ALL))
def test_unary_matches_torch(op):
    torch = pytest.importorskip("torch")
    x = op.sample((3, 4), np.float32, seed=1)
    g = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = op.op(ours)
    out.backward(framework.to_tensor(g))
    theirs = torch.tensor(x, requires_grad=True)
    expected = getattr(torch, op.torch_name or op.name)(theirs)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        ours.grad.numpy(), theirs.grad.numpy(force=True), rtol=1e-5, atol=1e-6
    )


FLOAT_ONLY = [
    op for op in OPS if op.name not in ("neg", "abs", "square", "frac", "logit", "nan_to_num")
]


@pytest.mark.parametrize("op", FLOAT_ONLY, ids=ids(FLOAT_ONLY))
def test_float_math_on_integers_gives_the_default_float(op):
    with np.errstate(all="ignore"):
        out = op.op(framework.to_tensor([1, 2]))
        expected = op.reference(np.array([1.0, 2.0]))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("op", PIECEWISE + [OPS[0], OPS[1]], ids=ids(PIECEWISE + OPS[:2]))
def test_integer_preserving_ops_keep_integer_dtype(op):
    x = np.array([-3, 0, 2], dtype=np.int32)
    out = op.op(framework.to_tensor(x))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out.numpy(), op.reference(x))


def test_round_takes_decimals_and_rounds_halves_to_even():
    x = framework.to_tensor([0.5, 1.5, 2.5, -0.5, 1.2345])
    np.testing.assert_allclose(framework.round(x).numpy(), [0.0, 2.0, 2.0, -0.0, 1.0])
    np.testing.assert_allclose(framework.round(x, decimals=2).numpy()[-1], 1.23, rtol=1e-6)


def test_piecewise_constant_ops_give_zero_not_missing_gradients():
    x = framework.to_tensor([0.4, -1.6], stop_gradient=False)
    (framework.floor(x) + framework.sign(x)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])


def test_abs_gradient_at_zero_is_zero():
    x = framework.to_tensor([0.0, -2.0], stop_gradient=False)
    framework.abs(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, -1.0])


def test_numpy_only_erf_fallback_is_exact_to_rounding():
    from framework.ops.math.special import numpy_erf

    x = np.concatenate([np.linspace(-6, 6, 2001), [2.5, -2.5, 0.0, 30.0, np.inf, -np.inf]])
    np.testing.assert_allclose(numpy_erf(x), _erf(x), rtol=0, atol=2e-15)
    assert np.isnan(numpy_erf(np.array([np.nan])))[0]
    assert numpy_erf(x.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize(
    ("op", "value", "expected"),
    [
        (framework.isnan, [1.0, np.nan, np.inf], [False, True, False]),
        (framework.isinf, [1.0, np.nan, -np.inf], [False, False, True]),
        (framework.isfinite, [1.0, np.nan, np.inf], [True, False, False]),
    ],
)
def test_float_classification(op, value, expected):
    out = op(framework.to_tensor(value, stop_gradient=False))
    assert out.dtype == np.bool_ and out.stop_gradient
    np.testing.assert_array_equal(out.numpy(), expected)
    assert op(framework.to_tensor([1, 2])).numpy().tolist() == [expected[0]] * 2


def test_unary_method_forms_are_bound():
    x = framework.to_tensor([0.5, 1.0])
    for name in ("exp", "log", "sqrt", "sin", "tanh", "erf", "abs", "floor", "isnan", "neg"):
        np.testing.assert_array_equal(
            getattr(x, name)().numpy(), getattr(framework, name)(x).numpy()
        )
    np.testing.assert_array_equal((-x).numpy(), [-0.5, -1.0])
    np.testing.assert_array_equal(abs(-x).numpy(), [0.5, 1.0])
    assert (+x) is x


def test_logit_with_eps_clips_and_has_no_gradient_where_clipped():
    x = framework.to_tensor([0.05, 0.5, 0.95], stop_gradient=False)
    out = framework.logit(x, eps=0.1)
    np.testing.assert_allclose(out.numpy(), np.log([0.1 / 0.9, 1.0, 0.9 / 0.1]), rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 4.0, 0.0])
    check_double_backward(lambda t: framework.logit(t, eps=0.2), [np.array([0.3, 0.6])])


def test_nan_to_num_replaces_and_zeroes_their_gradient():
    x = framework.to_tensor([np.nan, np.inf, -np.inf, 1.0], stop_gradient=False)
    out = framework.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0)
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, -2.0, 1.0])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0, 1.0])
    big = framework.nan_to_num(framework.to_tensor([np.inf]))
    assert big.item() == np.finfo(np.float32).max
