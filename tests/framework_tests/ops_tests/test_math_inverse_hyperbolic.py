"""acosh, asinh, atanh: NumPy reference, gradients of two orders, PaddlePaddle and PyTorch
parity (domain edges: NaN and inf), bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

OPS = {"acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh}
# Points inside each domain, away from the singular edges, for gradient checks.
DOMAIN = {
    "acosh": lambda r: 1.2 + np.abs(r),
    "asinh": lambda r: r,
    "atanh": lambda r: np.tanh(r) * 0.8,
}


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("shape", [(5,), (2, 3), (), (0, 2)])
def test_matches_numpy_and_has_gradients(op, shape):
    x = np.asarray(DOMAIN[op](_rand(shape)))
    got = getattr(framework, op)(framework.to_tensor(x))
    np.testing.assert_allclose(got.numpy(), OPS[op](x), rtol=1e-12)
    assert got.dtype == np.float64 and got.shape == list(shape)
    if x.size:
        check_backward(getattr(framework, op), [x])
        check_double_backward(getattr(framework, op), [x])


@pytest.mark.parametrize("op", sorted(OPS))
def test_matches_torch_values_and_gradients(op):
    torch = pytest.importorskip("torch")
    x = DOMAIN[op](_rand((3, 4))).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    y, yt = getattr(framework, op)(ours), getattr(torch, op)(theirs)
    y.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(y.numpy(), yt.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5)


EDGES = {
    "acosh": np.array([1.0, 2.0, 0.5, np.inf], np.float32),
    "asinh": np.array([-1.0, 0.0, 2.0, -np.inf], np.float32),
    "atanh": np.array([-1.0, 0.0, 0.5, 2.0], np.float32),
}


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("kind", ["edges", "ints", "float64"])
def test_matches_paddle(op, kind):
    paddle = pytest.importorskip("paddle")
    data = {"edges": EDGES[op], "ints": np.array([0, 1, 2]), "float64": DOMAIN[op](_rand(4))}[kind]
    with np.errstate(all="ignore"):
        ours = getattr(framework, op)(framework.to_tensor(data))
    theirs = getattr(paddle, op)(paddle.to_tensor(data))
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


@pytest.mark.parametrize("op", sorted(OPS))
def test_bad_input_raises_clear_errors(op):
    with pytest.raises(TypeError, match="must be a Tensor"):
        getattr(framework, op)([1.0])
