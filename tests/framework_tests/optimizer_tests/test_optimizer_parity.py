"""Every optimizer against PyTorch (where the update rule is the same) and PaddlePaddle.

Identical starting weights and gradients, several steps, float32 tolerance. RMSProp and Lamb are
compared with Paddle only: Paddle's RMSProp puts epsilon inside the square root (torch's does
not), and torch has no Lamb.
"""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.nn.clip import ClipGradByGlobalNorm
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
from framework.regularizer import L1Decay, L2Decay

SHAPES = [(4, 3), (5,), (2, 1, 3)]
STEPS = 4


def problem(dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
    grads = [[rng.standard_normal(s).astype(dtype) for s in SHAPES] for _ in range(STEPS)]
    return weights, grads


def run_ours(build, weights, grads):
    params = [Parameter(w.copy(), name=f"w{i}") for i, w in enumerate(weights)]
    opt = build(params)
    for step_grads in grads:
        for p, g in zip(params, step_grads, strict=True):
            p.grad = framework.to_tensor(g)
        opt.step()
    return [p.numpy() for p in params]


def run_torch(build, weights, grads):
    torch = pytest.importorskip("torch")
    params = [torch.nn.Parameter(torch.tensor(w)) for w in weights]
    opt = build(torch, params)
    for step_grads in grads:
        for p, g in zip(params, step_grads, strict=True):
            p.grad = torch.tensor(g)
        opt.step()
    return [p.detach().numpy() for p in params]


def run_paddle(build, weights, grads):
    paddle = pytest.importorskip("paddle")
    params = [
        paddle.create_parameter(
            list(w.shape), str(w.dtype), default_initializer=paddle.nn.initializer.Assign(w)
        )
        for w in weights
    ]
    opt = build(paddle, params)
    for step_grads in grads:
        for p, g in zip(params, step_grads, strict=True):
            p.grad = paddle.to_tensor(g)
        opt.step()
    return [p.numpy() for p in params]


def assert_close(ours, theirs, dtype=np.float32, float64_tolerance=1e-12):
    tolerance = 2e-6 if dtype == np.float32 else float64_tolerance
    for a, b in zip(ours, theirs, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=tolerance * 10, atol=tolerance)


TORCH_CASES = {
    "sgd": (lambda ps: SGD(0.1, parameters=ps), lambda t, ps: t.optim.SGD(ps, lr=0.1)),
    "sgd_l2": (
        lambda ps: SGD(0.1, parameters=ps, weight_decay=0.05),
        lambda t, ps: t.optim.SGD(ps, lr=0.1, weight_decay=0.05),
    ),
    "momentum": (
        lambda ps: Momentum(0.1, momentum=0.9, parameters=ps),
        lambda t, ps: t.optim.SGD(ps, lr=0.1, momentum=0.9),
    ),
    "momentum_nesterov_l2": (
        lambda ps: Momentum(0.05, 0.8, ps, use_nesterov=True, weight_decay=L2Decay(0.01)),
        lambda t, ps: t.optim.SGD(ps, lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01),
    ),
    "adam": (
        lambda ps: Adam(0.01, parameters=ps),
        lambda t, ps: t.optim.Adam(ps, lr=0.01),
    ),
    "adam_betas_l2": (
        lambda ps: Adam(0.02, beta1=0.8, beta2=0.95, epsilon=1e-6, parameters=ps, weight_decay=0.1),
        lambda t, ps: t.optim.Adam(ps, lr=0.02, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1),
    ),
    "adam_amsgrad": (
        lambda ps: Adam(0.01, parameters=ps, amsgrad=True),
        lambda t, ps: t.optim.Adam(ps, lr=0.01, amsgrad=True),
    ),
    # torch adds epsilon to |grad|, Paddle to the decayed norm: with epsilon 0 the rules agree.
    "adamax": (
        lambda ps: Adamax(0.01, epsilon=0.0, parameters=ps),
        lambda t, ps: t.optim.Adamax(ps, lr=0.01, eps=0.0),
    ),
    "adamax_betas_l2": (
        lambda ps: Adamax(0.02, 0.8, 0.95, 0.0, parameters=ps, weight_decay=0.1),
        lambda t, ps: t.optim.Adamax(ps, lr=0.02, betas=(0.8, 0.95), eps=0.0, weight_decay=0.1),
    ),
    "adamw": (
        lambda ps: AdamW(0.01, parameters=ps, weight_decay=0.1),
        lambda t, ps: t.optim.AdamW(ps, lr=0.01, weight_decay=0.1),
    ),
    "adamw_amsgrad": (
        lambda ps: AdamW(0.01, parameters=ps, weight_decay=0.05, amsgrad=True),
        lambda t, ps: t.optim.AdamW(ps, lr=0.01, weight_decay=0.05, amsgrad=True),
    ),
    "adagrad": (
        lambda ps: Adagrad(0.1, parameters=ps, epsilon=1e-6, initial_accumulator_value=0.1),
        lambda t, ps: t.optim.Adagrad(ps, lr=0.1, eps=1e-6, initial_accumulator_value=0.1),
    ),
    "adadelta": (
        lambda ps: Adadelta(0.5, parameters=ps),
        lambda t, ps: t.optim.Adadelta(ps, lr=0.5, rho=0.95, eps=1e-6),
    ),
    "adadelta_rho_l2": (
        lambda ps: Adadelta(1.0, epsilon=1e-4, rho=0.8, parameters=ps, weight_decay=0.1),
        lambda t, ps: t.optim.Adadelta(ps, lr=1.0, rho=0.8, eps=1e-4, weight_decay=0.1),
    ),
    "nadam": (
        lambda ps: NAdam(0.01, parameters=ps),
        lambda t, ps: t.optim.NAdam(ps, lr=0.01),
    ),
    "nadam_betas_l2": (
        lambda ps: NAdam(
            0.02, 0.8, 0.95, 1e-6, momentum_decay=0.01, parameters=ps, weight_decay=0.1
        ),
        lambda t, ps: t.optim.NAdam(
            ps, lr=0.02, betas=(0.8, 0.95), eps=1e-6, momentum_decay=0.01, weight_decay=0.1
        ),
    ),
    # beta2 = 0.5 puts rho_t above 5 from the first step: the rectified branch.
    "radam_rectified": (
        lambda ps: RAdam(0.01, beta2=0.5, parameters=ps),
        lambda t, ps: t.optim.RAdam(ps, lr=0.01, betas=(0.9, 0.5)),
    ),
    "radam_early_l2": (
        lambda ps: RAdam(0.01, parameters=ps, weight_decay=0.1),
        lambda t, ps: t.optim.RAdam(ps, lr=0.01, weight_decay=0.1),
    ),
    "rprop": (
        lambda ps: Rprop(0.01, parameters=ps),
        lambda t, ps: t.optim.Rprop(ps, lr=0.01, etas=(0.5, 1.2), step_sizes=(1e-5, 50)),
    ),
    "rprop_bounds": (
        lambda ps: Rprop(0.01, (0.005, 0.015), ps, etas=(0.3, 1.5)),
        lambda t, ps: t.optim.Rprop(ps, lr=0.01, etas=(0.3, 1.5), step_sizes=(0.005, 0.015)),
    ),
}


@pytest.mark.parametrize("case", sorted(TORCH_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_optimizer_matches_torch(case, dtype):
    ours_build, torch_build = TORCH_CASES[case]
    weights, grads = problem(dtype)
    ours = run_ours(ours_build, weights, grads)
    assert not np.allclose(ours[0], weights[0])  # it really moved
    # torch keeps NAdam's mu_product as a float32 scalar even for float64 parameters.
    loose = 1e-9 if case.startswith("nadam") else 1e-12
    assert_close(ours, run_torch(torch_build, weights, grads), dtype, loose)


PADDLE_CASES = {
    "rmsprop": (
        lambda ps: RMSProp(0.01, parameters=ps),
        lambda p, ps: p.optimizer.RMSProp(0.01, parameters=ps),
    ),
    "rmsprop_momentum_centered": (
        lambda ps: RMSProp(0.01, rho=0.9, epsilon=1e-4, momentum=0.5, centered=True, parameters=ps),
        lambda p, ps: p.optimizer.RMSProp(
            0.01, rho=0.9, epsilon=1e-4, momentum=0.5, centered=True, parameters=ps
        ),
    ),
    "lamb": (
        lambda ps: Lamb(0.01, parameters=ps),
        lambda p, ps: p.optimizer.Lamb(0.01, parameters=ps),
    ),
    "lamb_no_decay": (
        lambda ps: Lamb(0.01, lamb_weight_decay=0.0, parameters=ps),
        lambda p, ps: p.optimizer.Lamb(0.01, lamb_weight_decay=0.0, parameters=ps),
    ),
    "lamb_always_adapt": (
        lambda ps: Lamb(0.01, lamb_weight_decay=0.0, parameters=ps, always_adapt=True),
        lambda p, ps: p.optimizer.Lamb(
            0.01, lamb_weight_decay=0.0, parameters=ps, always_adapt=True
        ),
    ),
    "lamb_exclude": (
        lambda ps: Lamb(0.01, 0.1, parameters=ps, exclude_from_weight_decay_fn=_is_vector),
        lambda p, ps: p.optimizer.Lamb(
            0.01, 0.1, parameters=ps, exclude_from_weight_decay_fn=_is_vector
        ),
    ),
    "momentum_l1": (
        lambda ps: Momentum(0.1, parameters=ps, weight_decay=L1Decay(0.1)),
        lambda p, ps: p.optimizer.Momentum(
            0.1, parameters=ps, weight_decay=p.regularizer.L1Decay(0.1)
        ),
    ),
    "adam": (
        lambda ps: Adam(0.01, parameters=ps, weight_decay=0.01),
        lambda p, ps: p.optimizer.Adam(0.01, parameters=ps, weight_decay=0.01),
    ),
    "adamw": (
        lambda ps: AdamW(0.01, parameters=ps),
        lambda p, ps: p.optimizer.AdamW(0.01, parameters=ps),
    ),
    "adamax": (
        lambda ps: Adamax(0.01, parameters=ps, weight_decay=0.01),
        lambda p, ps: p.optimizer.Adamax(0.01, parameters=ps, weight_decay=0.01),
    ),
    "adamax_betas_clip": (
        lambda ps: Adamax(0.05, 0.8, 0.9, 1e-3, ps, grad_clip=ClipGradByGlobalNorm(1.0)),
        lambda p, ps: p.optimizer.Adamax(
            0.05, 0.8, 0.9, 1e-3, ps, grad_clip=p.nn.ClipGradByGlobalNorm(1.0)
        ),
    ),
    "adagrad": (
        lambda ps: Adagrad(0.1, parameters=ps),
        lambda p, ps: p.optimizer.Adagrad(0.1, parameters=ps),
    ),
    "adadelta": (
        lambda ps: Adadelta(0.5, parameters=ps, weight_decay=0.01),
        lambda p, ps: p.optimizer.Adadelta(0.5, parameters=ps, weight_decay=0.01),
    ),
    "nadam": (
        lambda ps: NAdam(0.01, parameters=ps),
        lambda p, ps: p.optimizer.NAdam(0.01, parameters=ps),
    ),
    "radam": (
        lambda ps: RAdam(0.01, beta2=0.5, parameters=ps),
        lambda p, ps: p.optimizer.RAdam(0.01, beta2=0.5, parameters=ps),
    ),
    "rprop": (
        lambda ps: Rprop(0.01, (0.005, 0.02), ps),
        lambda p, ps: p.optimizer.Rprop(0.01, (0.005, 0.02), ps),
    ),
    "asgd": (
        lambda ps: ASGD(0.1, batch_num=3, parameters=ps),
        lambda p, ps: p.optimizer.ASGD(0.1, batch_num=3, parameters=ps),
    ),
    "asgd_l2": (
        lambda ps: ASGD(0.1, batch_num=2, parameters=ps, weight_decay=0.1),
        lambda p, ps: p.optimizer.ASGD(0.1, batch_num=2, parameters=ps, weight_decay=0.1),
    ),
}


def _is_vector(param) -> bool:
    return len(param.shape) == 1


@pytest.mark.parametrize("case", sorted(PADDLE_CASES))
def test_optimizer_matches_paddle(case):
    ours_build, paddle_build = PADDLE_CASES[case]
    weights, grads = problem(np.float32, seed=1)
    ours = run_ours(ours_build, weights, grads)
    assert not np.allclose(ours[0], weights[0])
    assert_close(ours, run_paddle(paddle_build, weights, grads))


def asgd_reference(weights, grads, lr: float, batch_num: int):
    """Paddle's ASGD rule in plain NumPy: SAG over the last `batch_num` gradients."""
    params = [w.astype(np.float64) for w in weights]
    d = [np.zeros_like(w) for w in params]
    stored = [np.zeros((batch_num, *w.shape)) for w in params]
    for m, step_grads in enumerate(grads):
        for k, g in enumerate(step_grads):
            d[k] += g - stored[k][m % batch_num]
            stored[k][m % batch_num] = g
            params[k] -= lr / min(m + 1, batch_num) * d[k]
    return params


@pytest.mark.parametrize("batch_num", [1, 3, 10])
def test_asgd_follows_paddles_average_gradient_rule(batch_num):
    weights, grads = problem(np.float64)
    ours = run_ours(lambda ps: ASGD(0.1, batch_num=batch_num, parameters=ps), weights, grads)
    expected = asgd_reference(weights, grads, 0.1, batch_num)
    for a, b in zip(ours, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_asgd_with_one_batch_is_sgd_and_differs_from_torchs_asgd():
    weights, grads = problem(np.float64)
    ours = run_ours(lambda ps: ASGD(0.1, parameters=ps), weights, grads)
    assert_close(ours, run_ours(lambda ps: SGD(0.1, parameters=ps), weights, grads), np.float64)
    averaged = run_ours(lambda ps: ASGD(0.1, batch_num=4, parameters=ps), weights, grads)
    theirs = run_torch(lambda t, ps: t.optim.ASGD(ps, lr=0.1), weights, grads)
    assert not np.allclose(averaged[0], theirs[0])


def test_rmsprop_really_differs_from_torch_which_puts_epsilon_outside_the_root():
    weights, grads = problem(np.float64)
    ours = run_ours(lambda ps: RMSProp(0.01, rho=0.9, epsilon=0.1, parameters=ps), weights, grads)
    theirs = run_torch(
        lambda t, ps: t.optim.RMSprop(ps, lr=0.01, alpha=0.9, eps=0.1), weights, grads
    )
    assert not np.allclose(ours[0], theirs[0])


def test_adamw_apply_decay_param_fun_and_lr_ratio_match_torch_groups():
    weights, grads = problem(np.float64)

    def build(ps):
        return AdamW(
            0.01,
            parameters=ps,
            weight_decay=0.1,
            apply_decay_param_fun=lambda name: name != "w1",
            lr_ratio=lambda p: 0.5 if p.name == "w2" else 1.0,
        )

    def build_torch(t, ps):
        return t.optim.AdamW(
            [
                {"params": [ps[0]]},
                {"params": [ps[1]], "weight_decay": 0.0},
                {"params": [ps[2]], "lr": 0.005},
            ],
            lr=0.01,
            weight_decay=0.1,
        )

    assert_close(
        run_ours(build, weights, grads), run_torch(build_torch, weights, grads), np.float64
    )


def test_float16_parameters_update_in_place_with_float32_state():
    weights, grads = problem(np.float16)
    params = [Parameter(w.copy(), name=f"h{i}") for i, w in enumerate(weights)]
    opt = Adam(0.01, parameters=params)
    for p, g in zip(params, grads[0], strict=True):
        p.grad = framework.to_tensor(g)
    opt.step()
    assert params[0].dtype == np.float16
    assert opt.state_dict()["h0_moment1_0"].dtype == np.float32
    reference = run_ours(
        lambda ps: Adam(0.01, parameters=ps),
        [w.astype(np.float32) for w in weights],
        [[g.astype(np.float32) for g in grads[0]]],
    )
    np.testing.assert_allclose(params[0].numpy(), reference[0], atol=2e-3)


@pytest.mark.parametrize(
    "build",
    [
        lambda ps: SGD(0.1, parameters=ps, weight_decay=0.01),
        lambda ps: Momentum(0.1, parameters=ps, use_nesterov=True),
        lambda ps: Adam(0.01, parameters=ps, amsgrad=True),
        lambda ps: AdamW(0.01, parameters=ps),
        lambda ps: Adamax(0.01, parameters=ps),
        lambda ps: RMSProp(0.01, parameters=ps, centered=True, momentum=0.5),
        lambda ps: Adagrad(0.1, parameters=ps),
        lambda ps: Adadelta(0.5, parameters=ps),
        lambda ps: NAdam(0.01, parameters=ps),
        lambda ps: RAdam(0.01, beta2=0.5, parameters=ps),
        lambda ps: Rprop(0.01, parameters=ps),
    ],
    ids=["sgd", "momentum", "adam", "adamw", "adamax", "rmsprop", "adagrad"]
    + ["adadelta", "nadam", "radam", "rprop"],
)
def test_big_parameters_split_over_threads_update_exactly_as_whole(build, monkeypatch):
    """A big parameter is shared over the cores, a middling one updated in cache-sized blocks
    on one thread, a small one whole; all three give exactly the whole-array update."""
    from framework.backends.cpu import threads, vector_blas
    from framework.optimizer import optimizer as base

    monkeypatch.setattr(vector_blas, "usable", lambda *arrays: False)  # the NumPy route
    monkeypatch.setattr(threads, "CPU_WORKERS", 2)
    monkeypatch.setattr(threads, "_pool", None)
    rng = np.random.default_rng(4)
    shapes = [(800, 801), (300, 301), (7,)]  # above _PARALLEL_MIN_ITEMS, above _BLOCK_ITEMS
    weights = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    grads = [[rng.standard_normal(w.shape).astype(np.float32) for w in weights] for _ in range(3)]
    grads[1][0] = np.broadcast_to(grads[1][0][:1], (800, 801))  # a non-contiguous gradient
    grads[1][1] = np.broadcast_to(grads[1][1][:1], (300, 301))
    calls = []

    def counting_parallel_for(work, n, min_items=1):
        calls.append(n)
        return parallel_for(work, n, min_items)

    parallel_for = base.parallel_for
    monkeypatch.setattr(base, "parallel_for", counting_parallel_for)
    split = run_ours(build, weights, grads)
    assert calls and set(calls) == {800 * 801}  # the big one was split, the others not
    monkeypatch.setattr(base, "_PARALLEL_MIN_ITEMS", 10**9)
    blocked = run_ours(build, weights, grads)
    monkeypatch.setattr(base, "_BLOCK_ITEMS", 10**9)
    whole = run_ours(build, weights, grads)
    for a, b, c in zip(split, blocked, whole, strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, c)


@pytest.mark.parametrize("kind", ["NAdam", "RAdam", "Adadelta", "ASGD"])
def test_new_optimizers_follow_a_scheduler_and_group_overrides_as_paddle(kind):
    """A StepDecay learning rate, a group scaling it by 0.5 with its own weight decay (and, for
    the Adam family, its own beta1), stepped between updates: the same parameters as Paddle."""
    extra = {"beta1": 0.8} if kind in ("NAdam", "RAdam") else {}

    def build(module, lr_module, ps):
        groups = [
            {"params": ps[:1]},
            {"params": ps[1:], "learning_rate": 0.5, "weight_decay": 0.05, **extra},
        ]
        scheduler = lr_module.StepDecay(0.05, step_size=2, gamma=0.5)
        return getattr(module, kind)(scheduler, parameters=groups, weight_decay=0.01), scheduler

    def train(opt_and_scheduler, params, to_tensor, grads):
        opt, scheduler = opt_and_scheduler
        for step_grads in grads:
            for p, g in zip(params, step_grads, strict=True):
                p.grad = to_tensor(g)
            opt.step()
            scheduler.step()
        return [p.numpy() for p in params]

    paddle = pytest.importorskip("paddle")
    weights, grads = problem(np.float32, seed=2)
    ours_ps = [Parameter(w.copy(), name=f"sched{i}") for i, w in enumerate(weights)]
    ours = train(
        build(framework.optimizer, framework.optimizer.lr, ours_ps),
        ours_ps,
        framework.to_tensor,
        grads,
    )
    theirs_ps = [
        paddle.create_parameter(
            list(w.shape), "float32", default_initializer=paddle.nn.initializer.Assign(w)
        )
        for w in weights
    ]
    theirs = train(
        build(paddle.optimizer, paddle.optimizer.lr, theirs_ps),
        theirs_ps,
        paddle.to_tensor,
        grads,
    )
    assert_close(ours, theirs)


def test_adamax_with_torchs_default_epsilon_differs_only_by_epsilon():
    weights, grads = problem(np.float64)
    ours = run_ours(lambda ps: Adamax(0.01, parameters=ps), weights, grads)
    theirs = run_torch(lambda t, ps: t.optim.Adamax(ps, lr=0.01), weights, grads)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-7)
        assert not np.array_equal(a, b)  # epsilon sits in a different place
