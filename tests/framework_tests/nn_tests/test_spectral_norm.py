"""nn.SpectralNorm (Paddle's layer: weight in, weight / sigma out, with weight_u/weight_v) and
nn.LocalResponseNorm: NumPy reference, gradient checks, real Paddle state dicts load and give
Paddle's outputs and gradients, reprs."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework import nn
from framework.testing import check_backward

rng = np.random.default_rng(0)
SHAPE = [3, 4, 2]


def _numpy_spectral_norm(w, u, v, dim, iters, eps=1e-12):
    order = [dim] + [a for a in range(w.ndim) if a != dim]
    matrix = w.transpose(order).reshape(w.shape[dim], -1)
    for _ in range(iters):
        v = matrix.T @ u
        v = v / (np.linalg.norm(v) + eps)
        u = matrix @ v
        u = u / (np.linalg.norm(u) + eps)
    return w / (u @ matrix @ v)


def test_it_has_paddle_buffers_and_no_state_change():
    layer = nn.SpectralNorm(SHAPE, dim=1, power_iters=2)
    assert list(layer.state_dict()) == ["weight_u", "weight_v"]
    assert layer.weight_u.shape == [4] and layer.weight_v.shape == [6]
    assert layer.weight_u.stop_gradient and layer.weight_v.stop_gradient
    before = layer.weight_u.numpy().copy()
    layer(framework.randn(SHAPE))
    np.testing.assert_array_equal(layer.weight_u.numpy(), before)  # as Paddle: not written back
    assert repr(layer) == "SpectralNorm()"


@pytest.mark.parametrize("dim, iters", [(0, 1), (1, 3), (1, 0)])
def test_it_matches_numpy_and_has_gradients(dim, iters):
    layer = nn.SpectralNorm(SHAPE, dim=dim, power_iters=iters, dtype="float64")
    w = rng.standard_normal(SHAPE)
    u, v = layer.weight_u.numpy(), layer.weight_v.numpy()
    got = layer(framework.to_tensor(w))
    np.testing.assert_allclose(got.numpy(), _numpy_spectral_norm(w, u, v, dim, iters), rtol=1e-10)
    if iters == 0:  # otherwise the refined u, v depend on w, but Paddle's gradient fixes them
        check_backward(layer, [w])


def test_many_iterations_reach_the_largest_singular_value():
    layer = nn.SpectralNorm([5, 4], power_iters=50, dtype="float64")
    w = rng.standard_normal((5, 4))
    got = layer(framework.to_tensor(w)).numpy()
    np.testing.assert_allclose(np.linalg.norm(got, 2), 1.0, rtol=1e-8)


@pytest.mark.parametrize(
    "dim, iters, dtype", [(0, 1, "float32"), (1, 2, "float64"), (1, 3, "float32")]
)
def test_a_paddle_state_dict_loads_and_gives_paddle_outputs(dim, iters, dtype):
    paddle = pytest.importorskip("paddle")
    theirs = paddle.nn.SpectralNorm(SHAPE, dim=dim, power_iters=iters, dtype=dtype)
    ours = nn.SpectralNorm(SHAPE, dim=dim, power_iters=iters, dtype=dtype)
    missing, unexpected = ours.set_state_dict(
        {k: v.numpy() for k, v in theirs.state_dict().items()}
    )
    assert missing == [] and unexpected == []
    w = rng.standard_normal(SHAPE).astype(dtype)
    got, want = ours(framework.to_tensor(w)), theirs(paddle.to_tensor(w))
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1] == dtype
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_the_gradient_is_the_derivative_with_the_refined_vectors_held_fixed():
    """d(W / sigma) with sigma = u^T W v: g / sigma - sum(g * W) / sigma^2 * u v^T (PyTorch's
    rule too). Paddle's kernel returns g * (1 - u v^T * sum(W / sigma)) / sigma instead, which
    is not the derivative of its own output, so this is checked against NumPy, not Paddle."""
    layer = nn.SpectralNorm([3, 4], power_iters=2, dtype="float64")
    w, g = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    u, v = layer.weight_u.numpy(), layer.weight_v.numpy()
    for _ in range(2):
        v = w.T @ u / (np.linalg.norm(w.T @ u) + 1e-12)
        u = w @ v / (np.linalg.norm(w @ v) + 1e-12)
    sigma = u @ w @ v
    x = framework.to_tensor(w, stop_gradient=False)
    (layer(x) * framework.to_tensor(g)).sum().backward()
    want = g / sigma - (g * w).sum() / sigma**2 * np.outer(u, v)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10, atol=1e-12)


def test_spectral_norm_rejects_bad_arguments():
    with pytest.raises(ValueError, match="dim must be 0 or 1"):
        nn.SpectralNorm([2, 3, 4], dim=2)
    with pytest.raises(ValueError, match="no zero dims"):
        nn.SpectralNorm([2, 0])
    with pytest.raises(ValueError, match="expected a weight of shape"):
        nn.SpectralNorm([2, 3])(framework.ones([3, 2]))


@pytest.mark.parametrize(
    "shape, kwargs",
    [
        ((2, 6, 3, 3), dict(size=3)),
        ((2, 3, 3, 6), dict(size=5, alpha=1e-2, beta=0.5, k=2.0, data_format="NHWC")),
        ((2, 6, 4), dict(size=2, data_format="NCL")),
        ((1, 4, 2, 2, 3), dict(size=3, alpha=0.1, data_format="NCDHW")),
    ],
)
def test_local_response_norm_layer_matches_paddle(shape, kwargs):
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal(shape).astype(np.float32)
    ours, theirs = nn.LocalResponseNorm(**kwargs), paddle.nn.LocalResponseNorm(**kwargs)
    got, want = ours(framework.to_tensor(x)), theirs(paddle.to_tensor(x))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    assert repr(ours) == repr(theirs)
    check_backward(ours, [x.astype(np.float64)])
