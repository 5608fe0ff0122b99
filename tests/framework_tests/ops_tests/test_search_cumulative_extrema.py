"""cummax, cummin, logcumsumexp: NumPy reference, gradients of two orders, PyTorch and
PaddlePaddle parity (ties, NaN, 0-D, ints), bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)
Y = RNG.standard_normal((3, 5)).astype(np.float32)
X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0
NANS = np.array([3.0, 1.0, 3.0, 2.0, np.nan, 5.0, np.nan, 1.0], np.float32)


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


@pytest.mark.parametrize("op,ufunc", [("cummax", np.maximum), ("cummin", np.minimum)])
@pytest.mark.parametrize(
    "shape,axis",
    [((6,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -2), ((3, 4), None), ((0, 3), 1)],
)
def test_running_extrema_match_numpy_and_have_gradients(op, ufunc, shape, axis):
    x = _rand(shape)
    values, indices = getattr(framework, op)(_t(x), axis=axis)
    flat = x.ravel() if axis is None else x
    ax = 0 if axis is None else axis
    np.testing.assert_array_equal(values.numpy(), ufunc.accumulate(flat, axis=ax))
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.numpy(), ax), values.numpy())
    assert values.dtype == np.float64 and indices.dtype == np.int64
    if x.size:
        check_backward(lambda t: getattr(framework, op)(t, axis=axis)[0], [x])
        check_double_backward(lambda t: getattr(framework, op)(t * t, axis=axis)[0], [x])


def test_running_extrema_take_the_last_tie_and_propagate_nan_like_torch():
    torch = pytest.importorskip("torch")
    ties = np.array([1.0, 3.0, 2.0, 3.0, 0.0, 3.0], np.float32)
    for data in (ties, NANS, Y):
        for op in ("cummax", "cummin"):
            values, indices = getattr(framework, op)(_t(data), axis=-1)
            ref = getattr(torch, op)(torch.tensor(data), -1)
            np.testing.assert_array_equal(values.numpy(), ref.values.numpy())
            np.testing.assert_array_equal(indices.numpy(), ref.indices.numpy())
    ours = framework.to_tensor(ties, stop_gradient=False)
    theirs = torch.tensor(ties, requires_grad=True)
    framework.cummax(ours, axis=0)[0].sum().backward()
    torch.cummax(theirs, 0).values.sum().backward()
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())


def test_running_extrema_dtypes():
    values, indices = framework.cummax(_t([1, 3, 2], "int32"), dtype="int32")
    assert values.dtype == np.int32 and indices.dtype == np.int32
    assert values.numpy().tolist() == [1, 3, 3]
    assert framework.cummin(_t(3.0))[0].shape == [1]
    assert framework.cummin(_t(3.0), axis=0)[1].shape == []


@pytest.mark.parametrize(
    "shape,axis", [((6,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((3, 4), None)]
)
def test_logcumsumexp_matches_numpy_and_has_gradients(shape, axis):
    x = _rand(shape) * 3
    got = framework.logcumsumexp(_t(x), axis=axis)
    flat = x.ravel() if axis is None else x
    want = np.logaddexp.accumulate(flat, axis=0 if axis is None else axis)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    check_backward(lambda t: framework.logcumsumexp(t, axis=axis), [x])
    check_double_backward(lambda t: framework.logcumsumexp(t, axis=axis), [x])


def test_logcumsumexp_is_stable_and_matches_torch_gradients():
    torch = pytest.importorskip("torch")
    big = framework.logcumsumexp(_t(np.array([1000.0, 1000.0, -np.inf], np.float32)))
    np.testing.assert_allclose(big.numpy(), [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2)])
    x = Y * 10
    ours = framework.to_tensor(x, stop_gradient=False)
    theirs = torch.tensor(x, requires_grad=True)
    g = RNG.standard_normal(x.shape).astype(np.float32)
    framework.logcumsumexp(ours, axis=1).backward(_t(g))
    torch.logcumsumexp(theirs, 1).backward(torch.tensor(g))
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)
    assert framework.logcumsumexp(_t([1, 2])).dtype == np.float32
    assert framework.logcumsumexp(_t(Y), axis=0, dtype="float64").dtype == np.float64
    assert framework.logcumsumexp(_t(3.0)).shape == [1]
    assert framework.logcumsumexp(_t(3.0), axis=0).shape == []


PARITY = {
    "cummax_ties": lambda m: list(m.cummax(m.to_tensor([1.0, 3.0, 2.0, 3.0, 0.0]))),
    "cummax_rows": lambda m: list(m.cummax(m.to_tensor(Y), axis=1)),
    "cummin_negative_axis": lambda m: list(m.cummin(m.to_tensor(X), axis=-2)),
    "cummax_flattened": lambda m: list(m.cummax(m.to_tensor(Y))),
    "cummax_int32_indices": lambda m: list(m.cummax(m.to_tensor([1, 3, 2, 3]), dtype="int32")),
    "cummax_nan": lambda m: list(m.cummax(m.to_tensor(NANS))),
    "cummin_nan": lambda m: list(m.cummin(m.to_tensor(NANS))),
    "cummax_0d": lambda m: list(m.cummax(m.to_tensor(3.0))),
    "cummin_empty": lambda m: list(m.cummin(m.zeros([0, 3]), axis=1)),
    "logcumsumexp": lambda m: m.logcumsumexp(m.to_tensor(Y), axis=1),
    "logcumsumexp_flattened": lambda m: m.logcumsumexp(m.to_tensor(Y)),
    "logcumsumexp_large": lambda m: m.logcumsumexp(m.to_tensor([1000.0, 1000.0])),
    "logcumsumexp_0d": lambda m: m.logcumsumexp(m.to_tensor(3.0)),
    "logcumsumexp_ints": lambda m: m.logcumsumexp(m.to_tensor([1, 2])),
    "logcumsumexp_dtype": lambda m: m.logcumsumexp(m.to_tensor(Y), axis=0, dtype="float64"),
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
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(TypeError, match="int32 or int64"):
        framework.cummax(_t(Y), dtype="float32")
    with pytest.raises(ValueError, match="out of range"):
        framework.cummin(_t(Y), axis=2)
    with pytest.raises(ValueError, match="out of range"):
        framework.logcumsumexp(_t(Y), axis=-3)
