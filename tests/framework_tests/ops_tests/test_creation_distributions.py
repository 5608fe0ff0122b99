"""log_normal, log_normal_, binomial, poisson, standard_gamma: seeded repeatability, dtypes as
Paddle gives them, and sample statistics against the distributions' moments."""

from __future__ import annotations

import numpy as np
import pytest

import framework

N = 20000


def _t(a, dtype=None):
    return framework.to_tensor(np.asarray(a), dtype=dtype)


def test_log_normal_moments_and_repeatability():
    framework.seed(1)
    a = framework.log_normal(0.0, 0.5, shape=[N])
    framework.seed(1)
    b = framework.log_normal(0.0, 0.5, shape=[N])
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert a.dtype == np.float32
    logs = np.log(a.numpy())
    assert abs(logs.mean()) < 0.02 and abs(logs.std() - 0.5) < 0.02
    per_mean = framework.log_normal(_t([0.0, 2.0]), _t([1e-6, 1e-6]))
    np.testing.assert_allclose(per_mean.numpy(), np.exp([0.0, 2.0]), rtol=1e-4)


def test_log_normal_inplace():
    x = framework.zeros([N], dtype="float64")
    assert framework.log_normal_(x, 1.0, 0.25) is x
    assert x.dtype == np.float64
    assert abs(np.log(x.numpy()).mean() - 1.0) < 0.02
    x.log_normal_()
    assert (x.numpy() > 0).all()


def test_binomial_poisson_standard_gamma_moments():
    framework.seed(2)
    counts = framework.binomial(_t(np.full(N, 10)), _t(np.full(N, 0.3, np.float32)))
    assert counts.dtype == np.int64 and abs(counts.numpy().mean() - 3.0) < 0.05
    rates = framework.poisson(_t(np.full(N, 4.0, np.float32)))
    assert rates.dtype == np.float32 and abs(rates.numpy().mean() - 4.0) < 0.06
    gammas = framework.standard_gamma(_t(np.full(N, 2.0)))
    assert gammas.dtype == np.float64 and abs(gammas.numpy().var() - 2.0) < 0.1


def test_dtypes_match_paddle():
    paddle = pytest.importorskip("paddle")
    pairs = [
        (framework.binomial(_t([10, 20]), _t([0.5, 0.2])),
         paddle.binomial(paddle.to_tensor([10, 20]), paddle.to_tensor([0.5, 0.2]))),
        (framework.poisson(_t([1.0, 2.0], "float32")),
         paddle.poisson(paddle.to_tensor([1.0, 2.0]))),
        (framework.standard_gamma(_t([1.0, 2.0], "float64")),
         paddle.standard_gamma(paddle.to_tensor([1.0, 2.0], "float64"))),
        (framework.log_normal(shape=[2]), paddle.log_normal(shape=[2])),
    ]  # fmt: skip
    for ours, theirs in pairs:
        assert str(ours.dtype) == str(theirs.dtype).replace("paddle.", "")
        assert ours.shape == list(theirs.shape) and ours.stop_gradient


def test_bad_arguments():
    with pytest.raises(TypeError):
        framework.poisson([1.0])
    with pytest.raises(ValueError):
        framework.log_normal(0.0, 1.0)
