"""3-D pooling, BatchNorm3D, InstanceNorm3D and Pad3D: NumPy references (values and masks),
central differences, PaddlePaddle (PyTorch for `divisor_override`), layouts and errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)


def windows(x, kernel, stride, pads, fill, ceil_mode=False):
    """`[N, C, Do, Ho, Wo, kd*kh*kw]` windows of the padded input (our ceil_mode rule: the
    last window starts inside the input or its leading padding), and the output size."""
    out = []
    for size, k, s, (lo, hi) in zip(x.shape[2:], kernel, stride, pads, strict=True):
        span = size + lo + hi - k
        count = -(-span // s) + 1 if ceil_mode else span // s + 1
        if ceil_mode and (count - 1) * s >= size + lo:
            count -= 1
        out.append(count)
    widths = [(0, 0), (0, 0)] + [
        (lo, max((o - 1) * s + k - size - lo, 0))
        for size, k, s, (lo, _), o in zip(x.shape[2:], kernel, stride, pads, out, strict=True)
    ]
    xp = np.pad(x, widths, constant_values=fill)
    taps = [
        xp[:, :, a : a + stride[0] * out[0] : stride[0], b : b + stride[1] * out[1] : stride[1]][
            ..., c : c + stride[2] * out[2] : stride[2]
        ]
        for a, b, c in itertools.product(*(range(k) for k in kernel))
    ]
    return np.stack(taps, axis=-1), out


def counts(x, kernel, stride, pads, out, exclusive):
    per_axis = []
    for size, k, s, (lo, hi), o in zip(x.shape[2:], kernel, stride, pads, out, strict=True):
        start = np.arange(o) * s - lo
        stop = np.minimum(start + k, size + hi)
        if exclusive:
            start, stop = np.maximum(start, 0), np.minimum(stop, size)
        per_axis.append(stop - start)
    return np.einsum("i,j,k->ijk", *per_axis)


POOL_CASES = {
    "k2": ({"kernel_size": 2}, (2, 2, 2), (2, 2, 2), ((0, 0),) * 3, False),
    "k3_s2_p1": (
        {"kernel_size": 3, "stride": 2, "padding": 1}, (3, 3, 3), (2, 2, 2), ((1, 1),) * 3, False,
    ),
    "mixed_ceil": (
        {"kernel_size": (3, 2, 2), "stride": (2, 1, 2), "padding": [1, 0, 0], "ceil_mode": True},
        (3, 2, 2), (2, 1, 2), ((1, 1), (0, 0), (0, 0)), True,
    ),
    "six_pads": (
        {"kernel_size": 2, "padding": [1, 0, 0, 1, 1, 1]},
        (2, 2, 2), (2, 2, 2), ((1, 0), (0, 1), (1, 1)), False,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(POOL_CASES))
def test_pooling_matches_numpy(name):
    options, kernel, stride, pads, ceil_mode = POOL_CASES[name]
    x = rng.standard_normal((2, 3, 7, 6, 5))
    win, out = windows(x, kernel, stride, pads, -np.inf, ceil_mode)
    y, mask = F.max_pool3d(framework.to_tensor(x), return_mask=True, **options)
    np.testing.assert_array_equal(y.numpy(), win.max(-1))
    # The mask's flat D*H*W positions read the maxima back from the input.
    flat = x.reshape(2, 3, -1)
    picked = np.take_along_axis(flat, mask.numpy().reshape(2, 3, -1).astype(np.int64), -1)
    np.testing.assert_array_equal(picked.reshape(y.shape), y.numpy())
    assert mask.dtype == framework.int32
    win, out = windows(x, kernel, stride, pads, 0.0, ceil_mode)
    for exclusive in (True, False):
        got = F.avg_pool3d(framework.to_tensor(x), exclusive=exclusive, **options).numpy()
        want = win.sum(-1) / counts(x, kernel, stride, pads, out, exclusive)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"exclusive={exclusive}")
    got = F.avg_pool3d(framework.to_tensor(x), divisor_override=7, **options).numpy()
    np.testing.assert_allclose(got, win.sum(-1) / 7, rtol=1e-12)


def test_adaptive_pooling_matches_numpy():
    x = rng.standard_normal((2, 3, 7, 6, 5))
    out = (3, 4, 2)
    bins = [
        [(i * n // o, -(-(i + 1) * n // o)) for i in range(o)]
        for n, o in zip(x.shape[2:], out, strict=True)
    ]
    want_avg, want_max = np.empty((2, 3, *out)), np.empty((2, 3, *out))
    for (i, (d0, d1)), (j, (h0, h1)), (k, (w0, w1)) in itertools.product(*map(enumerate, bins)):
        window = x[:, :, d0:d1, h0:h1, w0:w1]
        want_avg[:, :, i, j, k] = window.mean(axis=(2, 3, 4))
        want_max[:, :, i, j, k] = window.max(axis=(2, 3, 4))
    np.testing.assert_allclose(
        F.adaptive_avg_pool3d(framework.to_tensor(x), out).numpy(), want_avg, rtol=1e-12
    )
    y, mask = F.adaptive_max_pool3d(framework.to_tensor(x), out, return_mask=True)
    np.testing.assert_array_equal(y.numpy(), want_max)
    picked = np.take_along_axis(x.reshape(2, 3, -1), mask.numpy().reshape(2, 3, -1), -1)
    np.testing.assert_array_equal(picked.reshape(y.shape), want_max)
    assert F.adaptive_avg_pool3d(framework.to_tensor(x), [None, 2, None]).shape == [2, 3, 7, 2, 5]


def test_channel_last_matches_channel_first():
    x = rng.standard_normal((2, 5, 4, 6, 3)).astype(np.float32)
    first = framework.to_tensor(x.transpose(0, 4, 1, 2, 3))
    last = framework.to_tensor(x)
    for fn in (
        lambda t, fmt: F.max_pool3d(t, 2, 1, 1, data_format=fmt),
        lambda t, fmt: F.avg_pool3d(t, 3, 2, 1, data_format=fmt),
        lambda t, fmt: F.adaptive_avg_pool3d(t, [2, 3, 2], data_format=fmt),
    ):
        np.testing.assert_allclose(
            fn(last, "NDHWC").numpy(), fn(first, "NCDHW").numpy().transpose(0, 2, 3, 4, 1)
        )


def test_gradients_match_numerical_ones():
    x = rng.standard_normal((1, 2, 4, 3, 5))
    check_backward(lambda t: F.max_pool3d(t, 2, (2, 1, 2), [1, 0, 1]), [x])
    check_backward(lambda t: F.avg_pool3d(t, 3, 2, 1, ceil_mode=True), [x])
    check_double_backward(lambda t: F.avg_pool3d(t, 3, 2, 1, ceil_mode=True), [x])
    check_backward(lambda t: F.adaptive_avg_pool3d(t, [3, 2, 2]), [x])
    check_backward(lambda t: F.adaptive_max_pool3d(t, [3, 2, 2]), [x])


def test_norm_and_pad_layers_match_numpy():
    x = rng.standard_normal((2, 3, 4, 5, 2))
    bn = nn.BatchNorm3D(3).double()
    mean, var = x.mean(axis=(0, 2, 3, 4)), x.var(axis=(0, 2, 3, 4))
    want = (x - mean.reshape(1, 3, 1, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1, 1) + 1e-5)
    np.testing.assert_allclose(bn(framework.to_tensor(x)).numpy(), want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(bn._mean.numpy(), 0.1 * mean, rtol=1e-9)
    inorm = nn.InstanceNorm3D(3).double()
    m, v = x.mean(axis=(2, 3, 4), keepdims=True), x.var(axis=(2, 3, 4), keepdims=True)
    np.testing.assert_allclose(
        inorm(framework.to_tensor(x)).numpy(), (x - m) / np.sqrt(v + 1e-5), rtol=1e-9, atol=1e-12
    )
    padded = nn.Pad3D([1, 0, 0, 2, 3, 1], mode="replicate")(framework.to_tensor(x)).numpy()
    np.testing.assert_array_equal(
        padded, np.pad(x, [(0, 0), (0, 0), (3, 1), (0, 2), (1, 0)], mode="edge")
    )
    assert nn.ZeroPad3D(1)(framework.to_tensor(x)).shape == [2, 3, 6, 7, 4]


def test_bad_arguments_are_clear_errors():
    x = framework.randn([1, 2, 4, 4, 4])
    with pytest.raises(ValueError, match="5-D input"):
        F.max_pool3d(framework.randn([1, 2, 4, 4]), 2)
    with pytest.raises(ValueError, match="larger than the padded input"):
        F.avg_pool3d(x, 5)
    with pytest.raises(ValueError, match="data_format"):
        F.avg_pool3d(x, 2, data_format="NCHW")
    with pytest.raises(ValueError, match="output_size must be positive"):
        F.adaptive_avg_pool3d(x, 0)
    with pytest.raises(ValueError, match="expects a 5-D input"):
        nn.BatchNorm3D(2)(framework.randn([1, 2, 4, 4]))
    with pytest.raises(ValueError, match="NCDHW"):
        nn.InstanceNorm3D(2, data_format="NDHWC")


# --- PaddlePaddle and PyTorch as oracles --------------------------------------------------------
@pytest.mark.parametrize("name", sorted(POOL_CASES))
def test_pooling_matches_paddle_values_masks_and_gradients(name):
    paddle = pytest.importorskip("paddle")
    options = POOL_CASES[name][0]
    x = rng.standard_normal((2, 3, 7, 6, 5)).astype(np.float32)
    for ours_fn, theirs_fn, extra in [
        (F.max_pool3d, paddle.nn.functional.max_pool3d, {}),
        (F.avg_pool3d, paddle.nn.functional.avg_pool3d, {"exclusive": True}),
        (F.avg_pool3d, paddle.nn.functional.avg_pool3d, {"exclusive": False}),
    ]:
        ox = framework.to_tensor(x, stop_gradient=False)
        tx = paddle.to_tensor(x, stop_gradient=False)
        o, t = ours_fn(ox, **options, **extra), theirs_fn(tx, **options, **extra)
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)
        g = rng.standard_normal(o.shape).astype(np.float32)
        (o * framework.to_tensor(g)).sum().backward()
        (t * paddle.to_tensor(g)).sum().backward()
        np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    if name == "six_pads":
        return  # Paddle's mask kernel takes symmetric padding only; NumPy checks ours above
    _, o_mask = F.max_pool3d(framework.to_tensor(x), return_mask=True, **options)
    _, t_mask = paddle.nn.functional.max_pool3d(paddle.to_tensor(x), return_mask=True, **options)
    np.testing.assert_array_equal(o_mask.numpy(), t_mask.numpy())


def test_divisor_override_matches_torch():
    # Paddle 3.3's 3-D pooling ignores part of divisor_override; PyTorch's is the definition.
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((2, 3, 7, 6, 5)).astype(np.float32)
    ours = F.avg_pool3d(framework.to_tensor(x), 3, 2, 1, divisor_override=5).numpy()
    theirs = torch.nn.functional.avg_pool3d(torch.from_numpy(x), 3, 2, 1, divisor_override=5)
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("output_size", [1, (3, 4, 2), (5, None, 3)])
def test_adaptive_pooling_matches_paddle(output_size):
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((2, 3, 7, 6, 5)).astype(np.float32)
    o = F.adaptive_avg_pool3d(framework.to_tensor(x), output_size)
    t = paddle.nn.functional.adaptive_avg_pool3d(paddle.to_tensor(x), output_size)
    np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)
    o, o_mask = F.adaptive_max_pool3d(framework.to_tensor(x), output_size, return_mask=True)
    t, t_mask = paddle.nn.functional.adaptive_max_pool3d(
        paddle.to_tensor(x), output_size, return_mask=True
    )
    np.testing.assert_array_equal(o.numpy(), t.numpy())
    np.testing.assert_array_equal(o_mask.numpy(), t_mask.numpy())


@pytest.mark.parametrize("data_format", ["NCDHW", "NDHWC"])
def test_batch_norm_3d_matches_paddle_in_training_and_eval(data_format):
    paddle = pytest.importorskip("paddle")
    theirs = paddle.nn.BatchNorm3D(3, data_format=data_format)
    ours = nn.BatchNorm3D(3, data_format=data_format)
    shape = (2, 3, 4, 5, 2) if data_format == "NCDHW" else (2, 4, 5, 2, 3)
    x = rng.standard_normal(shape).astype(np.float32)
    ox, tx = framework.to_tensor(x, stop_gradient=False), paddle.to_tensor(x, stop_gradient=False)
    o, t = ours(ox), theirs(tx)
    np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-4, atol=1e-5)
    (o * o).sum().backward()
    (t * t).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    for key, value in theirs.state_dict().items():
        np.testing.assert_allclose(ours.state_dict()[key].numpy(), value.numpy(), rtol=1e-5)
    ours.eval()
    theirs.eval()
    np.testing.assert_allclose(
        ours(framework.to_tensor(x)).numpy(),
        theirs(paddle.to_tensor(x)).numpy(),
        rtol=1e-4,
        atol=1e-5,
    )


def test_instance_norm_and_pad_3d_match_paddle():
    paddle = pytest.importorskip("paddle")
    x = rng.standard_normal((2, 3, 4, 5, 2)).astype(np.float32)
    theirs, ours = paddle.nn.InstanceNorm3D(3), nn.InstanceNorm3D(3)
    np.testing.assert_allclose(
        ours(framework.to_tensor(x)).numpy(),
        theirs(paddle.to_tensor(x)).numpy(),
        rtol=1e-4,
        atol=1e-5,
    )
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for mode in ("constant", "reflect", "replicate", "circular"):
        pads = [1, 0, 0, 1, 1, 1]
        o = nn.Pad3D(pads, mode=mode, value=2.0)(framework.to_tensor(x))
        t = paddle.nn.Pad3D(pads, mode=mode, value=2.0)(paddle.to_tensor(x))
        np.testing.assert_array_equal(o.numpy(), t.numpy(), err_msg=mode)


@pytest.mark.gpu
def test_pooling_3d_on_gpu_matches_the_cpu():
    x = rng.standard_normal((2, 3, 5, 6, 6)).astype(np.float32)
    pools = [
        lambda t: F.max_pool3d(t, 3, 2, 1),
        lambda t: F.avg_pool3d(t, 3, 2, 1, ceil_mode=True),
        lambda t: F.adaptive_avg_pool3d(t, [2, 3, 4]),
        lambda t: F.adaptive_max_pool3d(t, [2, 3, 4]),
    ]
    want = [pool(framework.to_tensor(x)).numpy() for pool in pools]
    framework.set_device("gpu")
    try:
        for pool, expected in zip(pools, want, strict=True):
            gx = framework.to_tensor(x, stop_gradient=False)
            y = pool(gx)
            y.sum().backward()
            np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-6)
            assert gx.grad.place.is_gpu_place()
    finally:
        framework.set_device("cpu")
