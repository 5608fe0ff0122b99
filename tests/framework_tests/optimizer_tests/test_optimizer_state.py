"""Optimizer state: Paddle's key names, save/load with framework.save, identical resumption."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.optimizer import SGD, Adagrad, Adam, AdamW, Lamb, Momentum, lr

rng = np.random.default_rng(3)
W = [rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (4,)]]
G = [[rng.standard_normal(w.shape).astype(np.float32) for w in W] for _ in range(4)]
_unique = itertools.count()

BUILDERS = {
    "SGD": lambda m, ps: m.SGD(0.1, parameters=ps),
    "Momentum": lambda m, ps: m.Momentum(0.1, parameters=ps, use_nesterov=True),
    "Adam": lambda m, ps: m.Adam(0.05, parameters=ps, amsgrad=False),
    "AdamW": lambda m, ps: m.AdamW(0.05, parameters=ps),
    "Adamax": lambda m, ps: m.Adamax(0.05, parameters=ps),
    "RMSProp": lambda m, ps: m.RMSProp(0.05, parameters=ps, centered=True, momentum=0.3),
    "Adagrad": lambda m, ps: m.Adagrad(0.05, parameters=ps),
    "Lamb": lambda m, ps: m.Lamb(0.05, parameters=ps),
    "Adadelta": lambda m, ps: m.Adadelta(0.5, parameters=ps),
    "NAdam": lambda m, ps: m.NAdam(0.05, parameters=ps),
    "RAdam": lambda m, ps: m.RAdam(0.05, beta2=0.5, parameters=ps),
    "Rprop": lambda m, ps: m.Rprop(0.05, parameters=ps),
    "ASGD": lambda m, ps: m.ASGD(0.05, batch_num=3, parameters=ps),
}


def params() -> list[Parameter]:
    return [Parameter(w.copy(), name=f"layer_{i}.w_0") for i, w in enumerate(W)]


def feed(ps, grads) -> None:
    for p, g in zip(ps, grads, strict=True):
        p.grad = framework.to_tensor(g)


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_state_dict_keys_and_values_match_paddle(kind):
    paddle = pytest.importorskip("paddle")
    tag = f"statekey{next(_unique)}x{kind.lower()}"
    ours_ps = [Parameter(w.copy(), name=f"{tag}_{i}") for i, w in enumerate(W)]
    theirs_ps = [
        paddle.create_parameter(
            list(w.shape),
            "float32",
            attr=paddle.ParamAttr(name=f"{tag}_{i}"),
            default_initializer=paddle.nn.initializer.Assign(w),
        )
        for i, w in enumerate(W)
    ]
    ours = BUILDERS[kind](framework.optimizer, ours_ps)
    theirs = BUILDERS[kind](paddle.optimizer, theirs_ps)
    for grads in G[:2]:
        feed(ours_ps, grads)
        for p, g in zip(theirs_ps, grads, strict=True):
            p.grad = paddle.to_tensor(g)
        ours.step()
        theirs.step()
    ours_state, theirs_state = ours.state_dict(), theirs.state_dict()
    assert sorted(ours_state) == sorted(theirs_state)
    for key, value in theirs_state.items():
        assert ours_state[key].shape == list(value.shape), key
        np.testing.assert_allclose(ours_state[key].numpy(), value.numpy(), rtol=1e-5, atol=1e-7)


def test_state_dict_carries_the_scheduler_and_the_optimizer_name():
    ps = params()
    scheduler = lr.StepDecay(0.1, step_size=1)
    opt = Momentum(scheduler, parameters=ps, name="head")
    feed(ps, G[0])
    opt.step()
    scheduler.step()
    state = opt.state_dict()
    assert set(state) == {
        "layer_0.w_0_head_velocity_0",
        "layer_1.w_0_head_velocity_0",
        "LR_Scheduler",
    }
    assert state["LR_Scheduler"] == {"last_epoch": 1, "last_lr": pytest.approx(0.01)}


def test_unnamed_or_clashing_parameters_get_positional_keys():
    ps = [
        Parameter(W[0].copy()),
        Parameter(W[1].copy(), name="w"),
        Parameter(W[1].copy(), name="w"),
    ]
    opt = Adagrad(0.1, parameters=ps)
    for p, g in zip(ps, [G[0][0], G[0][1], G[0][1]], strict=True):
        p.grad = framework.to_tensor(g)
    opt.step()
    assert sorted(opt.state_dict()) == ["param_0_moment_0", "w_1_moment_0", "w_2_moment_0"]


@pytest.mark.parametrize("kind", sorted(BUILDERS))
@pytest.mark.parametrize("when", ["before_first_step", "after_first_step"])
def test_saved_then_loaded_state_continues_training_identically(kind, when, tmp_path):
    scheduler_a = lr.ExponentialDecay(0.1, gamma=0.9)
    ps_a = params()
    opt_a = BUILDERS[kind](framework.optimizer, ps_a)
    opt_a.set_lr_scheduler(scheduler_a)
    for grads in G[:2]:
        feed(ps_a, grads)
        opt_a.step()
        scheduler_a.step()
    framework.save({p.name: p for p in ps_a}, tmp_path / "model.pdparams")
    framework.save(opt_a.state_dict(), tmp_path / "model.pdopt")

    weights = framework.load(tmp_path / "model.pdparams")
    ps_b = [Parameter(weights[p.name].numpy(), name=p.name) for p in ps_a]
    opt_b = BUILDERS[kind](framework.optimizer, ps_b)
    opt_b.set_lr_scheduler(lr.ExponentialDecay(0.1, gamma=0.9))
    if when == "after_first_step":  # accumulators already exist: values are copied into them
        feed(ps_b, [np.zeros_like(w) for w in W])
        opt_b.step()
        for p, w in zip(ps_b, ps_a, strict=True):
            p.set_value(w.numpy())
    opt_b.set_state_dict(framework.load(tmp_path / "model.pdopt"))
    assert opt_b.get_lr() == opt_a.get_lr()
    for grads in G[2:]:
        for opt, ps in ((opt_a, ps_a), (opt_b, ps_b)):
            feed(ps, grads)
            opt.step()
            opt._learning_rate.step()
    for a, b in zip(ps_a, ps_b, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_a_paddle_optimizer_state_loads_and_continues_like_paddle():
    paddle = pytest.importorskip("paddle")
    tag = f"fromPaddle{next(_unique)}"
    theirs_ps = [
        paddle.create_parameter(
            list(w.shape),
            "float32",
            attr=paddle.ParamAttr(name=f"{tag}_{i}"),
            default_initializer=paddle.nn.initializer.Assign(w),
        )
        for i, w in enumerate(W)
    ]
    theirs = paddle.optimizer.Adam(0.05, parameters=theirs_ps)
    for grads in G[:2]:
        for p, g in zip(theirs_ps, grads, strict=True):
            p.grad = paddle.to_tensor(g)
        theirs.step()
    state = {k: v.numpy() for k, v in theirs.state_dict().items()}
    ours_ps = [Parameter(p.numpy(), name=f"{tag}_{i}") for i, p in enumerate(theirs_ps)]
    ours = Adam(0.05, parameters=ours_ps)
    ours.set_state_dict(state)
    for grads in G[2:]:
        feed(ours_ps, grads)
        ours.step()
        for p, g in zip(theirs_ps, grads, strict=True):
            p.grad = paddle.to_tensor(g)
        theirs.step()
    for a, b in zip(ours_ps, theirs_ps, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_set_state_dict_reports_missing_and_misshapen_entries():
    ps = params()
    opt = Adam(0.1, parameters=ps)
    feed(ps, G[0])
    opt.step()
    state = opt.state_dict()
    del state["layer_0.w_0_moment1_0"]
    with pytest.raises(KeyError, match="layer_0.w_0_moment1_0"):
        opt.set_state_dict(state)
    state = {k: v.numpy() for k, v in opt.state_dict().items()}
    state["layer_1.w_0_moment2_0"] = np.zeros(7, np.float32)
    with pytest.raises(ValueError, match=r"shape \[7\], expected \[4\]"):
        opt.set_state_dict(state)


def test_state_loaded_before_the_first_step_is_kept_until_used():
    ps = params()
    opt = SGD(0.1, parameters=ps)
    source = Momentum(0.1, parameters=params())
    feed(source._all_parameters(), G[0])
    source.step()
    momentum = Momentum(0.1, parameters=ps)
    momentum.set_state_dict(source.state_dict())
    assert sorted(momentum.state_dict()) == sorted(source.state_dict())
    feed(ps, G[1])
    momentum.step()
    np.testing.assert_allclose(
        momentum.state_dict()["layer_0.w_0_velocity_0"].numpy(), 0.9 * G[0][0] + G[1][0], rtol=1e-6
    )
    assert opt.state_dict() == {}


def test_adamw_and_lamb_states_round_trip_through_files(tmp_path):
    for build in (lambda ps: AdamW(0.1, parameters=ps), lambda ps: Lamb(0.1, parameters=ps)):
        ps = params()
        opt = build(ps)
        feed(ps, G[0])
        opt.step()
        framework.save(opt.state_dict(), tmp_path / "opt.pdopt")
        loaded = framework.load(tmp_path / "opt.pdopt")
        for key, value in opt.state_dict().items():
            assert loaded[key].dtype == value.dtype
            np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())
