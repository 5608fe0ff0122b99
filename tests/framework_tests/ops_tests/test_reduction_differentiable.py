"""Differentiable reductions over axes: sum mean max min amax amin prod var std logsumexp nansum
nanmean. Forward vs NumPy over axis forms and keepdim, gradients of first and second order,
and PyTorch parity in float32."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward


def _axes(axis, ndim):
    if axis is None or (isinstance(axis, list | tuple) and not axis):
        return tuple(range(ndim))
    return tuple(a % ndim for a in ((axis,) if isinstance(axis, int) else axis))


def _numpy(function: Callable, **kwargs) -> Callable:
    def reference(x, axis, keepdim):
        with np.errstate(all="ignore"):
            return function(x, axis=_axes(axis, x.ndim), keepdims=keepdim, **kwargs)

    return reference


def _logsumexp(x, axis, keepdims):
    shift = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - shift).sum(axis=axis, keepdims=True)) + shift
    return out if keepdims else out.squeeze(axis)


def _torch(name: str, **kwargs) -> Callable:
    def call(x, axis, keepdim):
        import torch

        return getattr(torch, name)(x, dim=_axes(axis, x.ndim), keepdim=keepdim, **kwargs)

    return call


@dataclass(frozen=True)
class Reduction:
    name: str
    op: Callable
    reference: Callable
    torch_op: Callable
    low: float = -2.0
    high: float = 2.0

    def sample(self, shape, dtype=np.float64, seed=0):
        return np.random.default_rng(seed).uniform(self.low, self.high, shape).astype(dtype)


def _call(name: str, **kwargs) -> Callable:
    return lambda x, axis, keepdim: getattr(framework, name)(
        x, axis=axis, keepdim=keepdim, **kwargs
    )


def _torch_prod(x, axis, keepdim):
    # torch.prod reduces one dim at a time
    for a in sorted(_axes(axis, x.ndim), reverse=True):
        x = x.prod(dim=a, keepdim=keepdim)
    return x


OPS = [
    Reduction("sum", _call("sum"), _numpy(np.sum), _torch("sum")),
    Reduction("mean", _call("mean"), _numpy(np.mean), _torch("mean")),
    Reduction("max", _call("max"), _numpy(np.max), _torch("amax")),
    Reduction("min", _call("min"), _numpy(np.min), _torch("amin")),
    Reduction("amax", _call("amax"), _numpy(np.max), _torch("amax")),
    Reduction("amin", _call("amin"), _numpy(np.min), _torch("amin")),
    Reduction("prod", _call("prod"), _numpy(np.prod), _torch_prod, 0.5, 1.5),
    Reduction("var", _call("var"), _numpy(np.var, ddof=1), _torch("var")),
    Reduction(
        "var_biased",
        _call("var", unbiased=False),
        _numpy(np.var),
        _torch("var", correction=0),
    ),
    Reduction("std", _call("std"), _numpy(np.std, ddof=1), _torch("std")),
    Reduction(
        "logsumexp",
        _call("logsumexp"),
        lambda x, axis, keepdim: _logsumexp(x, _axes(axis, x.ndim), keepdim),
        _torch("logsumexp"),
    ),
    Reduction("nansum", _call("nansum"), _numpy(np.nansum), _torch("nansum")),
    Reduction("nanmean", _call("nanmean"), _numpy(np.nanmean), _torch("nanmean")),
]
AXES = [None, 0, -1, [0, 2], (1,), []]


def ids(ops):
    return [op.name for op in ops]


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reduction_forward_matches_numpy(op, axis, keepdim, dtype):
    x = op.sample((2, 3, 4), dtype)
    out = op.op(framework.to_tensor(x), axis, keepdim)
    expected = op.reference(x.astype(np.float64), axis, keepdim)
    assert out.dtype == dtype
    assert out.shape == list(np.shape(expected))
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduction_of_a_0d_tensor(op, keepdim):
    x = np.array(1.5)
    for axis in (None, 0, -1):
        out = op.op(framework.to_tensor(x), axis, keepdim)
        assert out.shape == []
        if op.name.startswith(("var", "std")):
            assert np.isnan(out.item()) or op.name == "var_biased"
        else:
            np.testing.assert_allclose(out.numpy(), op.reference(x, None, False))


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("axis", [None, 1, [0, 2]], ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduction_backward(op, axis, keepdim):
    check_backward(lambda x: op.op(x, axis, keepdim), [op.sample((2, 3, 2))])


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("axis", [None, 1], ids=str)
def test_reduction_double_backward(op, axis):
    check_double_backward(lambda x: op.op(x, axis, False), [op.sample((2, 3))])


@pytest.mark.parametrize("op", OPS, ids=ids(OPS))
@pytest.mark.parametrize("axis", [None, 1, (0, 2)], ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduction_matches_torch(op, axis, keepdim):
    torch = pytest.importorskip("torch")
    x = op.sample((3, 4, 5), np.float32, seed=5)
    ours = framework.to_tensor(x, stop_gradient=False)
    out = op.op(ours, axis, keepdim)
    g = np.random.default_rng(6).standard_normal(out.shape).astype(np.float32)
    out.backward(framework.to_tensor(g))
    theirs = torch.tensor(x, requires_grad=True)
    expected = op.torch_op(theirs, axis, keepdim)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert ours.grad.dtype == np.float32


@pytest.mark.parametrize("name", ["sum", "mean", "nansum", "nanmean", "logsumexp", "prod"])
def test_reduction_over_an_empty_axis(name):
    x = framework.zeros([0, 3])
    out = getattr(framework, name)(x, axis=0)
    with np.errstate(all="ignore"):
        expected = {
            "sum": np.zeros(3),
            "mean": np.full(3, np.nan),
            "nansum": np.zeros(3),
            "nanmean": np.full(3, np.nan),
            "logsumexp": np.full(3, -np.inf),
            "prod": np.ones(3),
        }[name]
    np.testing.assert_array_equal(out.numpy(), expected)
    assert getattr(framework, name)(x, axis=1).shape == [0]


def test_max_over_an_empty_axis_is_a_clear_error():
    with pytest.raises(ValueError, match="empty axis"):
        framework.max(framework.zeros([0, 3]), axis=0)
    assert framework.max(framework.zeros([0, 3]), axis=1).shape == [0]


@pytest.mark.parametrize("name", ["max", "amax", "min", "amin"])
def test_extrema_split_the_gradient_evenly_among_ties(name):
    x = framework.to_tensor([[3.0, 1.0, 3.0], [1.0, 1.0, 1.0]], stop_gradient=False)
    getattr(framework, name)(x, axis=1).sum().backward()
    expected = {
        "max": [[0.5, 0.0, 0.5], [1 / 3, 1 / 3, 1 / 3]],
        "min": [[0.0, 1.0, 0.0], [1 / 3, 1 / 3, 1 / 3]],
    }[name.replace("a", "", 1) if name.startswith("a") else name]
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_prod_gradient_is_exact_where_inputs_are_zero():
    x = framework.to_tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]], "float64", stop_gradient=False)
    framework.prod(x, axis=1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]])
    check_backward(lambda t: t.prod(axis=1), [np.array([[2.0, 0.0, 3.0], [1.5, 0.5, 0.0]])])


def test_prod_second_derivative_at_zeros_is_a_clear_error():
    x = framework.to_tensor([2.0, 0.0, 3.0], "float64", stop_gradient=False)
    (gx,) = framework.grad(framework.prod(x), x, create_graph=True)
    with pytest.raises(NotImplementedError, match="contain zeros"):
        gx.sum().backward()


def test_sum_dtypes_follow_paddle():
    assert framework.sum(framework.to_tensor([True, True])).dtype == np.int64
    assert framework.sum(framework.to_tensor([1, 2], dtype="int32")).dtype == np.int64
    out = framework.sum(framework.to_tensor([1.5, 2.0]), dtype="float64")
    assert out.dtype == np.float64 and out.item() == 3.5


def test_sum_with_a_dtype_keeps_the_gradient_in_the_input_dtype():
    x = framework.to_tensor([1.0, 2.0], dtype="float32", stop_gradient=False)
    (framework.sum(x, dtype="float64") * 2.0).backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    check_double_backward(lambda t: framework.sum(t * t, dtype="float32"), [np.ones(3)])


def test_mean_of_integers_is_truncated_like_paddle():
    out = framework.mean(framework.to_tensor([1, 2]))
    assert out.dtype == np.int64 and out.item() == 1


def test_nan_reductions_skip_nans_and_give_them_no_gradient():
    x = framework.to_tensor([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]], stop_gradient=False)
    np.testing.assert_array_equal(framework.nansum(x, axis=1).numpy(), [4.0, 0.0])
    mean = framework.nanmean(x, axis=1)
    np.testing.assert_array_equal(mean.numpy(), [2.0, np.nan])
    with np.errstate(all="ignore"):  # the all-nan row's gradient is 0/0
        mean.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy()[0], [0.5, 0.0, 0.5])


def test_logsumexp_is_stable_and_handles_all_minus_infinity():
    x = framework.to_tensor([[1000.0, 1000.0], [-np.inf, -np.inf]])
    out = framework.logsumexp(x, axis=1).numpy()
    np.testing.assert_allclose(out[0], 1000.0 + np.log(2.0))
    assert out[1] == -np.inf


def test_var_correction_keyword():
    x = framework.to_tensor([1.0, 2.0, 4.0], "float64")
    assert framework.var(x, correction=0).item() == pytest.approx(np.var([1, 2, 4]))
    assert framework.var(x, unbiased=True, correction=0).item() == pytest.approx(7 / 3)


def test_reduction_method_forms_are_bound():
    x = framework.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.sum().item() == 10.0
    assert x.mean(axis=0).numpy().tolist() == [2.0, 3.0]
    assert x.max(axis=1, keepdim=True).shape == [2, 1]
    assert x.prod().item() == 24.0
    assert x.logsumexp().shape == []
    assert x.std(axis=1).shape == [2]


def test_prod_writes_into_out():
    out = framework.zeros([2])
    assert framework.prod(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 1, out=out) is out
    assert out.numpy().tolist() == [2.0, 12.0]
