"""The math, reduction, logic and creation ops on a GPU give what they give on the CPU
(forward and gradients). Run by `make gpu-check`; skipped where no CUDA GPU is usable."""

from __future__ import annotations

import numpy as np
import pytest

import framework

pytestmark = pytest.mark.gpu

OPS = {
    "exp": lambda x, y: framework.exp(x) * y,
    "log": lambda x, y: framework.log(framework.abs(x) + 1.0) + framework.log2(y * y + 1.0),
    "erf": lambda x, y: framework.erf(x * y),
    "tanh_sin": lambda x, y: framework.tanh(x) * framework.sin(y),
    "sqrt_pow": lambda x, y: framework.sqrt(x * x + 1.0) + framework.pow(x * x + 0.5, y),
    "divide": lambda x, y: x / (y * y + 1.0),
    "remainder": lambda x, y: framework.remainder(x, y * y + 1.0),
    "maximum": lambda x, y: framework.maximum(x, y) - framework.minimum(x, y),
    "atan2_lerp": lambda x, y: framework.atan2(x, y) + framework.lerp(x, y, 0.3),
    "round_sign": lambda x, y: framework.round(x) * y + framework.sign(y) * x,
    "sum_mean": lambda x, y: x.sum(axis=1) + y.mean(axis=1, keepdim=False),
    "max_min": lambda x, y: x.max(axis=0) + framework.amin(y, axis=0),
    "prod": lambda x, y: framework.prod(x * y, axis=1),
    "var_std": lambda x, y: x.var(axis=1) + y.std(axis=0).sum(),
    "logsumexp": lambda x, y: framework.logsumexp(x - y, axis=[0, 1]),
    "nansum": lambda x, y: framework.nansum(x) + framework.nanmean(y, axis=0).sum(),
}


@pytest.fixture
def on_gpu():
    framework.set_device("gpu")
    yield
    framework.set_device("cpu")


def _run(op, x, y, device):
    tx = framework.to_tensor(x, place=device, stop_gradient=False)
    ty = framework.to_tensor(y, place=device, stop_gradient=False)
    out = op(tx, ty)
    out.backward(framework.ones_like(out))
    return out.numpy(), tx.grad.numpy(), ty.grad.numpy(), out.place


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_op_on_gpu_matches_cpu(name, dtype):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.2, 2.0, (3, 4)).astype(dtype)
    y = rng.uniform(-2.0, 2.0, (3, 4)).astype(dtype)
    cpu = _run(OPS[name], x, y, "cpu")
    gpu = _run(OPS[name], x, y, "gpu")
    assert gpu[3].is_gpu_place()
    rtol = 1e-5 if dtype == "float32" else 1e-10
    for got, expected in zip(gpu[:3], cpu[:3], strict=True):
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


def test_comparisons_and_logic_on_gpu():
    x = framework.to_tensor([1, 2, 3], place="gpu")
    assert (x > 1).place.is_gpu_place()
    assert (x >= 2).numpy().tolist() == [False, True, True]
    assert framework.logical_and(x > 1, x < 3).numpy().tolist() == [False, True, False]
    assert framework.equal_all(x, x).item() is True
    assert framework.allclose(x * 1.0, x * 1.0).item() is True
    assert framework.argmax(x).item() == 2 and framework.count_nonzero(x - 1).item() == 2


def test_creation_and_random_follow_the_current_device(on_gpu):
    for tensor in (
        framework.zeros([2]),
        framework.full([2], 3.0),
        framework.arange(4),
        framework.linspace(0, 1, 3),
        framework.eye(2),
        framework.rand([2]),
        framework.randn([2]),
        framework.randint(0, 3, [2]),
        framework.randperm(3),
        framework.uniform([2]),
        framework.normal(0.0, 1.0, [2]),
    ):
        assert tensor.place.is_gpu_place()


def test_seeded_draws_are_the_same_on_gpu_and_cpu(on_gpu):
    framework.seed(5)
    on_device = framework.randn([4]).numpy()
    framework.set_device("cpu")
    framework.seed(5)
    np.testing.assert_array_equal(on_device, framework.randn([4]).numpy())
