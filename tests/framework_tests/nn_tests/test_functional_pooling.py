"""Pooling: forward against naive loops, float64 numerical gradients, double backward, parity
with PyTorch (forward, gradients, argmax masks) and Paddle's conventions."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward


def _out_size(size, k, s, lo, hi, ceil):
    span = size + lo + hi - k
    count = -(-span // s) + 1 if ceil else span // s + 1
    if ceil and (count - 1) * s >= size + lo:
        count -= 1
    return count


def ref_pool2d(x, k, s, pads, ceil=False, mode="max", exclusive=True):
    """Pooling by looping over output positions; windows are clipped to the input."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)) = k, s, pads
    ho, wo = _out_size(h, kh, sh, pt, pb, ceil), _out_size(w, kw, sw, pl, pr, ceil)
    out = np.zeros((n, c, ho, wo))
    for i in range(ho):
        for j in range(wo):
            r0, c0 = i * sh - pt, j * sw - pl
            r1, c1 = min(r0 + kh, h + pb), min(c0 + kw, w + pr)
            window = x[:, :, max(r0, 0) : min(r1, h), max(c0, 0) : min(c1, w)]
            if mode == "max":
                out[:, :, i, j] = window.max(axis=(2, 3))
            else:
                divisor = window.shape[2] * window.shape[3] if exclusive else (r1 - r0) * (c1 - c0)
                out[:, :, i, j] = window.sum(axis=(2, 3)) / divisor
    return out


def ref_adaptive(x, out, mode):
    n, c, h, w = x.shape
    res = np.zeros((n, c, *out))
    for i in range(out[0]):
        for j in range(out[1]):
            r0, r1 = (i * h) // out[0], -(-(i + 1) * h // out[0])
            c0, c1 = (j * w) // out[1], -(-(j + 1) * w // out[1])
            window = x[:, :, r0:r1, c0:c1]
            res[:, :, i, j] = window.max((2, 3)) if mode == "max" else window.mean((2, 3))
    return res


# (kernel, stride, padding arg, ((top, bottom), (left, right)), ceil_mode)
POOL_CASES = {
    "k2s2": (2, 2, 0, ((0, 0), (0, 0)), False),
    "k3s2p1": (3, 2, 1, ((1, 1), (1, 1)), False),
    "k3s2p1_ceil": (3, 2, 1, ((1, 1), (1, 1)), True),
    "k2s2_ceil": (2, 2, 0, ((0, 0), (0, 0)), True),
    "k3s1p1": (3, 1, 1, ((1, 1), (1, 1)), False),
    "rect": ((2, 3), (1, 2), [1, 1], ((1, 1), (1, 1)), False),
    "four_paddings": (3, 2, [1, 0, 0, 1], ((1, 0), (0, 1)), False),
    "same": (3, 2, "SAME", ((1, 1), (0, 1)), False),
}
SHAPE = (2, 3, 7, 6)


def _x(shape=SHAPE, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


@pytest.mark.parametrize("case", list(POOL_CASES))
@pytest.mark.parametrize("mode", ["max", "avg", "avg_inclusive"])
def test_pool2d_matches_loops(case, mode):
    k, s, padding, pads, ceil = POOL_CASES[case]
    x = _x()
    if mode == "max":
        got = F.max_pool2d(framework.to_tensor(x), k, s, padding, ceil_mode=ceil)
    else:
        got = F.avg_pool2d(
            framework.to_tensor(x), k, s, padding, ceil_mode=ceil, exclusive=mode == "avg"
        )
    expected = ref_pool2d(x, _pair(k), _pair(s), pads, ceil, mode[:3], exclusive=mode == "avg")
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)


@pytest.mark.parametrize("case", list(POOL_CASES))
@pytest.mark.parametrize("op", ["max", "avg"])
def test_pool2d_gradients_are_numerically_right(case, op):
    k, s, padding, _, ceil = POOL_CASES[case]
    x = _x((1, 2, 7, 6))
    pool = F.max_pool2d if op == "max" else F.avg_pool2d
    check_backward(lambda x: pool(x, k, s, padding, ceil_mode=ceil), [x])


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.max_pool2d(x, 3, 2, 1),
        lambda x: F.avg_pool2d(x, 3, 2, 1, exclusive=False),
        lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
        lambda x: F.adaptive_avg_pool2d(x, 1),
        lambda x: F.adaptive_max_pool2d(x, (2, 3)),
    ],
    ids=["max", "avg", "adaptive_avg", "global_avg", "adaptive_max"],
)
def test_pooling_double_backward(fn):
    check_double_backward(fn, [_x((1, 2, 5, 5))])


