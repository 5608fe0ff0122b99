"""GPU update paths (fused CuPy kernels) against the CPU NumPy paths. Run by `make gpu-check`."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.nn import ClipGradByGlobalNorm, ClipGradByNorm
from framework.optimizer import (
    ASGD,
    SGD,
    Adadelta,
    Adagrad,
    Adam,
    Adamax,
    AdamW,
    Lamb,
    Momentum,
    NAdam,
    RAdam,
    RMSProp,
    Rprop,
)

pytestmark = pytest.mark.gpu

CASES = {
    "sgd_l2": lambda ps: SGD(0.1, parameters=ps, weight_decay=0.01),
    "momentum": lambda ps: Momentum(0.1, parameters=ps),
    "momentum_nesterov_clip": lambda ps: Momentum(
        0.1, parameters=ps, use_nesterov=True, grad_clip=ClipGradByGlobalNorm(1.0)
    ),
    "adam": lambda ps: Adam(0.01, parameters=ps),
    "adam_amsgrad": lambda ps: Adam(0.01, parameters=ps, amsgrad=True),
    "adamw": lambda ps: AdamW(0.01, parameters=ps, weight_decay=0.1),
    "rmsprop": lambda ps: RMSProp(0.01, parameters=ps, momentum=0.5),
    "rmsprop_centered": lambda ps: RMSProp(0.01, parameters=ps, centered=True),
    "adagrad": lambda ps: Adagrad(0.1, parameters=ps, grad_clip=ClipGradByNorm(0.5)),
    "lamb": lambda ps: Lamb(0.01, parameters=ps),
    "lamb_no_decay": lambda ps: Lamb(0.01, lamb_weight_decay=0.0, parameters=ps),
    "adadelta": lambda ps: Adadelta(0.5, parameters=ps, weight_decay=0.01),
    "nadam": lambda ps: NAdam(0.01, parameters=ps),
    "adamax": lambda ps: Adamax(0.01, parameters=ps),
    "radam": lambda ps: RAdam(0.01, beta2=0.5, parameters=ps),
    "rprop": lambda ps: Rprop(0.01, parameters=ps),
    "asgd": lambda ps: ASGD(0.1, batch_num=2, parameters=ps),
}


@pytest.fixture
def on_gpu():
    framework.set_device("gpu")
    yield
    framework.set_device("cpu")


def run(build, weights, grads, device: str, dtype):
    framework.set_device(device)
    params = [Parameter(w.astype(dtype), name=f"g{i}") for i, w in enumerate(weights)]
    opt = build(params)
    for step_grads in grads:
        for p, g in zip(params, step_grads, strict=True):
            p.grad = framework.to_tensor(g.astype(dtype))
        opt.step()
    assert all(p.place.is_gpu_place() == (device == "gpu") for p in params)
    return [p.numpy() for p in params], opt


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gpu_update_matches_cpu(case, dtype, on_gpu):
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(s) for s in [(64, 33), (33,), (3, 3, 3, 8)]]
    grads = [[rng.standard_normal(w.shape) for w in weights] for _ in range(3)]
    cpu, _ = run(CASES[case], weights, grads, "cpu", dtype)
    gpu, opt = run(CASES[case], weights, grads, "gpu", dtype)
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    for a, b in zip(cpu, gpu, strict=True):
        np.testing.assert_allclose(b, a, rtol=tolerance, atol=tolerance)
    for key, value in opt.state_dict().items():
        assert value.dtype == (np.int64 if key.endswith("_m_0") else dtype)  # ASGD's step count


@pytest.mark.parametrize("multi_precision", [False, True])
def test_float16_parameters_train_on_gpu_with_float32_state(multi_precision, on_gpu):
    rng = np.random.default_rng(1)
    weights = [rng.standard_normal((16, 8))]
    grads = [[rng.standard_normal((16, 8))] for _ in range(2)]
    build = lambda ps: Adam(0.01, parameters=ps, multi_precision=multi_precision)  # noqa: E731
    gpu, opt = run(build, weights, grads, "gpu", np.float16)
    assert ("master_weights" in opt.state_dict()) == multi_precision
    cpu, _ = run(lambda ps: Adam(0.01, parameters=ps), weights, grads, "cpu", np.float32)
    assert gpu[0].dtype == np.float16
    assert opt.state_dict()["g0_moment1_0"].dtype == np.float32
    np.testing.assert_allclose(gpu[0], cpu[0], atol=3e-3)


def test_gpu_state_saves_and_loads(on_gpu, tmp_path):
    params = [Parameter(np.ones((4, 4), np.float32), name="w")]
    opt = Momentum(0.1, parameters=params)
    params[0].grad = framework.to_tensor(np.ones((4, 4), np.float32))
    opt.step()
    framework.save(opt.state_dict(), tmp_path / "gpu.pdopt")
    fresh = Momentum(0.1, parameters=params)
    fresh.set_state_dict(framework.load(tmp_path / "gpu.pdopt"))
    fresh.step()
    np.testing.assert_allclose(fresh.state_dict()["w_velocity_0"].numpy(), np.full((4, 4), 1.9))
