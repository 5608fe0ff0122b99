"""Gradients through the in-place methods added for Paddle parity (`acosh_`, `asinh_`,
`atanh_`, `sigmoid_`, `clip_`, `put_along_axis_`, `mul_`, `div_`, `sub_`) applied to a
non-leaf: central differences (first and second order) and Paddle's own gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(1)
X = RNG.standard_normal((3, 4))
Y = RNG.standard_normal((3, 4))
# Away from clip_'s kinks at +-0.5, where the gradient is not defined.
X_CLIP = np.where(np.abs(np.abs(X) - 0.5) < 0.05, X + 0.1, X)
ABOVE_ONE = RNG.uniform(1.2, 3.0, (3, 4))
IN_UNIT = RNG.uniform(-0.9, 0.9, (3, 4))
POSITIVE = RNG.uniform(0.5, 2.0, (3, 4))
INDEX = np.array([[0, 2], [3, 1], [1, 0]], np.int64)


def _index(module):
    return module.to_tensor(INDEX)


# (name, a function of (module, non-leaf x, other) that applies the in-place method, x, other)
CASES = [
    ("acosh_", lambda m, t, u: t.acosh_(), ABOVE_ONE, None),
    ("asinh_", lambda m, t, u: t.asinh_(), X, None),
    ("atanh_", lambda m, t, u: t.atanh_(), IN_UNIT, None),
    ("sigmoid_", lambda m, t, u: t.sigmoid_(), X, None),
    ("clip_", lambda m, t, u: t.clip_(-0.5, 0.5), X_CLIP, None),
    ("put_along_axis_", lambda m, t, u: t.put_along_axis_(_index(m), u[:, :2], 1), X, Y),
    (
        "put_along_axis_-add",
        lambda m, t, u: t.put_along_axis_(_index(m), u[:, :2], 1, reduce="add"),
        X,
        Y,
    ),
    (
        "put_along_axis_-mean",
        lambda m, t, u: t.put_along_axis_(_index(m), u[:, :2], 1, reduce="mean"),
        X,
        Y,
    ),
    ("fill_diagonal_tensor_", lambda m, t, u: t.fill_diagonal_tensor_(u[0, :3]), X, Y),
    (
        "fill_diagonal_tensor_-offset",
        lambda m, t, u: t.fill_diagonal_tensor_(u[0, :3], offset=-1, dim1=1, dim2=0),
        X,
        Y,
    ),
    ("mul_", lambda m, t, u: t.mul_(u), X, Y),
    ("div_", lambda m, t, u: t.div_(u), X, POSITIVE),
    ("sub_", lambda m, t, u: t.sub_(u), X, Y),
]
IDS = [c[0] for c in CASES]
# Paddle gives the filled-in values no gradient (its y.grad stays None); ours are checked by
# central differences above, and only x's gradient is compared with Paddle's.
PADDLE_SKIPS_OTHER_GRAD = {"fill_diagonal_tensor_", "fill_diagonal_tensor_-offset"}


def _inputs(x, other):
    return [x] if other is None else [x, other]


def _as_function(apply):
    def fn(x, other=None):
        return apply(framework, x * 1.0, other)

    return fn


@pytest.mark.parametrize("name, apply, x, other", CASES, ids=IDS)
def test_gradients_match_central_differences(name, apply, x, other):
    check_backward(_as_function(apply), _inputs(x, other))
    check_double_backward(_as_function(apply), _inputs(x, other))


@pytest.mark.parametrize("name, apply, x, other", CASES, ids=IDS)
def test_gradients_match_paddle(name, apply, x, other):
    paddle = pytest.importorskip("paddle")
    grads = []
    for module in (framework, paddle):
        leaves = [module.to_tensor(v.astype(np.float32), stop_gradient=False)
                  for v in _inputs(x, other)]  # fmt: skip
        out = apply(module, leaves[0] * 1.0, leaves[1] if len(leaves) > 1 else None)
        (out * out).sum().backward()
        grads.append([None if leaf.grad is None else leaf.grad.numpy() for leaf in leaves])
    if name in PADDLE_SKIPS_OTHER_GRAD:
        assert grads[1][1] is None
        grads = [g[:1] for g in grads]
    for ours, theirs in zip(*grads, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