def _torch_pool(torch, op, t, k, s, pads, ceil, exclusive=True):
    (pt, pb), (pl, pr) = pads
    fill = -float("inf") if op == "max" else 0.0
    symmetric = pt == pb and pl == pr
    padding = (pt, pl) if symmetric else 0
    if not symmetric:
        t = torch.nn.functional.pad(t, (pl, pr, pt, pb), value=fill)
    if op == "max":
        return torch.nn.functional.max_pool2d(t, k, s, padding, ceil_mode=ceil)
    return torch.nn.functional.avg_pool2d(
        t, k, s, padding, ceil_mode=ceil, count_include_pad=not exclusive
    )


@pytest.mark.parametrize("case", [c for c in POOL_CASES if c not in ("four_paddings", "same")])
@pytest.mark.parametrize("op", ["max", "avg"])
@pytest.mark.parametrize("channel_last_memory", [False, True])
def test_pool2d_matches_torch(case, op, channel_last_memory):
    torch = pytest.importorskip("torch")
    k, s, padding, pads, ceil = POOL_CASES[case]
    x = _x(dtype=np.float32)
    data = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    xt = framework.Tensor(data if channel_last_memory else x.copy(), stop_gradient=False)
    pool = F.max_pool2d if op == "max" else F.avg_pool2d
    y = pool(xt, k, s, padding, ceil_mode=ceil)
    tx = torch.tensor(x, requires_grad=True)
    ty = _torch_pool(torch, op, tx, k, s, pads, ceil)
    gy = _x(ty.shape, np.float32, seed=1)
    ty.backward(torch.tensor(gy))
    (gx,) = framework.grad(y, [xt], framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_max_pool2d_mask_matches_torch_indices():
    torch = pytest.importorskip("torch")
    x = _x(dtype=np.float32)
    y, mask = F.max_pool2d(framework.to_tensor(x), 3, 2, 1, return_mask=True)
    ty, indices = torch.nn.functional.max_pool2d(torch.tensor(x), 3, 2, 1, return_indices=True)
    assert mask.dtype == framework.int32
    np.testing.assert_array_equal(mask.numpy(), indices.numpy())
    y1, mask1 = F.max_pool1d(framework.to_tensor(x[:, :, 0]), 2, return_mask=True)
    _, idx1 = torch.nn.functional.max_pool1d(torch.tensor(x[:, :, 0]), 2, return_indices=True)
    np.testing.assert_array_equal(mask1.numpy(), idx1.numpy())


def test_pooling_follows_paddle():
    paddle = pytest.importorskip("paddle")
    x = _x((1, 2, 5, 6), np.float32)
    px = paddle.to_tensor(x)
    pairs = [
        (
            F.max_pool2d(framework.to_tensor(x), 3, 2, 1, ceil_mode=True),
            paddle.nn.functional.max_pool2d(px, 3, 2, 1, ceil_mode=True),
        ),
        (
            F.avg_pool2d(framework.to_tensor(x), 2, 2, 0, ceil_mode=True),
            paddle.nn.functional.avg_pool2d(px, 2, 2, 0, ceil_mode=True),
        ),
        (
            F.avg_pool2d(framework.to_tensor(x), 3, 2, 1, exclusive=False),
            paddle.nn.functional.avg_pool2d(px, 3, 2, 1, exclusive=False),
        ),
        (
            F.max_pool2d(framework.to_tensor(x), 2, None, "SAME"),
            paddle.nn.functional.max_pool2d(px, 2, None, "SAME"),
        ),
        (
            F.adaptive_avg_pool2d(framework.to_tensor(x), (3, 4)),
            paddle.nn.functional.adaptive_avg_pool2d(px, (3, 4)),
        ),
    ]
    for ours, theirs in pairs:
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)
    _, mask = F.adaptive_max_pool2d(framework.to_tensor(x), (2, 4), return_mask=True)
    _, paddle_mask = paddle.nn.functional.adaptive_max_pool2d(px, (2, 4), return_mask=True)
    np.testing.assert_array_equal(mask.numpy(), paddle_mask.numpy())


def test_avg_pool2d_divisor_override():
    x = _x()
    got = F.avg_pool2d(framework.to_tensor(x), 2, 2, divisor_override=3)
    sums = ref_pool2d(x, (2, 2), (2, 2), ((0, 0), (0, 0)), mode="avg") * 4
    np.testing.assert_allclose(got.numpy(), sums / 3, atol=1e-12)


