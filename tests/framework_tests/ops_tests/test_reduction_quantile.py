"""Order statistics: quantile nanquantile median nanmedian (forward vs NumPy, gradients,
PyTorch parity, Paddle's median modes)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

INTERPOLATIONS = ["linear", "lower", "higher", "nearest", "midpoint"]


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
@pytest.mark.parametrize("axis", [None, 1, -1, [0, 2]], ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("q", [0.3, [0.0, 0.5, 1.0]], ids=str)
def test_quantile_matches_numpy(interpolation, axis, keepdim, q):
    x = np.random.default_rng(0).standard_normal((3, 4, 5))
    out = framework.quantile(
        framework.to_tensor(x), q, axis=axis, keepdim=keepdim, interpolation=interpolation
    )
    expected = np.quantile(x, q, axis=_np_axis(axis), keepdims=keepdim, method=interpolation)
    assert out.shape == list(expected.shape) and out.dtype == np.float64
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("axis", [None, 2])
def test_nanquantile_and_nanmedian_skip_nans(axis):
    x = np.random.default_rng(1).standard_normal((2, 3, 4))
    x[0, 1, :2] = np.nan
    x[1, 2, :] = np.nan
    with warnings.catch_warnings():  # NumPy warns about the all-nan group
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanquantile(x, [0.2, 0.7], axis=axis)
        expected_median = np.nanmedian(x, axis=axis)
    tensor = framework.to_tensor(x)
    np.testing.assert_allclose(
        framework.nanquantile(tensor, [0.2, 0.7], axis=axis).numpy(), expected
    )
    np.testing.assert_allclose(framework.nanmedian(tensor, axis=axis).numpy(), expected_median)
    plain = framework.quantile(tensor, 0.5, axis=axis).numpy()
    np.testing.assert_array_equal(np.isnan(plain), np.isnan(np.quantile(x, 0.5, axis=axis)))


@pytest.mark.parametrize("axis", [None, 1, [0, 2]], ids=str)
def test_quantile_backward(axis):
    x = np.random.default_rng(2).standard_normal((2, 3, 4))
    check_backward(lambda t: framework.quantile(t, [0.3, 0.5], axis=axis), [x])
    check_double_backward(lambda t: framework.quantile(t, 0.7, axis=axis) * t.sum(), [x])


def test_median_backward_and_modes_follow_paddle():
    x = framework.to_tensor([[3.0, 1.0, 2.0, 4.0], [5.0, 7.0, 6.0, 8.0]], stop_gradient=False)
    assert framework.median(x).item() == 4.5
    assert framework.median(x, mode="min").item() == 4.0
    values, indices = framework.median(x, axis=1, mode="min")
    assert values.numpy().tolist() == [2.0, 6.0] and indices.numpy().tolist() == [2, 2]
    assert indices.dtype == np.int64
    framework.median(x, axis=1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.5, 0, 0.5, 0], [0, 0.5, 0.5, 0]])
    _, kept = framework.median(x, axis=1, keepdim=True, mode="min")
    assert kept.shape == [2, 1]


def test_quantile_gradient_matches_paddle():
    x = framework.to_tensor([[3.0, 1.0, 2.0, 4.0], [5.0, 7.0, 6.0, 8.0]], stop_gradient=False)
    out = framework.quantile(x, [0.25, 0.5], axis=1)
    np.testing.assert_allclose(out.numpy(), [[1.75, 5.75], [2.5, 6.5]])
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.5, 0.25, 1.25, 0], [0.25, 0.5, 1.25, 0]])


@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_quantile_matches_torch(interpolation):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(3).standard_normal((4, 7)).astype(np.float32)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = framework.quantile(ours, [0.1, 0.5, 0.8], axis=1, interpolation=interpolation)
    g = np.random.default_rng(4).standard_normal(out.shape).astype(np.float32)
    out.backward(framework.to_tensor(g))
    theirs = torch.tensor(x, requires_grad=True)
    q = torch.tensor([0.1, 0.5, 0.8])
    expected = torch.quantile(theirs, q, dim=1, interpolation=interpolation)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_quantile_argument_errors():
    x = framework.ones([3])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        framework.quantile(x, 1.5)
    with pytest.raises(ValueError, match="interpolation"):
        framework.quantile(x, 0.5, interpolation="cubic")
    with pytest.raises(ValueError, match="mode"):
        framework.median(x, mode="max")


def test_quantile_of_empty_groups_is_nan():
    x = framework.zeros([0, 3])
    np.testing.assert_array_equal(framework.quantile(x, 0.5, axis=0).numpy(), [np.nan] * 3)
    assert framework.quantile(x, [0.1, 0.2], axis=1).shape == [2, 0]


def test_median_of_integers_gives_the_default_float():
    out = framework.median(framework.to_tensor([1, 2, 3, 4]))
    assert out.dtype == np.float32 and out.item() == 2.5
