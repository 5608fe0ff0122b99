"""The in-place random fills `random_`, `cauchy_`, `geometric_` and `log_normal_`: seeded
repeatability, in-place identity, dtype and range, and distribution statistics."""

from __future__ import annotations

import numpy as np
import pytest

import framework

N = 200_000

FILLS = {
    "random_": lambda x: x.random_(0, 10),
    "cauchy_": lambda x: x.cauchy_(1.0, 2.0),
    "geometric_": lambda x: x.geometric_(0.3),
    "log_normal_": lambda x: x.log_normal_(),
}


@pytest.mark.parametrize("name", FILLS)
def test_it_fills_in_place_keeping_shape_and_dtype(name):
    x = framework.zeros([3, 4], dtype="float64")
    out = FILLS[name](x)
    assert out is x
    assert x.shape == [3, 4] and x.dtype == np.dtype("float64")
    assert np.isfinite(x.numpy()).all() and not (x.numpy() == 0).all()


@pytest.mark.parametrize("name", FILLS)
def test_the_same_seed_repeats_the_values(name):
    framework.seed(7)
    first = FILLS[name](framework.zeros([50])).numpy()
    framework.seed(7)
    again = FILLS[name](framework.zeros([50])).numpy()
    framework.seed(8)
    other = FILLS[name](framework.zeros([50])).numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize("name", FILLS)
def test_it_refuses_a_leaf_that_needs_a_gradient(name):
    x = framework.zeros([3])
    x.stop_gradient = False
    with pytest.raises(RuntimeError, match="inplace"):
        FILLS[name](x)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32", "float64"])
def test_random_draws_integers_in_the_half_open_range(dtype):
    framework.seed(0)
    x = framework.zeros([N], dtype=dtype).random_(3, 13)
    values = x.numpy()
    assert x.dtype == np.dtype(dtype)
    assert values.min() == 3 and values.max() == 12
    np.testing.assert_array_equal(values, np.round(values))
    counts = np.bincount(values.astype(np.int64) - 3, minlength=10)
    np.testing.assert_allclose(counts / N, 0.1, atol=0.005)


def test_random_with_one_bound_draws_below_it():
    framework.seed(0)
    values = framework.zeros([N], dtype="int64").random_(5).numpy()
    assert values.min() == 0 and values.max() == 4


@pytest.mark.parametrize(
    ("dtype", "bound"),
    [("float32", 2**24), ("float64", 2**53), ("float16", 2**11), ("int16", 2**15 - 1)],
)
def test_random_without_bounds_stays_within_what_the_dtype_holds_exactly(dtype, bound):
    framework.seed(0)
    values = framework.zeros([N], dtype=dtype).random_().numpy().astype(np.float64)
    assert values.min() >= 0 and values.max() <= bound
    assert values.max() > bound / 2  # spread over the whole range, not a small one


def test_random_rejects_an_empty_range():
    with pytest.raises(ValueError, match="less than 'to'"):
        framework.zeros([2], dtype="int64").random_(5, 5)


def test_cauchy_has_its_median_and_quartiles():
    framework.seed(0)
    values = framework.zeros([N], dtype="float64").cauchy_(loc=1.0, scale=2.0).numpy()
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    # Cauchy(loc, scale) has quartiles loc -/+ scale.
    assert median == pytest.approx(1.0, abs=0.03)
    assert q1 == pytest.approx(-1.0, abs=0.05) and q3 == pytest.approx(3.0, abs=0.05)


def test_cauchy_rejects_a_non_positive_scale_and_an_integer_tensor():
    with pytest.raises(ValueError, match="positive"):
        framework.zeros([2]).cauchy_(scale=0)
    with pytest.raises(TypeError, match="float dtype"):
        framework.zeros([2], dtype="int64").cauchy_()


def test_geometric_is_paddles_unrounded_log_ratio():
    framework.seed(0)
    p = 0.3
    values = framework.zeros([N], dtype="float64").geometric_(p).numpy()
    assert values.min() > 0
    # log(u) / log(1 - p) is exponential with mean -1 / log(1 - p)...
    assert values.mean() == pytest.approx(-1.0 / np.log1p(-p), rel=0.01)
    # ...and its ceiling is the trial of the first success: mean 1 / p, P(1) = p.
    trials = np.ceil(values)
    assert trials.mean() == pytest.approx(1.0 / p, rel=0.01)
    assert (trials == 1).mean() == pytest.approx(p, abs=0.005)


def test_geometric_takes_a_tensor_of_probabilities_broadcast_to_x():
    framework.seed(0)
    probs = framework.to_tensor([0.2, 0.8], dtype="float64")
    values = framework.zeros([N, 2], dtype="float64").geometric_(probs).numpy()
    np.testing.assert_allclose(values.mean(axis=0), -1.0 / np.log1p(-probs.numpy()), rtol=0.02)


def test_geometric_rejects_probabilities_outside_zero_one():
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        framework.zeros([2]).geometric_(1.5)


def test_log_normal_has_the_underlying_normal_moments():
    framework.seed(0)
    values = framework.zeros([N], dtype="float64").log_normal_(mean=0.5, std=0.25).numpy()
    logs = np.log(values)
    assert logs.mean() == pytest.approx(0.5, abs=0.005)
    assert logs.std() == pytest.approx(0.25, rel=0.01)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_float_fills_keep_a_narrow_float_dtype(dtype):
    x = framework.zeros([4], dtype=dtype)
    for fill in FILLS.values():
        assert fill(x).dtype == np.dtype(dtype)


def test_the_fills_are_paddles_module_level_names_too():
    assert framework.cauchy_ is framework.Tensor.cauchy_
    assert framework.geometric_ is framework.Tensor.geometric_
    assert framework.log_normal_ is framework.Tensor.log_normal_
    assert framework.tensor.random.random_ is framework.Tensor.random_
