"""conv3d / conv3d_transpose and the Conv3D / Conv3DTranspose layers: NumPy references,
central differences (double backward included), PaddlePaddle with the same weights
(outputs and gradients), layouts, padding modes, errors and the GPU."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)


def conv3d_ref(x, w, b, stride, pads, dilation, groups):
    """Direct sum over kernel taps, float64."""
    xp = np.pad(x, [(0, 0), (0, 0), *pads])
    out_channels, per_group, *kernel = w.shape
    out = [
        (size - d * (k - 1) - 1) // s + 1
        for size, k, s, d in zip(xp.shape[2:], kernel, stride, dilation, strict=True)
    ]
    y = np.zeros((x.shape[0], out_channels, *out))
    o_per_group = out_channels // groups
    for taps in itertools.product(*(range(k) for k in kernel)):
        window = tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s)
            for t, d, s, o in zip(taps, dilation, stride, out, strict=True)
        )
        patch = xp[(slice(None), slice(None), *window)]
        for g in range(groups):
            ins, outs = (
                slice(g * per_group, (g + 1) * per_group),
                slice(g * o_per_group, (g + 1) * o_per_group),
            )
            y[:, outs] += np.einsum("ncdhw,oc->nodhw", patch[:, ins], w[(outs, slice(None), *taps)])
    return y if b is None else y + b.reshape(1, -1, 1, 1, 1)


def conv3d_transpose_ref(x, w, b, stride, pads, extra, dilation, groups):
    """Scatter of every input position through the kernel (the adjoint of conv3d_ref)."""
    in_channels, o_per_group, *kernel = w.shape
    full = [
        (size - 1) * s + d * (k - 1) + 1 + e
        for size, k, s, d, e in zip(x.shape[2:], kernel, stride, dilation, extra, strict=True)
    ]
    y = np.zeros((x.shape[0], o_per_group * groups, *full))
    i_per_group = in_channels // groups
    for taps in itertools.product(*(range(k) for k in kernel)):
        window = tuple(
            slice(t * d, t * d + s * (n - 1) + 1, s)
            for t, d, s, n in zip(taps, dilation, stride, x.shape[2:], strict=True)
        )
        for g in range(groups):
            ins, outs = (
                slice(g * i_per_group, (g + 1) * i_per_group),
                slice(g * o_per_group, (g + 1) * o_per_group),
            )
            y[(slice(None), outs, *window)] += np.einsum(
                "ncdhw,co->nodhw", x[:, ins], w[(ins, slice(None), *taps)]
            )
    crop = tuple(slice(lo, size - hi) for (lo, hi), size in zip(pads, full, strict=True))
    y = y[(slice(None), slice(None), *crop)]
    return y if b is None else y + b.reshape(1, -1, 1, 1, 1)


CONV_CASES = {
    "plain": ({}, ((0, 0),) * 3, (1, 1, 1), (1, 1, 1), 1),
    "stride2_pad1": ({"stride": 2, "padding": 1}, ((1, 1),) * 3, (2, 2, 2), (1, 1, 1), 1),
    "mixed_groups_dilated": (
        {"stride": (2, 1, 2), "padding": [1, 0, 2], "dilation": (2, 1, 1), "groups": 2},
        ((1, 1), (0, 0), (2, 2)),
        (2, 1, 2),
        (2, 1, 1),
        2,
    ),
    "uneven_pairs": (
        {"padding": [[0, 0], [0, 0], [1, 2], [0, 1], [2, 0]]},
        ((1, 2), (0, 1), (2, 0)),
        (1, 1, 1),
        (1, 1, 1),
        1,
    ),
}


@pytest.mark.parametrize("name", sorted(CONV_CASES))
def test_conv3d_matches_numpy(name):
    options, pads, stride, dilation, groups = CONV_CASES[name]
    x = rng.standard_normal((2, 4, 7, 6, 5))
    w = rng.standard_normal((6, 4 // groups, 3, 2, 3))
    b = rng.standard_normal(6)
    got = F.conv3d(*map(framework.to_tensor, (x, w, b)), **options).numpy()
    np.testing.assert_allclose(got, conv3d_ref(x, w, b, stride, pads, dilation, groups), atol=1e-10)


TRANSPOSE_CASES = {
    "plain": ({}, ((0, 0),) * 3, (0, 0, 0), (1, 1, 1), (1, 1, 1), 1),
    "stride2_output_padding": (
        {"stride": 2, "padding": 1, "output_padding": 1},
        ((1, 1),) * 3,
        (1, 1, 1),
        (2, 2, 2),
        (1, 1, 1),
        1,
    ),
    "mixed_groups_dilated": (
        {"stride": (3, 1, 2), "padding": [1, 0, 1], "dilation": (1, 2, 1), "groups": 2},
        ((1, 1), (0, 0), (1, 1)),
        (0, 0, 0),
        (3, 1, 2),
        (1, 2, 1),
        2,
    ),
}


@pytest.mark.parametrize("name", sorted(TRANSPOSE_CASES))
def test_conv3d_transpose_matches_numpy(name):
    options, pads, extra, stride, dilation, groups = TRANSPOSE_CASES[name]
    x = rng.standard_normal((2, 4, 4, 3, 5))
    w = rng.standard_normal((4, 6 // groups, 3, 2, 3))
    b = rng.standard_normal(6)
    got = F.conv3d_transpose(*map(framework.to_tensor, (x, w, b)), **options).numpy()
    want = conv3d_transpose_ref(x, w, b, stride, pads, extra, dilation, groups)
    np.testing.assert_allclose(got, want, atol=1e-10)


def test_output_size_picks_the_output_padding():
    x, w = framework.randn([1, 2, 3, 3, 3]), framework.randn([2, 2, 3, 3, 3])
    y = F.conv3d_transpose(x, w, stride=2, output_size=[8, 7, 8])
    assert y.shape == [1, 2, 8, 7, 8]
    same = F.conv3d_transpose(x, w, stride=2, padding="same")
    assert same.shape == [1, 2, 6, 6, 6]


def test_channel_last_matches_channel_first():
    x = rng.standard_normal((2, 5, 4, 6, 3)).astype(np.float32)
    w = rng.standard_normal((4, 3, 2, 3, 2)).astype(np.float32)
    first = F.conv3d(framework.to_tensor(x.transpose(0, 4, 1, 2, 3)), framework.to_tensor(w))
    last = F.conv3d(framework.to_tensor(x), framework.to_tensor(w), data_format="NDHWC")
    np.testing.assert_allclose(last.numpy(), first.numpy().transpose(0, 2, 3, 4, 1), rtol=1e-6)
    wt = rng.standard_normal((3, 4, 2, 3, 2)).astype(np.float32)
    first = F.conv3d_transpose(
        framework.to_tensor(x.transpose(0, 4, 1, 2, 3)), framework.to_tensor(wt), stride=2
    )
    last = F.conv3d_transpose(
        framework.to_tensor(x), framework.to_tensor(wt), stride=2, data_format="NDHWC"
    )
    np.testing.assert_allclose(last.numpy(), first.numpy().transpose(0, 2, 3, 4, 1), rtol=1e-6)


def test_gradients_match_numerical_ones():
    x = rng.standard_normal((1, 2, 3, 3, 4))
    w = rng.standard_normal((2, 1, 2, 2, 2))
    b = rng.standard_normal(2)

    def conv(x_t, w_t, b_t):
        return F.conv3d(x_t, w_t, b_t, stride=(2, 1, 1), padding=[1, 0, 1], groups=2)

    check_backward(conv, [x, w, b])
    check_double_backward(conv, [x, w, b])

    def up(x_t, w_t, b_t):
        return F.conv3d_transpose(
            x_t, w_t, b_t, stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1)
        )

    check_backward(up, [x, w, b[:1]])
    check_double_backward(up, [x, w, b[:1]])


@pytest.mark.parametrize(
    "options",
    [{"stride": 2, "padding": 1}, {"padding": [1, 2, 0], "dilation": (1, 2, 1), "groups": 2}],
    ids=["stride2", "dilated_groups"],
)
@pytest.mark.parametrize("transposed", [False, True])
def test_layers_match_paddle_with_its_weights(options, transposed):
    paddle = pytest.importorskip("paddle")
    kind = "Conv3DTranspose" if transposed else "Conv3D"
    theirs = getattr(paddle.nn, kind)(4, 6, (3, 2, 3), **options)
    ours = getattr(nn, kind)(4, 6, (3, 2, 3), **options)
    ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = rng.standard_normal((2, 4, 5, 6, 4)).astype(np.float32)
    ox, tx = framework.to_tensor(x, stop_gradient=False), paddle.to_tensor(x, stop_gradient=False)
    o, t = ours(ox), theirs(tx)
    np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-4, atol=1e-5)
    g = rng.standard_normal(o.shape).astype(np.float32)
    (o * framework.to_tensor(g)).sum().backward()
    (t * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        ours.weight.grad.numpy(), theirs.weight.grad.numpy(), rtol=1e-4, atol=1e-3
    )
    np.testing.assert_allclose(
        ours.bias.grad.numpy(), theirs.bias.grad.numpy(), rtol=1e-4, atol=1e-3
    )


def test_padding_modes_match_paddle():
    paddle = pytest.importorskip("paddle")
    for mode in ("reflect", "replicate", "circular"):
        theirs = paddle.nn.Conv3D(2, 3, 3, padding=1, padding_mode=mode)
        ours = nn.Conv3D(2, 3, 3, padding=1, padding_mode=mode)
        ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
        x = rng.standard_normal((1, 2, 4, 5, 3)).astype(np.float32)
        np.testing.assert_allclose(
            ours(framework.to_tensor(x)).numpy(),
            theirs(paddle.to_tensor(x)).numpy(),
            rtol=1e-4,
            atol=1e-5,
            err_msg=mode,
        )


def _conv(x_shape, w_shape, **options):
    return lambda: F.conv3d(framework.randn(x_shape), framework.randn(w_shape), **options)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (_conv([1, 2, 4, 4], [3, 2, 1, 1, 1]), ValueError, "5-D input"),
        (_conv([1, 2, 4, 4, 4], [3, 4, 1, 1, 1]), ValueError, "has 2 channels"),
        (_conv([1, 2, 2, 4, 4], [3, 2, 3, 1, 1]), ValueError, "smaller than the kernel"),
        (_conv([1, 2, 4, 4, 4], [3, 2, 1, 1, 1], data_format="NCHW"), ValueError, "data_format"),
        (_conv([1, 2, 4, 4, 4], [3, 2, 1, 1, 1], stride=0), ValueError, "must be positive"),
        (
            lambda: F.conv3d_transpose(
                framework.randn([1, 2, 4, 4, 4]), framework.randn([2, 3, 2, 2, 2]), output_padding=1
            ),
            ValueError,
            "output_padding",
        ),
        (
            lambda: nn.Conv3D(3, 4, 3)(framework.randn([1, 2, 4, 4, 4])),
            ValueError,
            "expects 3 input channels",
        ),
    ],
)
def test_bad_arguments_are_clear_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.gpu
def test_conv3d_on_gpu_matches_the_cpu():
    cpu = nn.Conv3D(3, 4, 3, stride=2, padding=1)
    gpu = copy.deepcopy(cpu).to("gpu")
    x = rng.standard_normal((2, 3, 5, 6, 6)).astype(np.float32)
    want = cpu(framework.to_tensor(x)).numpy()
    framework.set_device("gpu")
    try:
        gx = framework.to_tensor(x, stop_gradient=False)
        y = gpu(gx)
        y.sum().backward()
    finally:
        framework.set_device("cpu")
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-5)
    assert gx.grad.place.is_gpu_place()
