"""multi_precision: float16 parameters train through float32 master weights, as Paddle's."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.optimizer import SGD, Adam, AdamW, Momentum

rng = np.random.default_rng(11)
W = rng.standard_normal((8, 5)).astype(np.float16).astype(np.float32)  # exact in float16
G = [rng.standard_normal((8, 5)).astype(np.float32) for _ in range(4)]

BUILDERS = {
    "SGD": lambda ps, mp: SGD(0.05, parameters=ps, multi_precision=mp),
    "Momentum": lambda ps, mp: Momentum(0.05, parameters=ps, multi_precision=mp, weight_decay=0.01),
    "Adam": lambda ps, mp: Adam(0.05, parameters=ps, multi_precision=mp),
    "AdamW": lambda ps, mp: AdamW(0.05, parameters=ps, multi_precision=mp),
}


def train(kind, dtype, multi_precision, grads=G):
    param = Parameter(W.astype(dtype), name="half.w_0")
    opt = BUILDERS[kind]([param], multi_precision)
    for g in grads:
        param.grad = framework.to_tensor(g.astype(dtype))
        opt.step()
    return param, opt


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_float16_with_master_weights_tracks_float32_training(kind):
    half, opt = train(kind, np.float16, True)
    full, _ = train(kind, np.float32, False, [g.astype(np.float16).astype(np.float32) for g in G])
    assert half.dtype == np.float16
    master = opt.state_dict()["master_weights"]["half.w_0"]
    assert master.dtype == np.float32
    np.testing.assert_allclose(master.numpy(), full.numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(half.numpy(), full.numpy().astype(np.float16))


def test_master_weights_keep_updates_too_small_for_float16():
    tiny = [np.full((8, 5), 1e-3, np.float32)] * 4
    with_master, _ = train("SGD", np.float16, True, tiny)
    without, _ = train("SGD", np.float16, False, tiny)
    expected = W - 4 * 0.05 * 1e-3
    np.testing.assert_allclose(with_master.numpy(), expected.astype(np.float16), atol=0)
    assert np.abs(without.numpy().astype(np.float32) - expected).max() > 1e-4


def test_master_weights_save_load_and_resume_identically(tmp_path):
    param, opt = train("Adam", np.float16, True, G[:2])
    framework.save(opt.state_dict(), tmp_path / "half.pdopt")
    resumed = Parameter(param.numpy(), name="half.w_0")
    fresh = Adam(0.05, parameters=[resumed], multi_precision=True)
    fresh.set_state_dict(framework.load(tmp_path / "half.pdopt"))
    for g in G[2:]:
        for p, o in ((param, opt), (resumed, fresh)):
            p.grad = framework.to_tensor(g.astype(np.float16))
            o.step()
    np.testing.assert_array_equal(resumed.numpy(), param.numpy())
    np.testing.assert_array_equal(
        fresh.state_dict()["master_weights"]["half.w_0"].numpy(),
        opt.state_dict()["master_weights"]["half.w_0"].numpy(),
    )


def test_amp_style_switch_on_after_construction_works():
    param = Parameter(W.astype(np.float16), name="late.w_0")
    opt = Momentum(0.05, parameters=[param])
    opt._multi_precision = True  # what amp.decorate(level='O2') does
    param.grad = framework.to_tensor(G[0].astype(np.float16))
    opt.step()
    assert "late.w_0" in opt.state_dict()["master_weights"]
    assert opt.state_dict()["late.w_0_velocity_0"].dtype == np.float32
