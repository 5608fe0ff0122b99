"""cdist, pdist, dist, renorm: NumPy reference, gradients of two orders (zero, not NaN, at a
zero distance), PaddlePaddle and PyTorch parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

INF = float("inf")


def _rand(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _t(a):
    return framework.to_tensor(np.asarray(a))


def _np_cdist(x, y, p):
    d = np.abs(x[..., :, None, :] - y[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(x.dtype)
    if p == INF:
        return d.max(-1)
    return (d**p).sum(-1) ** (1 / p)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, INF, 0.0])
@pytest.mark.parametrize("xs,ys", [((3, 4), (5, 4)), ((2, 3, 4), (1, 5, 4)), ((2, 3, 2), (5, 2))])
def test_cdist_matches_numpy_and_has_gradients(p, xs, ys):
    x, y = _rand(xs), _rand(ys, 1)
    got = framework.cdist(_t(x), _t(y), p)
    np.testing.assert_allclose(got.numpy(), _np_cdist(x, y, p), rtol=1e-10)
    assert got.dtype == np.float64
    if p != 0:
        check_backward(lambda a, b: framework.cdist(a, b, p), [x, y])
    if p not in (0, INF):
        check_double_backward(lambda a, b: framework.cdist(a, b, p), [x, y])


def test_cdist_gradient_is_zero_at_coincident_points():
    x = framework.to_tensor([[1.0, 2.0], [0.0, 0.0]], stop_gradient=False)
    framework.cdist(x, x.detach()).sum().backward()
    assert np.isfinite(x.grad.numpy()).all()
    assert framework.cdist(framework.zeros([0, 3]), framework.ones([2, 3])).shape == [0, 2]


def test_cdist_matches_torch_values_and_gradients():
    torch = pytest.importorskip("torch")
    x, y = _rand((2, 3, 4), dtype=np.float32), _rand((2, 5, 4), 1, dtype=np.float32)
    for p in (2.0, 1.0, 3.0):
        ours = framework.to_tensor(x, stop_gradient=False)
        theirs = torch.tensor(x, requires_grad=True)
        out, ref = framework.cdist(ours, _t(y), p), torch.cdist(theirs, torch.tensor(y), p)
        out.sum().backward()
        ref.sum().backward()
        np.testing.assert_allclose(out.numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("p", [2.0, 1.0, INF])
def test_pdist_matches_numpy_and_has_gradients(p):
    x = _rand((5, 3))
    i, j = np.triu_indices(5, 1)
    want = _np_cdist(x, x, p)[i, j]
    np.testing.assert_allclose(framework.pdist(_t(x), p).numpy(), want, rtol=1e-10)
    check_backward(lambda t: framework.pdist(t, p), [x])
    if p != INF:
        check_double_backward(lambda t: framework.pdist(t, p), [x])
    assert framework.pdist(_t(x[:1])).shape == [0]


@pytest.mark.parametrize("p", [2, 1, 3, 0, INF, -INF])
def test_dist_matches_numpy_and_broadcasts(p):
    x, y = _rand((3, 4)), _rand((1, 4), 1)
    d = np.abs(x - y).ravel()
    want = {0: (d != 0).sum(), INF: d.max(), -INF: d.min()}.get(p)
    want = (d**p).sum() ** (1 / p) if want is None else want
    got = framework.dist(_t(x), _t(y), p)
    assert got.shape == [] and got.dtype == np.float64
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    if p not in (0,):
        check_backward(lambda a, b: framework.dist(a, b, p), [x, y])


@pytest.mark.parametrize("p,axis", [(2, 0), (1, 1), (2, -1), (INF, 0), (3, 2)])
def test_renorm_matches_torch_and_has_gradients(p, axis):
    torch = pytest.importorskip("torch")
    x = _rand((2, 3, 4))
    got = framework.renorm(_t(x), p, axis, 1.0)
    np.testing.assert_allclose(got.numpy(), torch.renorm(torch.tensor(x), p, axis, 1.0).numpy())
    check_backward(lambda t: framework.renorm(t, p, axis, 1.0), [x])
    if p != INF:
        check_double_backward(lambda t: framework.renorm(t, p, axis, 1.0), [x])


R = _rand((5, 4), dtype=np.float32)
P = _rand((3, 4), 1, dtype=np.float32)
PARITY = {
    "cdist": lambda m: m.cdist(m.to_tensor(P), m.to_tensor(R)),
    "cdist_p1": lambda m: m.cdist(m.to_tensor(P), m.to_tensor(R), 1.0),
    "cdist_p0": lambda m: m.cdist(m.to_tensor(P), m.to_tensor(R), 0.0),
    "cdist_inf": lambda m: m.cdist(m.to_tensor(P), m.to_tensor(R), INF),
    "cdist_batch_broadcast": lambda m: m.cdist(m.to_tensor(P[None].repeat(2, 0)), m.to_tensor(R)),
    "cdist_empty": lambda m: m.cdist(m.zeros([0, 4]), m.to_tensor(R)),
    "cdist_mixed_dtypes": lambda m: m.cdist(m.to_tensor(P), m.to_tensor(R.astype(np.float64))),
    "pdist": lambda m: m.pdist(m.to_tensor(R)),
    "pdist_one_row": lambda m: m.pdist(m.to_tensor(R[:1])),
    "dist_broadcast": lambda m: m.dist(m.to_tensor(P), m.to_tensor(P[:1])),
    "dist_minus_inf": lambda m: m.dist(m.to_tensor(P), m.to_tensor(R[:3]), -INF),
    "renorm_rows": lambda m: m.renorm(m.to_tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0),
    "renorm_negative_axis": lambda m: m.renorm(m.to_tensor(R), 1, -1, 2.0),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_bad_input_raises_clear_errors():
    ones = framework.ones([2, 3])
    with pytest.raises(TypeError, match="floating point"):
        framework.cdist(framework.to_tensor([[1, 2]]), framework.to_tensor([[1, 2]]))
    with pytest.raises(ValueError, match=r"\[\*, P, M\]"):
        framework.cdist(framework.ones([3]), ones)
    with pytest.raises(ValueError, match=r"\[\*, P, M\]"):
        framework.cdist(ones, framework.ones([2, 4]))
    with pytest.raises(ValueError, match="compute_mode"):
        framework.cdist(ones, ones, compute_mode="x")
    with pytest.raises(ValueError, match="p must be >= 0"):
        framework.cdist(ones, ones, -1.0)
    with pytest.raises(ValueError, match="p must be >= 0"):
        framework.pdist(ones, -2.0)
    with pytest.raises(ValueError, match=r"\[N, M\]"):
        framework.pdist(framework.ones([3]))
    with pytest.raises(TypeError, match="floating point"):
        framework.dist(framework.to_tensor([1, 2]), framework.to_tensor([1, 3]))
    with pytest.raises(ValueError, match="out of range"):
        framework.renorm(ones, 2, 2, 1.0)
