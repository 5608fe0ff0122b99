"""Gradient clipping: against torch.nn.utils and Paddle, need_clip, and inside optimizers."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.core.tensor import Parameter
from framework.nn import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue
from framework.optimizer import SGD, Momentum

SHAPES = [(3, 4), (5,), (2, 2, 2), (0, 3)]


def pairs(scale: float = 1.0, dtype=np.float32, seed: int = 0):
    rng = np.random.default_rng(seed)
    result = []
    for i, shape in enumerate(SHAPES):
        param = Parameter(np.zeros(shape, dtype), name=f"c{i}")
        grad = framework.to_tensor((rng.standard_normal(shape) * scale).astype(dtype))
        result.append((param, grad))
    return result


def torch_grads(params_grads):
    torch = pytest.importorskip("torch")
    tensors = []
    for _, grad in params_grads:
        t = torch.nn.Parameter(torch.zeros(grad.shape, dtype=torch.float64))
        t.grad = torch.tensor(grad.numpy()).to(t.dtype)
        tensors.append(t)
    return torch, tensors


@pytest.mark.parametrize("clip_norm", [0.5, 3.0, 100.0])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_global_norm_matches_torch_clip_grad_norm(clip_norm, dtype):
    params_grads = pairs(dtype=dtype)
    torch, tensors = torch_grads(params_grads)
    total = torch.nn.utils.clip_grad_norm_(tensors, clip_norm)
    clip = ClipGradByGlobalNorm(clip_norm)
    assert clip.global_norm(params_grads) == pytest.approx(float(total), rel=1e-6)
    clipped = clip(params_grads)
    for (_, ours), theirs in zip(clipped, tensors, strict=True):
        assert ours.dtype == dtype
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=2e-6, atol=1e-7)


def test_global_norm_leaves_need_clip_false_parameters_out():
    params_grads = pairs(scale=10.0)
    params_grads[0][0].need_clip = False
    torch, tensors = torch_grads(params_grads[1:])
    torch.nn.utils.clip_grad_norm_(tensors, 1.0)
    clipped = ClipGradByGlobalNorm(1.0)(params_grads)
    assert clipped[0][1] is params_grads[0][1]
    for (_, ours), theirs in zip(clipped[1:], tensors, strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=2e-6)


def test_global_norm_auto_skip_clip_touches_nothing_below_the_threshold():
    params_grads = pairs(scale=0.01)
    clipped = ClipGradByGlobalNorm(1.0, auto_skip_clip=True)(params_grads)
    assert all(a[1] is b[1] for a, b in zip(clipped, params_grads, strict=True))
    big = ClipGradByGlobalNorm(0.01, auto_skip_clip=True)(params_grads)
    assert ClipGradByGlobalNorm(1.0).global_norm(big) == pytest.approx(0.01, rel=1e-5)


def test_clip_by_norm_rescales_each_gradient_on_its_own():
    params_grads = pairs(scale=2.0)
    clipped = ClipGradByNorm(1.5)(params_grads)
    for (_, before), (_, after) in zip(params_grads, clipped, strict=True):
        norm = np.linalg.norm(before.numpy())
        expected = before.numpy() * (1.5 / norm) if norm > 1.5 else before.numpy()
        np.testing.assert_allclose(after.numpy(), expected, rtol=1e-6)
        assert np.linalg.norm(after.numpy()) <= 1.5 + 1e-5


@pytest.mark.parametrize(("maximum", "minimum"), [(0.5, None), (0.2, -0.1)])
def test_clip_by_value_matches_torch(maximum, minimum):
    params_grads = pairs()
    torch, tensors = torch_grads(params_grads)
    if minimum is None:
        torch.nn.utils.clip_grad_value_(tensors, maximum)
    else:
        for t in tensors:
            t.grad.clamp_(minimum, maximum)
    clipped = ClipGradByValue(max=maximum, min=minimum)(params_grads)
    for (_, ours), theirs in zip(clipped, tensors, strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-6)


def test_clipping_drops_missing_grads_and_keeps_the_originals():
    params_grads = pairs() + [(Parameter(np.zeros(2, np.float32)), None)]
    originals = [g.numpy().copy() for _, g in params_grads[:-1]]
    for clip in (ClipGradByGlobalNorm(0.1), ClipGradByNorm(0.1), ClipGradByValue(0.1)):
        clipped = clip(params_grads)
        assert len(clipped) == len(SHAPES)
        for (_, grad), original in zip(params_grads[:-1], originals, strict=True):
            np.testing.assert_array_equal(grad.numpy(), original)


def test_clip_by_value_needs_a_positive_max_without_min():
    with pytest.raises(ValueError, match="max > 0"):
        ClipGradByValue(max=-1.0)


@pytest.mark.parametrize("kind", ["global", "norm", "value"])
def test_optimizer_grad_clip_matches_paddle(kind):
    paddle = pytest.importorskip("paddle")
    rng = np.random.default_rng(5)
    weights = [rng.standard_normal(s).astype(np.float32) for s in [(4, 3), (3,)]]
    grads = [
        [rng.standard_normal(w.shape).astype(np.float32) * 3 for w in weights] for _ in range(3)
    ]
    build = {
        "global": lambda nn: nn.ClipGradByGlobalNorm(1.0),
        "norm": lambda nn: nn.ClipGradByNorm(0.5),
        "value": lambda nn: nn.ClipGradByValue(0.3),
    }[kind]
    ours_ps = [Parameter(w.copy(), name=f"g{i}") for i, w in enumerate(weights)]
    ours_ps[1].need_clip = False
    theirs_ps = [
        paddle.create_parameter(
            list(w.shape),
            "float32",
            attr=paddle.ParamAttr(need_clip=i == 0),
            default_initializer=paddle.nn.initializer.Assign(w),
        )
        for i, w in enumerate(weights)
    ]
    ours = Momentum(0.1, parameters=ours_ps, grad_clip=build(framework.nn))
    theirs = paddle.optimizer.Momentum(0.1, parameters=theirs_ps, grad_clip=build(paddle.nn))
    for step_grads in grads:
        for p, q, g in zip(ours_ps, theirs_ps, step_grads, strict=True):
            p.grad = framework.to_tensor(g)
            q.grad = paddle.to_tensor(g)
        ours.step()
        theirs.step()
    for p, q in zip(ours_ps, theirs_ps, strict=True):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-5, atol=1e-6)


def test_a_param_groups_own_grad_clip_applies_to_that_group_only():
    ps = [Parameter(np.zeros(3, np.float32), name=f"q{i}") for i in range(2)]
    opt = SGD(
        1.0,
        parameters=[{"params": [ps[0]], "grad_clip": ClipGradByValue(0.1)}, {"params": [ps[1]]}],
    )
    for p in ps:
        p.grad = framework.to_tensor([1.0, -1.0, 0.05])
    opt.step()
    np.testing.assert_allclose(ps[0].numpy(), [-0.1, 0.1, -0.05])
    np.testing.assert_allclose(ps[1].numpy(), [-1.0, 1.0, -0.05])
