"""Learning-rate schedulers: value sequences equal paddle.optimizer.lr's, state round trips."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import framework
from framework.optimizer import lr

# (scheduler name, positional args, keyword args) -- built identically from both libraries.
CASES = [
    ("StepDecay", (0.5,), {"step_size": 3, "gamma": 0.5}),
    ("MultiStepDecay", (0.5,), {"milestones": [2, 5, 9], "gamma": 0.3}),
    ("PiecewiseDecay", (), {"boundaries": [3, 6], "values": [1.0, 0.5, 0.1]}),
    ("ExponentialDecay", (0.5,), {"gamma": 0.9}),
    ("NaturalExpDecay", (0.5,), {"gamma": 0.1}),
    ("InverseTimeDecay", (0.5,), {"gamma": 0.2}),
    ("PolynomialDecay", (0.5,), {"decay_steps": 5, "end_lr": 0.01, "power": 2.0}),
    ("PolynomialDecay", (0.5,), {"decay_steps": 4, "end_lr": 0.0, "power": 1.0, "cycle": True}),
    ("CosineAnnealingDecay", (0.5,), {"T_max": 4, "eta_min": 0.01}),
    ("CosineAnnealingDecay", (1.0,), {"T_max": 3}),
    ("LambdaDecay", (0.5,), {"lr_lambda": lambda epoch: 0.95**epoch}),
    ("MultiplicativeDecay", (0.5,), {"lr_lambda": lambda epoch: 0.9}),
    ("NoamDecay", (), {"d_model": 64, "warmup_steps": 4}),
    ("OneCycleLR", (1.0,), {"total_steps": 12}),
    ("OneCycleLR", (1.0,), {"total_steps": 12, "anneal_strategy": "linear", "three_phase": True}),
    ("LinearWarmup", (0.5,), {"warmup_steps": 4, "start_lr": 0.0, "end_lr": 0.5}),
    ("CyclicLR", (0.1, 1.0), {"step_size_up": 3}),
    ("CyclicLR", (0.1, 1.0), {"step_size_up": 2, "step_size_down": 4, "mode": "triangular2"}),
    ("CyclicLR", (0.1, 1.0), {"step_size_up": 3, "mode": "exp_range", "exp_gamma": 0.9}),
    ("LinearLR", (0.5,), {"total_steps": 6}),
    ("LinearLR", (0.5,), {"total_steps": 4, "start_factor": 1.0, "end_factor": 0.1}),
    ("CosineAnnealingWarmRestarts", (0.5,), {"T_0": 3}),
    ("CosineAnnealingWarmRestarts", (0.5,), {"T_0": 2, "T_mult": 2, "eta_min": 0.01}),
]

# The same schedules in torch.optim.lr_scheduler: (our name, our kwargs, torch class, its kwargs).
TORCH_CASES = [
    (
        "CyclicLR",
        {"base_learning_rate": 0.1, "max_learning_rate": 1.0, "step_size_up": 4},
        "CyclicLR",
        {"base_lr": 0.1, "max_lr": 1.0, "step_size_up": 4},
    ),
    (
        "CyclicLR",
        {
            "base_learning_rate": 0.1,
            "max_learning_rate": 1.0,
            "step_size_up": 3,
            "step_size_down": 7,
            "mode": "triangular2",
        },
        "CyclicLR",
        {
            "base_lr": 0.1,
            "max_lr": 1.0,
            "step_size_up": 3,
            "step_size_down": 7,
            "mode": "triangular2",
        },
    ),
    (
        "CyclicLR",
        {
            "base_learning_rate": 0.1,
            "max_learning_rate": 1.0,
            "step_size_up": 5,
            "mode": "exp_range",
            "exp_gamma": 0.97,
        },
        "CyclicLR",
        {"base_lr": 0.1, "max_lr": 1.0, "step_size_up": 5, "mode": "exp_range", "gamma": 0.97},
    ),
    (
        "CyclicLR",
        {
            "base_learning_rate": 0.1,
            "max_learning_rate": 1.0,
            "step_size_up": 5,
            "scale_fn": lambda x: 1 / (1 + 0.1 * x),
            "scale_mode": "iterations",
        },
        "CyclicLR",
        {
            "base_lr": 0.1,
            "max_lr": 1.0,
            "step_size_up": 5,
            "scale_fn": lambda x: 1 / (1 + 0.1 * x),
            "scale_mode": "iterations",
        },
    ),
    ("LinearLR", {"learning_rate": 0.5, "total_steps": 20}, "LinearLR", {"total_iters": 20}),
    (
        "LinearLR",
        {"learning_rate": 0.5, "total_steps": 30, "start_factor": 0.9, "end_factor": 0.2},
        "LinearLR",
        {"total_iters": 30, "start_factor": 0.9, "end_factor": 0.2},
    ),
    (
        "CosineAnnealingWarmRestarts",
        {"learning_rate": 0.5, "T_0": 7},
        "CosineAnnealingWarmRestarts",
        {"T_0": 7},
    ),
    (
        "CosineAnnealingWarmRestarts",
        {"learning_rate": 0.5, "T_0": 3, "T_mult": 2, "eta_min": 0.01},
        "CosineAnnealingWarmRestarts",
        {"T_0": 3, "T_mult": 2, "eta_min": 0.01},
    ),
]


def sequence(scheduler, steps: int) -> list[float]:
    values = []
    for _ in range(steps):
        values.append(scheduler())
        scheduler.step()
    return values


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_scheduler_values_equal_paddle(name, args, kwargs):
    paddle = pytest.importorskip("paddle")
    steps = 12 if name == "OneCycleLR" else 15
    ours = sequence(getattr(lr, name)(*args, **kwargs), steps)
    theirs = sequence(getattr(paddle.optimizer.lr, name)(*args, **kwargs), steps)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)


@pytest.mark.parametrize("case", TORCH_CASES, ids=lambda c: c[0] if isinstance(c, tuple) else c)
def test_new_schedulers_equal_torch_for_50_steps(case):
    torch = pytest.importorskip("torch")
    name, kwargs, torch_name, torch_kwargs = case
    ours = sequence(getattr(lr, name)(**kwargs), 50)
    base = kwargs.get("learning_rate", 1.0)
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=base)
    scheduler = getattr(torch.optim.lr_scheduler, torch_name)(opt, **torch_kwargs)
    theirs = []
    for _ in range(50):
        theirs.append(scheduler.get_last_lr()[0])
        opt.step()
        scheduler.step()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)


def test_warm_restarts_jump_to_an_epoch_as_paddle():
    paddle = pytest.importorskip("paddle")
    ours = lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=3, eta_min=0.05)
    theirs = paddle.optimizer.lr.CosineAnnealingWarmRestarts(0.5, T_0=2, T_mult=3, eta_min=0.05)
    for epoch in (1, 9, 4.5, 30, 0):
        ours.step(epoch)
        theirs.step(epoch)
        assert ours() == pytest.approx(theirs(), rel=1e-12)
        assert ours.last_epoch == theirs.last_epoch


def test_warm_restarts_resume_mid_cycle_from_its_own_state_and_from_paddles():
    first = lr.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2)
    sequence(first, 11)  # inside the third period (lengths 3, 6, 12)
    expected = sequence(copy.deepcopy(first), 8)
    resumed = lr.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2)
    resumed.set_state_dict(first.state_dict())
    assert sequence(resumed, 8) == expected
    from_paddle = lr.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2)
    state = first.state_dict()
    from_paddle.set_state_dict({"last_epoch": state["last_epoch"], "last_lr": state["last_lr"]})
    np.testing.assert_allclose(sequence(from_paddle, 8), expected, rtol=1e-12)


def test_linear_warmup_wrapping_a_scheduler_equals_paddle():
    paddle = pytest.importorskip("paddle")
    ours = lr.LinearWarmup(lr.CosineAnnealingDecay(0.5, T_max=5), 3, 0.0, 0.5)
    theirs = paddle.optimizer.lr.LinearWarmup(
        paddle.optimizer.lr.CosineAnnealingDecay(0.5, T_max=5), 3, 0.0, 0.5
    )
    np.testing.assert_allclose(sequence(ours, 14), sequence(theirs, 14), rtol=1e-12)


def test_reduce_on_plateau_equals_paddle():
    paddle = pytest.importorskip("paddle")
    metrics = [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9, 0.91, 0.92, 0.93]
    kwargs = {"factor": 0.5, "patience": 1, "cooldown": 1, "min_lr": 0.01}
    ours = lr.ReduceOnPlateau(0.4, **kwargs)
    theirs = paddle.optimizer.lr.ReduceOnPlateau(0.4, **kwargs)
    for metric in metrics:
        ours.step(metric)
        theirs.step(metric)
        assert ours() == pytest.approx(theirs(), rel=1e-12)
        assert ours.num_bad_epochs == theirs.num_bad_epochs
        assert ours.cooldown_counter == theirs.cooldown_counter


@pytest.mark.parametrize(
    ("mode", "threshold_mode"), [("max", "rel"), ("max", "abs"), ("min", "abs")]
)
def test_reduce_on_plateau_modes_equal_paddle(mode, threshold_mode):
    paddle = pytest.importorskip("paddle")
    metrics = [1.0, 1.05, 1.06, 1.061, 1.0, 0.9, 2.0, 2.0, 2.0]
    kwargs = {"mode": mode, "threshold_mode": threshold_mode, "patience": 1, "threshold": 0.02}
    ours = lr.ReduceOnPlateau(1.0, **kwargs)
    theirs = paddle.optimizer.lr.ReduceOnPlateau(1.0, **kwargs)
    for metric in metrics:
        ours.step(metric)
        theirs.step(metric)
        assert ours() == pytest.approx(theirs(), rel=1e-12)


def test_reduce_on_plateau_takes_one_element_tensors_and_rejects_bigger_ones():
    scheduler = lr.ReduceOnPlateau(1.0, patience=0)
    scheduler.step(framework.to_tensor([2.0]))
    scheduler.step(np.array(3.0))
    assert scheduler() == pytest.approx(0.1)
    with pytest.raises(ValueError, match="size of metrics must be 1"):
        scheduler.step(framework.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="metrics must be"):
        scheduler.step("low")


def test_cosine_step_with_an_epoch_uses_the_closed_form():
    paddle = pytest.importorskip("paddle")
    ours = lr.CosineAnnealingDecay(0.5, T_max=10, eta_min=0.1)
    theirs = paddle.optimizer.lr.CosineAnnealingDecay(0.5, T_max=10, eta_min=0.1)
    for epoch in (7, 3, 12):
        ours.step(epoch)
        theirs.step(epoch)
        assert ours() == pytest.approx(theirs(), rel=1e-12)
    assert ours() == pytest.approx(0.1 + 0.4 * (1 + math.cos(math.pi * 12 / 10)) / 2)


@pytest.mark.parametrize(("name", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_state_dict_round_trip_resumes_the_sequence(name, args, kwargs):
    first = getattr(lr, name)(*args, **kwargs)
    sequence(first, 5)
    state = first.state_dict()
    assert state["last_epoch"] == 5
    second = getattr(lr, name)(*args, **kwargs)
    second.set_state_dict(state)
    assert sequence(second, 5) == sequence(first, 5)


def test_linear_warmup_state_includes_the_wrapped_scheduler():
    inner = lr.StepDecay(0.5, step_size=2)
    warm = lr.LinearWarmup(inner, 2, 0.0, 0.5)
    sequence(warm, 6)
    state = warm.state_dict()
    assert state["LinearWarmup_LR"] == {"last_epoch": 4, "last_lr": inner()}
    restored = lr.LinearWarmup(lr.StepDecay(0.5, step_size=2), 2, 0.0, 0.5)
    restored.set_state_dict(state)
    assert restored.learning_rate.last_epoch == 4
    assert sequence(restored, 4) == sequence(warm, 4)


def test_set_state_dict_names_a_missing_key():
    scheduler = lr.StepDecay(0.1, step_size=2)
    with pytest.raises(RuntimeError, match="last_lr"):
        scheduler.set_state_dict({"last_epoch": 3})


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: lr.StepDecay(0.1, step_size=2.0), TypeError),
        (lambda: lr.StepDecay(0.1, step_size=2, gamma=1.5), ValueError),
        (lambda: lr.MultiStepDecay(0.1, milestones=[3, 2]), ValueError),
        (lambda: lr.PiecewiseDecay(boundaries=[1, 2], values=[1.0, 0.5]), ValueError),
        (lambda: lr.ExponentialDecay(0.1, gamma=1.2), ValueError),
        (lambda: lr.LinearWarmup(0.1, 2, start_lr=0.5, end_lr=0.1), ValueError),
        (lambda: lr.OneCycleLR(1.0, total_steps=0), ValueError),
        (lambda: lr.ReduceOnPlateau(0.1, mode="sideways"), ValueError),
        (lambda: lr.StepDecay("0.1", step_size=2), TypeError),
    ],
)
def test_it_rejects_bad_arguments(build, error):
    with pytest.raises(error):
        build()


def test_one_cycle_refuses_to_step_past_total_steps():
    scheduler = lr.OneCycleLR(1.0, total_steps=3)
    sequence(scheduler, 3)
    with pytest.raises(ValueError, match="total steps"):
        scheduler.step()
