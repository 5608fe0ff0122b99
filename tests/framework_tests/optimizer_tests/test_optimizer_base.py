"""The Optimizer base: parameter groups, learning rates, regularizers, skipping, errors."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter, Tensor
from framework.optimizer import SGD, Adam, AdamW, Momentum, Optimizer, lr
from framework.regularizer import L1Decay, L2Decay

rng = np.random.default_rng(7)
W = [rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (4,), (2, 2)]]
G = [[rng.standard_normal(w.shape).astype(np.float32) for w in W] for _ in range(3)]


def params(**attrs) -> list[Parameter]:
    return [Parameter(w.copy(), name=f"p{i}", **attrs) for i, w in enumerate(W)]


def train(opt, ps, grads=G):
    for step_grads in grads:
        for p, g in zip(ps, step_grads, strict=True):
            p.grad = framework.to_tensor(g)
        opt.step()
    return [p.numpy() for p in ps]


def paddle_params(paddle, attrs=None):
    attrs = attrs or [None] * len(W)
    return [
        paddle.create_parameter(
            list(w.shape), "float32", attr=a, default_initializer=paddle.nn.initializer.Assign(w)
        )
        for w, a in zip(W, attrs, strict=True)
    ]


def paddle_train(opt, ps):
    for step_grads in G:
        for p, g in zip(ps, step_grads, strict=True):
            p.grad = opt_paddle().to_tensor(g)
        opt.step()
    return [p.numpy() for p in ps]


def opt_paddle():
    return pytest.importorskip("paddle")


def assert_all_close(ours, theirs):
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["Momentum", "Adam", "SGD"])
def test_param_groups_scale_the_lr_and_override_weight_decay_as_paddle(kind):
    paddle = opt_paddle()
    ours_ps, theirs_ps = params(), paddle_params(paddle)

    def groups(ps, l2):
        return [
            {"params": [ps[0]]},
            {"params": ps[1:], "learning_rate": 0.1, "weight_decay": l2(0.5)},
        ]

    ours = getattr(framework.optimizer, kind)(
        learning_rate=0.2, parameters=groups(ours_ps, L2Decay), weight_decay=0.01
    )
    theirs = getattr(paddle.optimizer, kind)(
        learning_rate=0.2,
        parameters=groups(theirs_ps, paddle.regularizer.L2Decay),
        weight_decay=0.01,
    )
    assert_all_close(train(ours, ours_ps), paddle_train(theirs, theirs_ps))


def test_group_hyperparameters_override_the_optimizer_defaults():
    ps = params()
    opt = Momentum(
        0.1, momentum=0.9, parameters=[{"params": ps[:1]}, {"params": ps[1:], "momentum": 0.0}]
    )
    trained = train(opt, ps, G[:2])
    reference = params()
    plain = train(SGD(0.1, parameters=reference), reference, G[:2])
    assert_all_close(trained[1:], plain[1:])  # momentum 0 is plain SGD
    assert not np.allclose(trained[0], plain[0])


def test_a_parameters_own_regularizer_wins_over_the_optimizers_as_paddle():
    paddle = opt_paddle()
    ours_ps = params()
    ours_ps[0].regularizer = L1Decay(0.3)
    attrs = [paddle.ParamAttr(regularizer=paddle.regularizer.L1Decay(0.3)), None, None]
    theirs_ps = paddle_params(paddle, attrs)
    ours = Momentum(0.1, parameters=ours_ps, weight_decay=0.2)
    theirs = paddle.optimizer.Momentum(0.1, parameters=theirs_ps, weight_decay=0.2)
    assert_all_close(train(ours, ours_ps), paddle_train(theirs, theirs_ps))


def test_a_parameters_learning_rate_multiplier_applies_as_paddle():
    paddle = opt_paddle()
    ours_ps = params()
    ours_ps[1].optimize_attr["learning_rate"] = 0.25
    attrs = [None, paddle.ParamAttr(learning_rate=0.25), None]
    theirs_ps = paddle_params(paddle, attrs)
    ours = Adam(0.05, parameters=ours_ps)
    theirs = paddle.optimizer.Adam(0.05, parameters=theirs_ps)
    assert_all_close(train(ours, ours_ps), paddle_train(theirs, theirs_ps))


def test_a_scheduler_drives_the_learning_rate_as_paddle():
    paddle = opt_paddle()
    ours_ps, theirs_ps = params(), paddle_params(paddle)
    ours_sched = lr.StepDecay(0.5, step_size=1, gamma=0.5)
    theirs_sched = paddle.optimizer.lr.StepDecay(0.5, step_size=1, gamma=0.5)
    ours = Momentum(ours_sched, parameters=ours_ps)
    theirs = paddle.optimizer.Momentum(theirs_sched, parameters=theirs_ps)
    for step_grads in G:
        for p, q, g in zip(ours_ps, theirs_ps, step_grads, strict=True):
            p.grad = framework.to_tensor(g)
            q.grad = paddle.to_tensor(g)
        ours.step()
        theirs.step()
        assert ours.get_lr() == theirs.get_lr()
        ours_sched.step()
        theirs_sched.step()
    assert_all_close([p.numpy() for p in ours_ps], [p.numpy() for p in theirs_ps])


def test_it_skips_stop_gradient_parameters_and_missing_grads():
    ps = params()
    ps[0].stop_gradient = True
    opt = Adam(0.1, parameters=ps)
    ps[0].grad = framework.to_tensor(G[0][0])
    ps[2].grad = framework.to_tensor(G[0][2])
    opt.step()
    np.testing.assert_array_equal(ps[0].numpy(), W[0])
    np.testing.assert_array_equal(ps[1].numpy(), W[1])
    assert not np.allclose(ps[2].numpy(), W[2])
    assert set(opt.state_dict()) == {
        f"p2_{n}_0" for n in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")
    }


def test_step_updates_in_place_and_leaves_the_gradient_alone():
    ps = params()
    arrays = [p._data for p in ps]
    opt = Momentum(
        0.1, parameters=ps, weight_decay=0.1, grad_clip=framework.nn.ClipGradByGlobalNorm(0.1)
    )
    for p, g in zip(ps, G[0], strict=True):
        p.grad = framework.to_tensor(g)
    opt.step()
    assert all(p._data is a for p, a in zip(ps, arrays, strict=True))
    np.testing.assert_array_equal(ps[0].grad.numpy(), G[0][0])
    assert ps[0]._node is None


def test_a_warm_step_allocates_no_parameter_sized_temporaries():
    big = Parameter(np.ones((256, 256), np.float32), name="big")
    for build in (
        lambda ps: Momentum(0.1, parameters=ps, use_nesterov=True, weight_decay=1e-4),
        lambda ps: Adam(0.1, parameters=ps, weight_decay=1e-4),
        lambda ps: AdamW(0.1, parameters=ps),
    ):
        opt = build([big])
        big.grad = framework.to_tensor(np.full((256, 256), 0.5, np.float32))
        opt.step()  # creates the accumulators and scratch buffers
        tracemalloc.start()
        opt.step()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak < big._data.nbytes // 8, f"{type(opt).__name__} allocated {peak} bytes"


def test_clear_grad_zeroes_or_drops_gradients_of_trainable_parameters():
    ps = params()
    opt = SGD(0.1, parameters=ps)
    for p, g in zip(ps, G[0], strict=True):
        p.grad = framework.to_tensor(g)
    ps[2].stop_gradient = True
    opt.clear_grad()
    np.testing.assert_array_equal(ps[0].grad.numpy(), np.zeros_like(W[0]))
    np.testing.assert_array_equal(ps[2].grad.numpy(), G[0][2])
    opt.clear_grad(set_to_zero=False)
    assert ps[0].grad is None
    opt.clear_gradients()


def test_minimize_applies_existing_gradients_and_honours_no_grad_set():
    ps = params()
    opt = SGD(0.5, parameters=ps)
    for p, g in zip(ps, G[0], strict=True):
        p.grad = framework.to_tensor(g)
    ops, params_grads = opt.minimize(framework.to_tensor(1.0), no_grad_set={ps[1]})
    assert ops == [] and [p.name for p, _ in params_grads] == ["p0", "p2"]
    np.testing.assert_allclose(ps[0].numpy(), W[0] - 0.5 * G[0][0], rtol=1e-6)
    np.testing.assert_array_equal(ps[1].numpy(), W[1])
    opt.minimize(framework.to_tensor(1.0), parameters=[ps[1]])
    np.testing.assert_allclose(ps[1].numpy(), W[1] - 0.5 * G[0][1], rtol=1e-6)


def test_get_lr_and_set_lr():
    ps = params()
    opt = SGD(0.1, parameters=ps)
    opt.set_lr(0.3)
    assert opt.get_lr() == 0.3
    with pytest.raises(TypeError, match="float"):
        opt.set_lr("fast")
    scheduled = SGD(lr.ExponentialDecay(0.5, gamma=0.5), parameters=ps)
    assert scheduled.get_lr() == 0.5
    with pytest.raises(RuntimeError, match="LRScheduler"):
        scheduled.set_lr(0.1)
    scheduled.set_lr_scheduler(lr.StepDecay(0.2, step_size=1))
    assert scheduled.get_lr() == 0.2


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"parameters": None}, AttributeError, "should not be None"),
        ({"parameters": "tensor"}, TypeError, "single Tensor"),
        ({"parameters": {"a": 1}}, TypeError, "list of dicts"),
        ({"parameters": []}, ValueError, "empty"),
        ({"learning_rate": "0.1"}, TypeError, "float or LRScheduler"),
        ({"grad_clip": 1.0}, TypeError, "ClipGradByGlobalNorm"),
        ({"weight_decay": "l2"}, TypeError, "weight_decay"),
    ],
)
def test_it_rejects_bad_arguments(kwargs, error, match):
    arguments = {"learning_rate": 0.1, "parameters": params()}
    arguments.update(kwargs)
    if arguments["parameters"] == "tensor":
        arguments["parameters"] = Tensor(np.ones(2))
    with pytest.raises(error, match=match):
        SGD(**arguments)


def test_it_rejects_a_parameter_in_two_groups():
    ps = params()
    with pytest.raises(ValueError, match="more than one parameter group"):
        SGD(0.1, parameters=[{"params": ps[:2]}, {"params": ps[1:]}])


def test_the_base_class_cannot_step():
    ps = params()
    ps[0].grad = framework.to_tensor(G[0][0])
    with pytest.raises(NotImplementedError, match="subclass"):
        Optimizer(0.1, parameters=ps).step()


def test_regularizers_add_their_term_to_the_gradient():
    param = framework.to_tensor([-2.0, 0.0, 3.0])
    grad = framework.to_tensor([1.0, 1.0, 1.0])
    np.testing.assert_allclose(L2Decay(0.5)(param, grad).numpy(), [-1.0, 0.0, 1.5])
    np.testing.assert_allclose(L1Decay(0.5)(param, grad).numpy(), [-0.5, 0.0, 0.5])
    out = np.empty(3, np.float32)
    result = L1Decay(0.5).regularized_grad(param._data, grad._data, out=out)
    assert result is out
    np.testing.assert_allclose(out, [0.5, 1.0, 1.5])
    assert str(L2Decay(0.5)) == "L2Decay, coeff=0.500000"
