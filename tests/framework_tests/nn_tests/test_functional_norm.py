"""batch_norm / layer_norm / group_norm / instance_norm / normalize: NumPy references,
float64 numerical gradients, double backward, PyTorch parity (float32) and Paddle's
running-statistics convention."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward


def _rand(shape, dtype=np.float64, seed=0, scale=1.0, shift=0.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale + shift).astype(dtype)


def ref_normalize(x, axes, gamma, beta, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


# (shape, data_format, channel axis)
BN_LAYOUTS = {
    "NC": ((6, 3), "NC", 1),
    "NCL": ((4, 3, 5), "NCL", 1),
    "NCHW": ((4, 3, 5, 6), "NCHW", 1),
    "NCDHW": ((2, 3, 2, 3, 4), "NCDHW", 1),
    "NLC": ((4, 5, 3), "NLC", 2),
    "NHWC": ((4, 5, 6, 3), "NHWC", 3),
}


def _bn_ref(x, channel_axis, gamma, beta, eps=1e-5):
    axes = tuple(i for i in range(x.ndim) if i != channel_axis)
    shape = [1] * x.ndim
    shape[channel_axis] = -1
    return ref_normalize(x, axes, gamma.reshape(shape), beta.reshape(shape), eps), axes


def _running(c, dtype=np.float64):
    return (
        framework.to_tensor(np.linspace(-0.5, 0.5, c).astype(dtype)),
        framework.to_tensor(np.linspace(0.5, 2.0, c).astype(dtype)),
    )


@pytest.mark.parametrize("layout", list(BN_LAYOUTS))
def test_batch_norm_training_normalizes_and_updates_running_stats(layout):
    shape, fmt, axis = BN_LAYOUTS[layout]
    x = _rand(shape, scale=2.0, shift=3.0)
    gamma, beta = _rand(3, seed=1), _rand(3, seed=2)
    mean, var = _running(3)
    old_mean, old_var = mean.numpy().copy(), var.numpy().copy()
    y = F.batch_norm(
        framework.to_tensor(x),
        mean,
        var,
        framework.to_tensor(gamma),
        framework.to_tensor(beta),
        training=True,
        momentum=0.8,
        data_format=fmt,
    )
    expected, axes = _bn_ref(x, axis, gamma, beta)
    np.testing.assert_allclose(y.numpy(), expected, atol=1e-10)
    np.testing.assert_allclose(mean.numpy(), 0.8 * old_mean + 0.2 * x.mean(axis=axes), atol=1e-12)
    np.testing.assert_allclose(var.numpy(), 0.8 * old_var + 0.2 * x.var(axis=axes), atol=1e-12)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC", "NC"])
def test_batch_norm_eval_uses_running_stats(layout):
    shape, fmt, axis = BN_LAYOUTS[layout]
    x = _rand(shape)
    gamma, beta = _rand(3, seed=1), _rand(3, seed=2)
    mean, var = _running(3)
    y = F.batch_norm(
        framework.to_tensor(x),
        mean,
        var,
        framework.to_tensor(gamma),
        framework.to_tensor(beta),
        data_format=fmt,
    )
    view = [1] * x.ndim
    view[axis] = -1
    expected = (x - mean.numpy().reshape(view)) / np.sqrt(var.numpy().reshape(view) + 1e-5)
    expected = expected * gamma.reshape(view) + beta.reshape(view)
    np.testing.assert_allclose(y.numpy(), expected, atol=1e-12)
    np.testing.assert_allclose(mean.numpy(), np.linspace(-0.5, 0.5, 3))


def test_batch_norm_use_global_stats_overrides_training():
    x = _rand((4, 3, 2, 2))
    mean, var = _running(3)
    fixed = F.batch_norm(framework.to_tensor(x), mean, var, training=True, use_global_stats=True)
    evaluated = F.batch_norm(framework.to_tensor(x), mean, var, training=False)
    np.testing.assert_allclose(fixed.numpy(), evaluated.numpy())
    np.testing.assert_allclose(mean.numpy(), np.linspace(-0.5, 0.5, 3))
    batch = F.batch_norm(framework.to_tensor(x), mean, var, training=False, use_global_stats=False)
    np.testing.assert_allclose(batch.numpy(), _bn_ref(x, 1, np.ones(3), np.zeros(3))[0], atol=1e-10)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("layout", ["NCHW", "NHWC", "NCL"])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_gradients(training, layout, affine):
    fmt = BN_LAYOUTS[layout][1]
    x = _rand({"NCHW": (3, 3, 2, 2), "NHWC": (3, 2, 2, 3), "NCL": (3, 3, 4)}[layout])
    params = [_rand(3, seed=1), _rand(3, seed=2)] if affine else []

    def fn(x, *p):
        mean, var = _running(3)
        weight, bias = p if p else (None, None)
        return F.batch_norm(x, mean, var, weight, bias, training=training, data_format=fmt)

    check_backward(fn, [x, *params])
    check_double_backward(fn, [x, *params])


@pytest.mark.parametrize("channel_last_memory", [False, True])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_matches_torch(channel_last_memory, training):
    torch = pytest.importorskip("torch")
    x = _rand((8, 4, 5, 6), np.float32, scale=3.0, shift=2.0)
    gamma, beta = _rand(4, np.float32, 1), _rand(4, np.float32, 2)
    data = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    xt = framework.Tensor(data if channel_last_memory else x.copy(), stop_gradient=False)
    params = [framework.to_tensor(p, stop_gradient=False) for p in (gamma, beta)]
    mean, var = _running(4, np.float32)
    y = F.batch_norm(xt, mean, var, *params, training=training, momentum=0.9)
    tx, tg, tb = (torch.tensor(a, requires_grad=True) for a in (x, gamma, beta))
    tmean, tvar = torch.linspace(-0.5, 0.5, 4), torch.linspace(0.5, 2.0, 4)
    ty = torch.nn.functional.batch_norm(tx, tmean, tvar, tg, tb, training=training, momentum=0.1)
    gy = _rand(x.shape, np.float32, seed=3)
    ty.backward(torch.tensor(gy))
    grads = framework.grad(y, [xt, *params], framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-5)
    for ours, theirs in zip(grads, (tx, tg, tb), strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=2e-5)
    np.testing.assert_allclose(mean.numpy(), tmean.numpy(), rtol=1e-5, atol=1e-6)
    # Paddle tracks the biased batch variance, PyTorch the unbiased one: undo the factor.
    n = x.size // 4
    torch_update = tvar.numpy() - np.linspace(0.5, 2.0, 4) * 0.9
    ours_update = var.numpy() - np.linspace(0.5, 2.0, 4) * 0.9
    expected = torch_update * (n - 1) / n if training else torch_update
    np.testing.assert_allclose(ours_update, expected, rtol=1e-4, atol=1e-6)


def test_batch_norm_running_stats_follow_paddle():
    paddle = pytest.importorskip("paddle")
    x = _rand((6, 3, 4, 4), np.float32, scale=2.0, shift=1.0)
    mean, var = _running(3, np.float32)
    pmean, pvar = (paddle.to_tensor(t.numpy()) for t in (mean, var))
    y = F.batch_norm(framework.to_tensor(x), mean, var, training=True, momentum=0.7)
    py = paddle.nn.functional.batch_norm(
        paddle.to_tensor(x), pmean, pvar, training=True, momentum=0.7
    )
    np.testing.assert_allclose(y.numpy(), py.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), pmean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.numpy(), pvar.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "shape, normalized", [((2, 3, 4), 4), ((2, 3, 4), [3, 4]), ((5, 6), [6]), ((0, 4), 4)]
)
def test_layer_norm_matches_numpy_and_gradients(shape, normalized):
    x = _rand(shape)
    dims = [normalized] if isinstance(normalized, int) else normalized
    gamma, beta = _rand(dims, seed=1), _rand(dims, seed=2)
    y = F.layer_norm(
        framework.to_tensor(x), normalized, framework.to_tensor(gamma), framework.to_tensor(beta)
    )
    axes = tuple(range(x.ndim - len(dims), x.ndim))
    if x.size:
        np.testing.assert_allclose(y.numpy(), ref_normalize(x, axes, gamma, beta, 1e-5), atol=1e-10)
        check_backward(lambda x, g, b: F.layer_norm(x, normalized, g, b), [x, gamma, beta])
        check_double_backward(lambda x, g, b: F.layer_norm(x, normalized, g, b), [x, gamma, beta])
    else:
        assert y.shape == list(shape)


def test_layer_norm_accepts_paddles_flattened_weight_and_matches_torch():
    torch = pytest.importorskip("torch")
    x = _rand((2, 5, 3, 4), np.float32)
    gamma, beta = _rand(12, np.float32, 1), _rand(12, np.float32, 2)
    xs = [framework.to_tensor(a, stop_gradient=False) for a in (x, gamma, beta)]
    y = F.layer_norm(xs[0], [3, 4], xs[1], xs[2], epsilon=1e-6)
    tx, tg, tb = (torch.tensor(a, requires_grad=True) for a in (x, gamma, beta))
    ty = torch.nn.functional.layer_norm(tx, (3, 4), tg.reshape(3, 4), tb.reshape(3, 4), eps=1e-6)
    gy = _rand(x.shape, np.float32, 3)
    ty.backward(torch.tensor(gy))
    grads = framework.grad(y, xs, framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-5)
    assert grads[1].shape == [12]
    for ours, theirs in zip(grads, (tx, tg, tb), strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_group_norm_matches_numpy_torch_and_gradients(data_format):
    torch = pytest.importorskip("torch")
    x = _rand((2, 6, 3, 2))
    gamma, beta = _rand(6, seed=1), _rand(6, seed=2)
    grouped = x.reshape(2, 3, 2, 3, 2)
    expected = ref_normalize(grouped, (2, 3, 4), 1.0, 0.0, 1e-5).reshape(x.shape)
    expected = expected * gamma.reshape(1, 6, 1, 1) + beta.reshape(1, 6, 1, 1)
    x_in = x if data_format == "NCHW" else x.transpose(0, 2, 3, 1).copy()
    y = F.group_norm(
        framework.to_tensor(x_in),
        3,
        1e-5,
        framework.to_tensor(gamma),
        framework.to_tensor(beta),
        data_format=data_format,
    )
    got = y.numpy() if data_format == "NCHW" else y.numpy().transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, expected, atol=1e-10)
    check_backward(lambda x, g, b: F.group_norm(x, 3, 1e-5, g, b, data_format), [x_in, gamma, beta])
    check_double_backward(lambda x, g, b: F.group_norm(x, 3, 1e-5, g, b), [x[:1], gamma, beta])
    ty = torch.nn.functional.group_norm(torch.tensor(x), 3, torch.tensor(gamma), torch.tensor(beta))
    np.testing.assert_allclose(got, ty.numpy(), atol=1e-10)


def test_instance_norm_matches_numpy_torch_and_gradients():
    torch = pytest.importorskip("torch")
    x = _rand((2, 3, 4, 3), np.float32)
    gamma, beta = _rand(3, np.float32, 1), _rand(3, np.float32, 2)
    xs = [framework.to_tensor(a, stop_gradient=False) for a in (x, gamma, beta)]
    y = F.instance_norm(xs[0], weight=xs[1], bias=xs[2])
    expected = ref_normalize(x, (2, 3), gamma.reshape(1, 3, 1, 1), beta.reshape(1, 3, 1, 1), 1e-5)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
    tx, tg, tb = (torch.tensor(a, requires_grad=True) for a in (x, gamma, beta))
    ty = torch.nn.functional.instance_norm(tx, weight=tg, bias=tb)
    gy = _rand(x.shape, np.float32, 3)
    ty.backward(torch.tensor(gy))
    for ours, theirs in zip(
        framework.grad(y, xs, framework.to_tensor(gy)), (tx, tg, tb), strict=True
    ):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)
    x64 = x.astype(np.float64)[:1]
    check_backward(
        lambda x, g, b: F.instance_norm(x, weight=g, bias=b), [x64, gamma * 1.0, beta * 1.0]
    )
    check_double_backward(lambda x: F.instance_norm(x), [x64])


def test_instance_norm_with_running_stats_is_per_channel_affine():
    x = _rand((2, 3, 4))
    mean, var = _running(3)
    y = F.instance_norm(framework.to_tensor(x), mean, var, use_input_stats=False)
    expected = (x - mean.numpy()[:, None]) / np.sqrt(var.numpy()[:, None] + 1e-5)
    np.testing.assert_allclose(y.numpy(), expected, atol=1e-12)


@pytest.mark.parametrize("p, axis", [(2, 1), (2, -1), (1, 0), (3, 1)])
def test_normalize_matches_numpy_torch_and_gradients(p, axis):
    torch = pytest.importorskip("torch")
    x = _rand((3, 4, 2))
    x[0, :, 0] = 0.0  # a zero vector divides by epsilon instead of 0
    norm = (np.abs(x) ** p).sum(axis=axis, keepdims=True) ** (1.0 / p)
    y = F.normalize(framework.to_tensor(x), p=p, axis=axis)
    np.testing.assert_allclose(y.numpy(), x / np.maximum(norm, 1e-12), atol=1e-12)
    ty = torch.nn.functional.normalize(torch.tensor(x), p=p, dim=axis)
    np.testing.assert_allclose(y.numpy(), ty.numpy(), atol=1e-12)
    smooth = _rand((3, 4, 2), seed=5)
    check_backward(lambda x: F.normalize(x, p=p, axis=axis), [smooth])
    check_double_backward(lambda x: F.normalize(x, p=p, axis=axis), [smooth])


def test_norms_name_bad_parameters():
    x = framework.to_tensor(_rand((2, 3, 4, 4)))
    mean, var = _running(3)
    with pytest.raises(ValueError, match="batch_norm: weight must have 3 elements"):
        F.batch_norm(x, mean, var, framework.to_tensor(np.ones(4)))
    with pytest.raises(ValueError, match="data_format"):
        F.batch_norm(x, mean, var, data_format="CHWN")
    with pytest.raises(ValueError, match="does not match the input's trailing dims"):
        F.layer_norm(x, [3, 4])
    with pytest.raises(ValueError, match="must divide 3 channels"):
        F.group_norm(x, 2)


@pytest.mark.parametrize("channel_last_memory", [False, True])
def test_batch_norm_large_enough_for_threaded_blocks_matches_torch(
    channel_last_memory, monkeypatch
):
    """A batch big enough that the statistics and gradient passes are split over threads
    (NumPy's route: oneDNN, which channel-last memory would take, is held off)."""
    torch = pytest.importorskip("torch")
    from framework.backends.cpu import threads
    from framework.backends.cpu.onednn import training as onednn

    monkeypatch.setattr(onednn, "batch_norm_primitive", lambda x, eps: None)
    shared = []
    parallel_for = threads.parallel_for
    monkeypatch.setattr(threads, "CPU_WORKERS", 3)
    monkeypatch.setattr(
        threads, "parallel_for", lambda *a, **k: shared.append(a[1]) or parallel_for(*a, **k)
    )
    x = _rand((16, 64, 32, 32), np.float32, scale=2.0, shift=1.0)  # 2**20: shared out
    data = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    xt = framework.Tensor(data if channel_last_memory else x.copy(), stop_gradient=False)
    gamma = framework.to_tensor(_rand(64, np.float32, 1), stop_gradient=False)
    mean, var = (
        framework.to_tensor(np.zeros(64, np.float32)),
        framework.to_tensor(np.ones(64, np.float32)),
    )
    y = F.batch_norm(xt, mean, var, gamma, training=True)
    tx, tg = torch.tensor(x, requires_grad=True), torch.tensor(gamma.numpy(), requires_grad=True)
    ty = torch.nn.functional.batch_norm(tx, torch.zeros(64), torch.ones(64), tg, training=True)
    gy = _rand(x.shape, np.float32, 3)
    ty.backward(torch.tensor(gy))
    gx, gg = framework.grad(y, [xt, gamma], framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(gg.numpy(), tg.grad.numpy(), rtol=1e-3, atol=1e-2)
    np.testing.assert_allclose(mean.numpy(), 0.1 * x.mean(axis=(0, 2, 3)), rtol=1e-4, atol=1e-6)
    assert len(shared) == 4  # statistics, affine, gradient sums, gradient


@pytest.mark.parametrize("channel_last_memory", [False, True])
@pytest.mark.parametrize("offset, centered", [(2.0, False), (3000.0, True)])
def test_batch_norm_float32_statistics_and_gradients_survive_large_means(
    channel_last_memory, offset, centered, monkeypatch
):
    """Plain sums of x and x^2 cancel when a channel's mean dwarfs its spread; such tensors take
    their sums about the mean instead. Both routes against a float64 reference."""
    from framework.ops.nn import batch_norm_kernels

    calls = []
    real = batch_norm_kernels._centered_moments
    monkeypatch.setattr(
        batch_norm_kernels, "_centered_moments", lambda *a: calls.append(1) or real(*a)
    )
    x = _rand((8, 5, 12, 12), np.float64, scale=0.5, shift=offset)
    x[:, 1] += 1.5  # channels differ in mean
    gy = _rand(x.shape, np.float64, seed=1)
    gamma = _rand(5, np.float64, seed=2)
    results = {}
    for dtype in (np.float32, np.float64):
        data = x.astype(dtype)
        if channel_last_memory:
            data = np.ascontiguousarray(data.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
        xt = framework.Tensor(data, stop_gradient=False)
        gt = framework.to_tensor(gamma.astype(dtype), stop_gradient=False)
        mean = framework.to_tensor(np.zeros(5, dtype))
        var = framework.to_tensor(np.ones(5, dtype))
        y = F.batch_norm(xt, mean, var, gt, training=True)
        gx, gg = framework.grad(y, [xt, gt], framework.to_tensor(gy.astype(dtype)))
        results[dtype] = (y.numpy(), gx.numpy(), gg.numpy(), var.numpy())
    assert bool(calls) == centered
    for got, want in zip(results[np.float32], results[np.float64], strict=True):
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3 * np.abs(want).max())


@pytest.mark.gpu
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_and_layer_norm_on_gpu_match_cpu(training):
    x = _rand((4, 3, 5, 6), np.float32, scale=2.0, shift=1.0)
    gamma, beta = _rand(3, np.float32, 1), _rand(3, np.float32, 2)
    results = []
    for place in ("cpu", "gpu:0"):
        xs = [framework.to_tensor(a, place=place, stop_gradient=False) for a in (x, gamma, beta)]
        mean = framework.to_tensor(np.zeros(3, np.float32), place=place)
        var = framework.to_tensor(np.ones(3, np.float32), place=place)
        y = F.batch_norm(xs[0], mean, var, xs[1], xs[2], training=training)
        z = F.layer_norm(xs[0], [5, 6])
        gy = framework.to_tensor(_rand(x.shape, np.float32, 3), place=place)
        grads = framework.grad([y, z], xs, [gy, gy])
        results.append([y.numpy(), z.numpy(), mean.numpy(), *(g.numpy() for g in grads)])
    for cpu, gpu in zip(*results, strict=True):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-5)
