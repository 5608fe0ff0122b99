"""The in-place forms Paddle exports at top level (`equal_`, `cumsum_`, `transpose_`, `where_`,
`addmm_`, `hypot_`, ...): same result as the op, `x` rebound (dtype and shape as Paddle
leaves them), gradients through the rebinding, and PaddlePaddle parity."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)
Y = RNG.standard_normal((3, 4)).astype(np.float32)
POS = RNG.uniform(0.1, 0.9, (3, 4)).astype(np.float32)
INTS = np.array([[12, 7, 6], [9, 4, 30]], np.int64)
INTS2 = np.array([[8, 3, 4], [6, 10, 5]], np.int64)
MASK = X > 0

# (name, x, further arguments as NumPy values or plain Python values).
CASES = [
    ("equal_", X, (X.round(),)),
    ("not_equal_", X, (Y,)),
    ("less_than_", X, (Y,)),
    ("less_", X, (Y,)),
    ("less_equal_", X, (Y,)),
    ("greater_than_", X, (Y,)),
    ("greater_equal_", X, (Y,)),
    ("logical_and_", MASK, (Y > 0,)),
    ("logical_or_", MASK, (Y > 0,)),
    ("logical_xor_", MASK, (Y > 0,)),
    ("logical_not_", MASK, ()),
    ("bitwise_and_", INTS, (INTS2,)),
    ("bitwise_or_", INTS, (INTS2,)),
    ("bitwise_xor_", INTS, (INTS2,)),
    ("bitwise_not_", INTS, ()),
    ("gcd_", INTS, (INTS2,)),
    ("lcm_", INTS, (INTS2,)),
    ("triu_", X, (1,)),
    ("tril_", X, (-1,)),
    ("cast_", X, ("int32",)),
    ("transpose_", X, ([1, 0],)),
    ("t_", X, ()),
    ("cumsum_", X, (1,)),
    ("cumsum_", X, ()),
    ("cumprod_", X, (0,)),
    ("logit_", POS, ()),
    ("hypot_", X, (Y,)),
    ("copysign_", X, (Y,)),
    ("ldexp_", X, (np.array([[1, 2, 0, -1]] * 3, np.int32),)),
    ("renorm_", X, (2.0, 0, 1.5)),
    ("masked_fill_", X, (MASK, 7.0)),
    ("masked_scatter_", X, (MASK, Y)),
    ("index_fill_", X, (np.array([0, 2]), 0, -1.0)),
    ("index_add_", X, (np.array([0, 2]), 0, Y[:2])),
    ("index_put_", X, ((np.array([0, 2]), np.array([1, 3])), np.array([5.0, 6.0], np.float32))),
    ("scatter_", X, (np.array([2, 0]), Y[:2])),
    ("scatter_add_", X, (0, np.array([[0, 1, 2, 0]]), Y[:1])),
    ("addmm_", X, (Y, RNG.standard_normal((4, 4)).astype(np.float32), 0.5, 2.0)),
    ("baddbmm_", X[None], (Y[None], RNG.standard_normal((1, 4, 4)).astype(np.float32), 2.0, 0.5)),
]


def _wrap(module, value):
    if isinstance(value, np.ndarray):
        return module.to_tensor(value)
    if isinstance(value, tuple):
        return [module.to_tensor(v) for v in value]
    return value


@pytest.mark.parametrize("name, x, args", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_inplace_form_matches_paddle_and_rebinds_x(name, x, args):
    paddle = pytest.importorskip("paddle")
    ours = framework.to_tensor(x)
    out = getattr(framework, name)(ours, *[_wrap(framework, a) for a in args])
    theirs = paddle.to_tensor(x)
    expected = getattr(paddle, name)(theirs, *[_wrap(paddle, a) for a in args])
    assert out is ours
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, x, args", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_method_form_matches_the_function(name, x, args):
    a, b = framework.to_tensor(x), framework.to_tensor(x)
    wrapped = [_wrap(framework, v) for v in args]
    getattr(framework, name)(a, *wrapped)
    getattr(b, name)(*wrapped)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_where_inplace_writes_into_x():
    x = framework.to_tensor([1.0, 2.0, 3.0])
    out = framework.where_(x > 1.5, x, framework.zeros([3]))
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [0.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        framework.where_(x > 0, 1.0, x)


def test_inplace_forms_refuse_a_leaf_that_needs_a_gradient():
    leaf = framework.to_tensor(X, stop_gradient=False)
    for form in (framework.cumsum_, framework.t_, framework.triu_):
        with pytest.raises(RuntimeError, match="leaf Tensor"):
            form(leaf)


def test_a_same_shape_form_cannot_broadcast_its_target():
    with pytest.raises(ValueError, match="cannot broadcast"):
        framework.hypot_(framework.to_tensor(X[:1]), framework.to_tensor(Y))


DIFFERENTIABLE = [
    (lambda t: framework.cumsum_(t * 1.0, 1), [X]),
    (lambda t: framework.cumsum_(t * 1.0), [X]),
    (lambda t: framework.cumprod_(t * 1.0, 0), [X]),
    (lambda t: framework.transpose_(t * 1.0, [1, 0]), [X]),
    (lambda t: framework.t_(t * 1.0), [X]),
    (lambda t: framework.triu_(t * 1.0, 1), [X]),
    (lambda t: framework.logit_(t * 1.0), [POS]),
    (lambda t, u: framework.hypot_(t * 1.0, u), [X, Y]),
    (lambda t: framework.masked_fill_(t * 1.0, framework.to_tensor(MASK), 2.0), [X]),
    (lambda t, u: framework.where_(framework.to_tensor(MASK), t * 1.0, u), [X, Y]),
    (lambda i, a, b: framework.addmm_(i * 1.0, a, b, 0.5, 2.0), [X, Y, X.T @ Y]),
    (lambda t: framework.renorm_(t * 1.0, 2.0, 0, 1.5), [X]),
]


@pytest.mark.parametrize("fn, inputs", DIFFERENTIABLE)
def test_gradients_flow_through_the_inplace_forms(fn, inputs):
    check_backward(fn, inputs)
    check_double_backward(fn, inputs)