@pytest.mark.parametrize("output_size", [1, (3, 4), (7, 3), (None, 2), (5, 6)])
@pytest.mark.parametrize("mode", ["avg", "max"])
def test_adaptive_pool2d_matches_loops_and_torch(output_size, mode):
    torch = pytest.importorskip("torch")
    x = _x()
    size = (output_size, output_size) if isinstance(output_size, int) else output_size
    size = tuple(SHAPE[2 + i] if v is None else v for i, v in enumerate(size))
    pool = F.adaptive_avg_pool2d if mode == "avg" else F.adaptive_max_pool2d
    np.testing.assert_allclose(
        pool(framework.to_tensor(x), output_size).numpy(), ref_adaptive(x, size, mode), atol=1e-12
    )
    check_backward(lambda x: pool(x, output_size), [x[:1]])
    x32 = x.astype(np.float32)
    xt = framework.to_tensor(x32, stop_gradient=False)
    y = pool(xt, output_size)
    tx = torch.tensor(x32, requires_grad=True)
    tpool = getattr(torch.nn.functional, f"adaptive_{mode}_pool2d")
    ty = tpool(tx, size)
    ty.backward(torch.ones_like(ty))
    (gx,) = framework.grad(y, [xt], framework.to_tensor(np.ones(y.shape, np.float32)))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_pooling_nhwc_data_format_equals_nchw():
    x = _x()
    nhwc = framework.to_tensor(np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
    for pool in (F.max_pool2d, F.avg_pool2d):
        a = pool(framework.to_tensor(x), 3, 2, 1)
        b = pool(nhwc, 3, 2, 1, data_format="NHWC")
        np.testing.assert_allclose(b.numpy(), a.numpy().transpose(0, 2, 3, 1), atol=1e-12)
    a = F.adaptive_avg_pool2d(framework.to_tensor(x), (3, 4))
    b = F.adaptive_avg_pool2d(nhwc, (3, 4), data_format="NHWC")
    np.testing.assert_allclose(b.numpy(), a.numpy().transpose(0, 2, 3, 1), atol=1e-12)
    check_backward(
        lambda x: F.max_pool2d(x, 3, 2, 1, data_format="NHWC"),
        [np.ascontiguousarray(x[:1].transpose(0, 2, 3, 1))],
    )


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (lambda x: F.max_pool1d(x, 3, 2, 1), lambda t, x: t.max_pool1d(x, 3, 2, 1)),
        (
            lambda x: F.avg_pool1d(x, 3, 2, 1),
            lambda t, x: t.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
        ),
        (lambda x: F.adaptive_avg_pool1d(x, 4), lambda t, x: t.adaptive_avg_pool1d(x, 4)),
        (lambda x: F.adaptive_max_pool1d(x, 4), lambda t, x: t.adaptive_max_pool1d(x, 4)),
    ],
    ids=["max", "avg", "adaptive_avg", "adaptive_max"],
)
def test_pool1d_matches_torch_and_numeric_gradients(ours, theirs):
    torch = pytest.importorskip("torch")
    x = _x((2, 3, 9), np.float32)
    xt = framework.to_tensor(x, stop_gradient=False)
    y = ours(xt)
    tx = torch.tensor(x, requires_grad=True)
    ty = theirs(torch.nn.functional, tx)
    ty.backward(torch.ones_like(ty))
    (gx,) = framework.grad(y, [xt], framework.to_tensor(np.ones(y.shape, np.float32)))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    check_backward(ours, [x[:1].astype(np.float64)])


def test_pooling_handles_empty_batches_and_rejects_bad_windows():
    empty = framework.to_tensor(np.zeros((0, 3, 4, 4), np.float32))
    assert F.max_pool2d(empty, 2).shape == [0, 3, 2, 2]
    assert F.avg_pool2d(empty, 2).shape == [0, 3, 2, 2]
    with pytest.raises(ValueError, match="larger than the padded input"):
        F.max_pool2d(framework.to_tensor(_x((1, 1, 2, 2))), 3)
    with pytest.raises(ValueError, match="4-D input"):
        F.avg_pool2d(framework.to_tensor(_x((1, 2, 3))), 2)


