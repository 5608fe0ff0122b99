"""diff, trapezoid, cumulative_trapezoid: NumPy/SciPy-style reference, gradients of two
orders, PaddlePaddle parity, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward

RNG = np.random.default_rng(0)
Y = RNG.standard_normal((3, 5)).astype(np.float32)
X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0 - 1.0
PTS = np.array([0.0, 1, 3, 4, 7], np.float32)


def _rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


def _np_cumtrapz(y, x=None, dx=1.0, axis=-1):
    y = np.moveaxis(y, axis, -1)
    widths = np.diff(x) if x is not None else dx
    out = np.cumsum((y[..., 1:] + y[..., :-1]) / 2 * widths, axis=-1)
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("n,axis", [(1, -1), (2, -1), (1, 0), (3, 1), (0, 0), (7, -1)])
def test_diff_matches_numpy_and_has_gradients(n, axis):
    x = _rand((4, 5))
    got = framework.diff(_t(x), n=n, axis=axis)
    np.testing.assert_allclose(got.numpy(), np.diff(x, n, axis))
    assert got.dtype == np.float64
    if got.size:
        check_backward(lambda t: framework.diff(t, n, axis), [x])
        check_double_backward(lambda t: framework.diff(t * t, n, axis), [x])


def test_diff_prepend_append_ints_and_bools():
    x, pre, app = _rand((3, 4)), _rand((3, 2), 1), _rand((3, 1), 2)
    got = framework.diff(_t(x), prepend=_t(pre), append=_t(app))
    np.testing.assert_allclose(got.numpy(), np.diff(x, prepend=pre, append=app))
    check_backward(lambda a, b, c: framework.diff(a, 1, -1, b, c), [x, pre, app])
    ints = framework.diff(_t([1, 4, 9], "int32"))
    assert ints.dtype == np.int32 and ints.numpy().tolist() == [3, 5]
    bools = framework.diff(_t([True, False, False, True]))
    assert bools.dtype == np.bool_
    assert bools.numpy().tolist() == np.diff([True, False, False, True]).tolist()


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("spacing", ["unit", "dx", "x1d", "xfull"])
def test_trapezoid_and_cumulative_match_numpy(axis, spacing):
    y = _rand((3, 5)) if axis == -1 else _rand((5, 3))
    kwargs, np_kwargs = {}, {}
    if spacing == "dx":
        kwargs = np_kwargs = {"dx": 0.5}
    elif spacing == "x1d":
        kwargs, np_kwargs = {"x": _t(PTS.astype(np.float64))}, {"x": PTS.astype(np.float64)}
    elif spacing == "xfull":
        xs = np.cumsum(np.abs(_rand(y.shape, 3)), axis=axis)
        kwargs, np_kwargs = {"x": _t(xs)}, {"x": xs}
    got = framework.trapezoid(_t(y), axis=axis, **kwargs)
    np.testing.assert_allclose(got.numpy(), np.trapezoid(y, axis=axis, **np_kwargs))
    assert got.dtype == np.float64
    got = framework.cumulative_trapezoid(_t(y), axis=axis, **kwargs)
    if spacing == "xfull":
        want = np.cumsum(
            np.diff(np_kwargs["x"], axis=axis)
            * (np.take(y, range(1, 5), axis) + np.take(y, range(4), axis))
            / 2,
            axis=axis,
        )
    else:
        want = _np_cumtrapz(y, np_kwargs.get("x"), np_kwargs.get("dx", 1.0), axis)
    np.testing.assert_allclose(got.numpy(), want)
    check_backward(lambda t: framework.trapezoid(t, axis=axis, **kwargs), [y])
    check_double_backward(lambda t: framework.cumulative_trapezoid(t * t, axis=axis, **kwargs), [y])


def test_trapezoid_gradient_in_sample_points():
    y, xs = _rand((5,)), np.cumsum(np.abs(_rand((5,), 1)))
    check_backward(lambda a, b: framework.trapezoid(a, x=b), [y, xs])
    check_double_backward(lambda a, b: framework.cumulative_trapezoid(a, x=b), [y, xs])
    assert framework.trapezoid(_t([1, 2, 3])).dtype == np.float32


PARITY = {
    "diff": lambda m: m.diff(m.to_tensor([1, 4, 9])),
    "diff_n2": lambda m: m.diff(m.to_tensor(Y), n=2),
    "diff_negative_axis": lambda m: m.diff(m.to_tensor(X), axis=-2),
    "diff_prepend_append": lambda m: m.diff(
        m.to_tensor(Y), prepend=m.to_tensor(Y[:, :2]), append=m.to_tensor(Y[:, :1])
    ),
    "diff_bool": lambda m: m.diff(m.to_tensor([True, False, False, True])),
    "diff_n_past_length": lambda m: m.diff(m.to_tensor([1.0, 2.0]), n=3),
    "trapezoid": lambda m: m.trapezoid(m.to_tensor(Y)),
    "trapezoid_dx": lambda m: m.trapezoid(m.to_tensor(Y), dx=0.5),
    "trapezoid_x": lambda m: m.trapezoid(m.to_tensor(Y), x=m.to_tensor(PTS)),
    "trapezoid_axis0": lambda m: m.trapezoid(m.to_tensor(Y), axis=0),
    "cumulative_trapezoid": lambda m: m.cumulative_trapezoid(m.to_tensor(Y)),
    "cumulative_trapezoid_x": lambda m: m.cumulative_trapezoid(m.to_tensor(Y), x=m.to_tensor(PTS)),
    "cumulative_trapezoid_axis0": lambda m: m.cumulative_trapezoid(m.to_tensor(Y), dx=2.0, axis=0),
}


@pytest.mark.parametrize("case", sorted(PARITY))
def test_matches_paddle(case):
    paddle = pytest.importorskip("paddle")
    ours, theirs = PARITY[case](framework), PARITY[case](paddle)
    assert ours.shape == list(theirs.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="non-negative"):
        framework.diff(_t(Y), n=-1)
    with pytest.raises(ValueError, match="out of range"):
        framework.diff(_t(3.0))
    with pytest.raises(ValueError, match="out of range"):
        framework.diff(_t(Y), axis=2)
    with pytest.raises(ValueError, match="x or dx, not both"):
        framework.trapezoid(_t(Y), x=_t(PTS), dx=1.0)
    with pytest.raises(ValueError, match="4 points for 5 samples"):
        framework.trapezoid(_t(Y), x=_t(PTS[:4]))
    with pytest.raises(ValueError, match="out of range"):
        framework.cumulative_trapezoid(_t(Y), axis=3)
