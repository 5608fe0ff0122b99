"""Random ops: seeded determinism, shapes, dtypes, ranges and distribution sanity."""

from __future__ import annotations

import numpy as np
import pytest

import framework

DRAWS = {
    "rand": lambda: framework.rand([3, 4]),
    "randn": lambda: framework.randn([3, 4]),
    "standard_normal": lambda: framework.standard_normal([3, 4]),
    "uniform": lambda: framework.uniform([3, 4], min=-2.0, max=2.0),
    "normal": lambda: framework.normal(1.0, 2.0, [3, 4]),
    "normal_tensor": lambda: framework.normal(framework.zeros([3, 4]), framework.ones([4])),
    "randint": lambda: framework.randint(0, 100, [3, 4]),
    "randint_like": lambda: framework.randint_like(framework.zeros([3, 4]), 0, 100),
    "randperm": lambda: framework.randperm(12),
    "bernoulli": lambda: framework.bernoulli(framework.full([3, 4], 0.5)),
    "multinomial": lambda: framework.multinomial(framework.ones([3, 10]), 4),
    "multinomial_replacement": lambda: framework.multinomial(framework.ones([10]), 8, True),
    "uniform_": lambda: framework.zeros([3, 4]).uniform_(),
    "normal_": lambda: framework.zeros([3, 4]).normal_(),
}


@pytest.mark.parametrize("name", DRAWS)
def test_same_seed_same_values_and_different_seed_different_values(name):
    draw = DRAWS[name]
    framework.seed(123)
    first = draw().numpy()
    framework.seed(123)
    again = draw().numpy()
    framework.seed(124)
    other = draw().numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_successive_draws_differ():
    framework.seed(0)
    assert not np.array_equal(framework.rand([8]).numpy(), framework.rand([8]).numpy())


@pytest.mark.parametrize("name", ["rand", "randn", "standard_normal", "uniform"])
@pytest.mark.parametrize("dtype", [None, "float16", "float32", "float64"])
def test_float_draws_have_the_dtype_and_shape(name, dtype):
    out = getattr(framework, name)([2, 0, 3] if name == "rand" else [5, 2], dtype=dtype)
    assert out.dtype == np.dtype(dtype or "float32") and out.stop_gradient
    assert out.shape == ([2, 0, 3] if name == "rand" else [5, 2])


def test_float_draws_refuse_integer_dtypes():
    with pytest.raises(TypeError, match="float dtype"):
        framework.rand([2], dtype="int64")


def test_uniform_and_rand_stay_in_range():
    assert 0.0 <= framework.rand([10000]).numpy().min()
    assert framework.rand([10000]).numpy().max() < 1.0
    values = framework.uniform([10000], min=-3.0, max=-1.0).numpy()
    assert -3.0 <= values.min() and values.max() < -1.0
    assert abs(values.mean() + 2.0) < 0.05


def test_uniform_defaults_to_zero_one_and_a_seed_gives_a_fixed_stream():
    values = framework.uniform([1000]).numpy()
    assert values.min() >= 0.0 and values.max() < 1.0
    a = framework.uniform([5], seed=7).numpy()
    b = framework.uniform([5], seed=7).numpy()
    np.testing.assert_array_equal(a, b)


def test_normal_moments():
    values = framework.normal(3.0, 2.0, [20000]).numpy()
    assert abs(values.mean() - 3.0) < 0.1 and abs(values.std() - 2.0) < 0.1
    standard = framework.randn([20000]).numpy()
    assert abs(standard.mean()) < 0.05 and abs(standard.std() - 1.0) < 0.05


def test_normal_with_tensor_mean_and_std_broadcasts():
    mean = framework.to_tensor([0.0, 100.0], dtype="float64")
    out = framework.normal(mean, framework.to_tensor([[1e-3], [1e-3]], dtype="float64"))
    assert out.shape == [2, 2] and out.dtype == np.float64
    np.testing.assert_allclose(out.numpy(), [[0.0, 100.0], [0.0, 100.0]], atol=0.01)
    with pytest.raises(ValueError, match="shape"):
        framework.normal(0.0, 1.0)