def test_max_pool2d_ties_go_to_the_first_element_like_torch():
    torch = pytest.importorskip("torch")
    x = np.round(_x((2, 3, 6, 6), np.float32))  # many equal values per window
    xt = framework.to_tensor(x, stop_gradient=False)
    y, mask = F.max_pool2d(xt, 3, 2, 1, return_mask=True)
    tx = torch.tensor(x, requires_grad=True)
    ty, indices = torch.nn.functional.max_pool2d(tx, 3, 2, 1, return_indices=True)
    ty.backward(torch.ones_like(ty))
    (gx,) = framework.grad(y, [xt], framework.to_tensor(np.ones(y.shape, np.float32)))
    np.testing.assert_array_equal(mask.numpy(), indices.numpy())
    np.testing.assert_array_equal(gx.numpy(), tx.grad.numpy())


def _with_memory(x, channel_last: bool):
    """`x` itself, or the same NCHW-shaped values laid out NHWC in memory."""
    if not channel_last:
        return np.ascontiguousarray(x)
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)


# 2x2 windows at stride 2 tiling an even-sized input run as pairwise passes (`pooling`).
@pytest.mark.parametrize("x_channel_last", [False, True])
@pytest.mark.parametrize("gy_channel_last", [False, True])
def test_max_pool2d_2x2_pairwise_path_matches_torch_with_ties(x_channel_last, gy_channel_last):
    torch = pytest.importorskip("torch")
    x = np.round(_x((2, 3, 8, 6), np.float32))  # many ties within windows
    x[0, 0, :2, :2] = 1.0  # a window of four equal values
    xt = framework.Tensor(_with_memory(x, x_channel_last), stop_gradient=False)
    y, mask = F.max_pool2d(xt, 2, 2, return_mask=True)
    tx = torch.tensor(x, requires_grad=True)
    ty, indices = torch.nn.functional.max_pool2d(tx, 2, 2, return_indices=True)
    gy = _x(ty.shape, np.float32, seed=1)
    ty.backward(torch.tensor(gy))
    (gx,) = framework.grad(y, [xt], framework.Tensor(_with_memory(gy, gy_channel_last)))
    np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
    np.testing.assert_array_equal(mask.numpy(), indices.numpy())
    np.testing.assert_array_equal(gx.numpy(), tx.grad.numpy())


@pytest.mark.parametrize("channel_last", [False, True])
def test_max_pool2d_2x2_pairwise_path_gradients(channel_last):
    x = _with_memory(_x((1, 3, 4, 6)), channel_last)
    check_backward(lambda x: F.max_pool2d(x, 2, 2), [x])
    check_double_backward(lambda x: F.max_pool2d(x, 2, 2), [x])


def test_max_pool2d_2x2_pairwise_path_equals_the_tap_path(monkeypatch):
    from framework.core.conv_geometry import ConvGeometry
    from framework.ops.nn import pooling

    geom = ConvGeometry((2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1), 1, (10, 12), (5, 6))
    for channel_last in (False, True):
        x = _with_memory(np.round(_x((64, 5, 10, 12), np.float32)), channel_last)
        gy = _x((64, 5, 5, 6), np.float32, seed=2)
        out, arg = pooling.max_pool_forward(x, geom)  # large enough to be shared over cores
        gx = pooling.TapScatter(arg, geom).forward(gy)
        with monkeypatch.context() as patch:
            patch.setattr(pooling, "_is_pair_geometry", lambda geom: False)
            tap_out, tap_arg = pooling.max_pool_forward(x, geom)
            tap_gx = pooling.TapScatter(tap_arg, geom).forward(gy)
        np.testing.assert_array_equal(out, tap_out)
        np.testing.assert_array_equal(arg, tap_arg)
        np.testing.assert_array_equal(gx, tap_gx)
        assert pooling._memory(out)[1] == channel_last  # the result keeps the input's layout


@pytest.mark.gpu
@pytest.mark.parametrize(
    "fn",
    [
        lambda x: F.max_pool2d(x, 3, 2, 1),
        lambda x: F.avg_pool2d(x, 3, 2, 1),
        lambda x: F.adaptive_avg_pool2d(x, (3, 4)),
        lambda x: F.adaptive_max_pool2d(x, (3, 4)),
    ],
    ids=["max", "avg", "adaptive_avg", "adaptive_max"],
)
def test_pooling_on_gpu_matches_cpu(fn):
    x = _x(dtype=np.float32)
    results = []
    for place in ("cpu", "gpu:0"):
        xt = framework.to_tensor(x, place=place, stop_gradient=False)
        y = fn(xt)
        gy = framework.to_tensor(np.ones(y.shape, np.float32), place=place)
        results.append([y.numpy(), framework.grad(y, [xt], gy)[0].numpy()])
    for cpu, gpu in zip(*results, strict=True):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-5, atol=1e-6)