def test_randint_range_and_dtype():
    values = framework.randint(-3, 3, [5000])
    assert values.dtype == np.int64
    assert set(values.numpy().tolist()) == set(range(-3, 3))
    assert framework.randint(5, shape=[100]).numpy().max() < 5
    assert framework.randint(0, 2, [3], dtype="int32").dtype == np.int32
    with pytest.raises(ValueError, match="less than"):
        framework.randint(3, 3)


def test_randint_like_takes_shape_and_dtype_of_x():
    out = framework.randint_like(framework.zeros([2, 3], dtype="float64"), 10)
    assert out.shape == [2, 3] and out.dtype == np.float64
    assert out.numpy().max() < 10


def test_randperm_is_a_permutation():
    out = framework.randperm(50)
    assert out.dtype == np.int64
    assert sorted(out.numpy().tolist()) == list(range(50))
    assert framework.randperm(4, dtype="float32").dtype == np.float32


def test_bernoulli():
    probabilities = framework.to_tensor([0.0, 1.0, 0.0, 1.0])
    assert framework.bernoulli(probabilities).numpy().tolist() == [0.0, 1.0, 0.0, 1.0]
    assert framework.bernoulli(probabilities, p=1.0).numpy().tolist() == [1.0] * 4
    mean = framework.bernoulli(framework.full([20000], 0.3)).numpy().mean()
    assert abs(mean - 0.3) < 0.02


def test_multinomial_with_replacement_follows_the_weights():
    weights = framework.to_tensor([[1.0, 0.0, 3.0], [0.0, 1.0, 0.0]])
    out = framework.multinomial(weights, 4000, replacement=True).numpy()
    assert out.shape == (2, 4000) and out.dtype == np.int64
    counts = np.bincount(out[0], minlength=3) / 4000
    np.testing.assert_allclose(counts, [0.25, 0.0, 0.75], atol=0.03)
    assert (out[1] == 1).all()


def test_multinomial_without_replacement_draws_distinct_categories():
    out = framework.multinomial(framework.to_tensor([0.1, 0.0, 5.0, 1.0]), 3).numpy()
    assert sorted(out.tolist()) == [0, 2, 3]
    with pytest.raises(ValueError, match="without replacement"):
        framework.multinomial(framework.to_tensor([0.0, 1.0, 1.0]), 3)
    with pytest.raises(ValueError, match="non-negative"):
        framework.multinomial(framework.to_tensor([-1.0, 1.0]), 1)


def test_inplace_random_fills_keep_shape_and_dtype():
    x = framework.zeros([100, 3], dtype="float64")
    assert x.uniform_(min=2.0, max=3.0) is x
    assert x.dtype == np.float64 and 2.0 <= x.numpy().min() and x.numpy().max() < 3.0
    x.normal_(mean=5.0, std=0.01)
    assert abs(x.numpy().mean() - 5.0) < 0.01
    with pytest.raises(RuntimeError, match="inplace"):
        framework.to_tensor(np.zeros(2), stop_gradient=False).uniform_()


def test_bernoulli_and_exponential_inplace():
    x = framework.zeros([20000])
    assert x.bernoulli_(0.25) is x
    assert abs(x.numpy().mean() - 0.25) < 0.02 and set(np.unique(x.numpy())) <= {0.0, 1.0}
    assert framework.bernoulli_(x, framework.full([20000], 1.0)) is x and x.numpy().all()
    x.exponential_(lam=4.0)
    assert x.numpy().min() >= 0.0 and abs(x.numpy().mean() - 0.25) < 0.02
    framework.seed(3)
    first = framework.zeros([4]).exponential_().numpy()
    framework.seed(3)
    np.testing.assert_array_equal(first, framework.zeros([4]).exponential_().numpy())
