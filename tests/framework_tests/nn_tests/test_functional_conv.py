"""conv1d / conv2d / conv1d_transpose / conv2d_transpose: forward against naive loops, numerical
gradients in float64, double backward, and forward+gradient parity with PyTorch in float32."""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.backends.cpu.workspace import workspace_bytes
from framework.testing import check_backward, check_double_backward


def ref_conv2d(x, w, b=None, stride=(1, 1), pads=((0, 0), (0, 0)), dilation=(1, 1), groups=1):
    """Direct convolution: one dot product per output position."""
    x = np.pad(x, ((0, 0), (0, 0), *pads))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    ho = (h - dh * (kh - 1) - 1) // sh + 1
    wo = (wd - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    out = np.zeros((n, o, ho, wo), dtype=np.float64)
    for g in range(groups):
        wg = w[g * og : (g + 1) * og]
        for i in range(ho):
            for j in range(wo):
                patch = x[
                    :,
                    g * cg : (g + 1) * cg,
                    i * sh : i * sh + dh * (kh - 1) + 1 : dh,
                    j * sw : j * sw + dw * (kw - 1) + 1 : dw,
                ]
                out[:, g * og : (g + 1) * og, i, j] = np.einsum("nckl,ockl->no", patch, wg)
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def ref_conv2d_transpose(
    x, w, stride=(1, 1), pads=((0, 0), (0, 0)), output_padding=(0, 0), dilation=(1, 1), groups=1
):
    """Direct transposed convolution: every input pixel scatters its kernel-weighted copy."""
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    full = np.zeros(
        (
            n,
            og * groups,
            (h - 1) * sh + dh * (kh - 1) + 1 + output_padding[0],
            (wd - 1) * sw + dw * (kw - 1) + 1 + output_padding[1],
        )
    )
    cg = c // groups
    for g in range(groups):
        for i in range(h):
            for j in range(wd):
                contrib = np.einsum(
                    "nc,cokl->nokl", x[:, g * cg : (g + 1) * cg, i, j], w[g * cg : (g + 1) * cg]
                )
                full[
                    :,
                    g * og : (g + 1) * og,
                    i * sh : i * sh + dh * (kh - 1) + 1 : dh,
                    j * sw : j * sw + dw * (kw - 1) + 1 : dw,
                ] += contrib
    (pt, pb), (pl, pr) = pads
    return full[:, :, pt : full.shape[2] - pb, pl : full.shape[3] - pr]


# (x shape, weight shape, kwargs, padding as ((top, bottom), (left, right)) for the reference)
CONV2D_CASES = {
    "plain": ((2, 3, 6, 5), (4, 3, 3, 3), {}, ((0, 0), (0, 0))),
    "padding_int": ((2, 3, 6, 5), (4, 3, 3, 3), {"padding": 1}, ((1, 1), (1, 1))),
    "stride2_pad1": ((2, 3, 7, 6), (4, 3, 3, 3), {"stride": 2, "padding": 1}, ((1, 1), (1, 1))),
    "pair_stride_pad": (
        (1, 2, 7, 6),
        (3, 2, 3, 2),
        {"stride": [2, 1], "padding": [2, 1]},
        ((2, 2), (1, 1)),
    ),
    "four_paddings": ((1, 2, 5, 6), (3, 2, 3, 3), {"padding": [1, 0, 2, 1]}, ((1, 0), (2, 1))),
    "pairs_form": (
        (1, 2, 5, 6),
        (3, 2, 3, 3),
        {"padding": [[0, 0], [0, 0], [0, 1], [1, 2]]},
        ((0, 1), (1, 2)),
    ),
    "same_stride1": ((1, 2, 5, 6), (3, 2, 3, 3), {"padding": "same"}, ((1, 1), (1, 1))),
    "same_even_kernel": ((1, 2, 5, 6), (3, 2, 2, 4), {"padding": "SAME"}, ((0, 1), (1, 2))),
    "same_stride2": (
        (1, 2, 7, 6),
        (3, 2, 3, 3),
        {"padding": "same", "stride": 2},
        ((1, 1), (0, 1)),
    ),
    "valid": ((1, 2, 5, 6), (3, 2, 3, 3), {"padding": "valid"}, ((0, 0), (0, 0))),
    "dilation2": ((1, 2, 8, 7), (3, 2, 3, 3), {"padding": 2, "dilation": 2}, ((2, 2), (2, 2))),
    "groups2": ((2, 4, 6, 5), (6, 2, 3, 3), {"padding": 1, "groups": 2}, ((1, 1), (1, 1))),
    "groups2_stride2": (
        (2, 4, 7, 6),
        (4, 2, 3, 3),
        {"padding": 1, "stride": 2, "groups": 2},
        ((1, 1), (1, 1)),
    ),
    "depthwise": ((2, 4, 6, 5), (4, 1, 3, 3), {"padding": 1, "groups": 4}, ((1, 1), (1, 1))),
    "depthwise_stride2": (
        (2, 4, 7, 6),
        (4, 1, 3, 3),
        {"padding": 1, "stride": 2, "groups": 4},
        ((1, 1), (1, 1)),
    ),
    "depthwise_dilated": (
        (1, 3, 7, 7),
        (3, 1, 3, 3),
        {"padding": 2, "dilation": 2, "groups": 3},
        ((2, 2), (2, 2)),
    ),
    "depthwise_wide_padding": (
        (1, 3, 5, 5),
        (3, 1, 3, 3),
        {"padding": 3, "stride": 2, "groups": 3},
        ((3, 3), (3, 3)),
    ),
    "depthwise_multiplier2": (
        (1, 3, 5, 5),
        (6, 1, 3, 3),
        {"padding": 1, "groups": 3},
        ((1, 1), (1, 1)),
    ),
    "pointwise": ((2, 5, 4, 3), (6, 5, 1, 1), {}, ((0, 0), (0, 0))),
    "pointwise_stride2": ((2, 5, 5, 4), (6, 5, 1, 1), {"stride": 2}, ((0, 0), (0, 0))),
    "pointwise_groups": ((2, 4, 3, 3), (6, 2, 1, 1), {"groups": 2}, ((0, 0), (0, 0))),
    "padding_wider_than_kernel": ((1, 2, 4, 4), (3, 2, 2, 2), {"padding": 3}, ((3, 3), (3, 3))),
    # few channels, wide rows: the channel-first kernels
    "one_channel": ((2, 1, 5, 12), (3, 1, 3, 3), {"padding": 1}, ((1, 1), (1, 1))),
    "two_channels_strided_dilated": (
        (1, 2, 9, 16),
        (3, 2, 3, 3),
        {"stride": 2, "padding": 2, "dilation": 2},
        ((2, 2), (2, 2)),
    ),
}


def _arrays(x_shape, w_shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    b = rng.standard_normal(w_shape[0]).astype(dtype)
    return x, w, b


@pytest.mark.parametrize("case", list(CONV2D_CASES))
def test_conv2d_matches_direct_convolution(case):
    x_shape, w_shape, kwargs, pads = CONV2D_CASES[case]
    x, w, b = _arrays(x_shape, w_shape, np.float64)
    groups = kwargs.get("groups", 1)
    expected = ref_conv2d(
        x,
        w,
        b,
        tuple(np.broadcast_to(kwargs.get("stride", 1), 2)),
        pads,
        tuple(np.broadcast_to(kwargs.get("dilation", 1), 2)),
        groups,
    )
    got = F.conv2d(framework.to_tensor(x), framework.to_tensor(w), framework.to_tensor(b), **kwargs)
    assert got.shape == list(expected.shape)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("case", list(CONV2D_CASES))
def test_conv2d_gradients_are_numerically_right(case):
    x_shape, w_shape, kwargs, _ = CONV2D_CASES[case]
    x, w, b = _arrays((1, *x_shape[1:]), w_shape, np.float64)
    check_backward(lambda x, w, b: F.conv2d(x, w, b, **kwargs), [x, w, b])


@pytest.mark.parametrize(
    "case",
    [
        "padding_int",
        "stride2_pad1",
        "groups2_stride2",
        "depthwise_stride2",
        "pointwise",
        "one_channel",
    ],
)
def test_conv2d_double_backward(case):
    x_shape, w_shape, kwargs, _ = CONV2D_CASES[case]
    x, w, _ = _arrays((1, *x_shape[1:]), w_shape, np.float64)
    check_double_backward(lambda x, w: F.conv2d(x, w, **kwargs), [x, w])


@pytest.mark.parametrize("case", list(CONV2D_CASES))
def test_conv2d_matches_torch_forward_and_gradients(case):
    torch = pytest.importorskip("torch")
    x_shape, w_shape, kwargs, pads = CONV2D_CASES[case]
    x, w, b = _arrays(x_shape, w_shape, np.float32)
    xs = [framework.to_tensor(a, stop_gradient=False) for a in (x, w, b)]
    y = F.conv2d(*xs, **kwargs)
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    (pt, pb), (pl, pr) = pads
    t_in = torch.nn.functional.pad(tx, (pl, pr, pt, pb))
    ty = torch.nn.functional.conv2d(
        t_in,
        tw,
        tb,
        stride=kwargs.get("stride", 1),
        dilation=kwargs.get("dilation", 1),
        groups=kwargs.get("groups", 1),
    )
    gy = np.random.default_rng(1).standard_normal(ty.shape).astype(np.float32)
    ty.backward(torch.tensor(gy))
    grads = framework.grad(y, xs, framework.to_tensor(gy))
    assert y.dtype == framework.float32
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    for ours, theirs in zip(grads, (tx, tw, tb), strict=True):
        assert ours.dtype == framework.float32
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_conv2d_nhwc_equals_nchw():
    x, w, b = _arrays((2, 3, 6, 5), (4, 3, 3, 3), np.float64)
    nchw = F.conv2d(framework.to_tensor(x), framework.to_tensor(w), framework.to_tensor(b), 2, 1)
    nhwc = F.conv2d(
        framework.to_tensor(x.transpose(0, 2, 3, 1)),
        framework.to_tensor(w),
        framework.to_tensor(b),
        2,
        1,
        data_format="NHWC",
    )
    np.testing.assert_allclose(nhwc.numpy(), nchw.numpy().transpose(0, 2, 3, 1), atol=1e-12)
    check_backward(
        lambda x, w: F.conv2d(x, w, stride=2, padding=1, data_format="NHWC"),
        [np.ascontiguousarray(x[:1].transpose(0, 2, 3, 1)), w],
    )


def test_conv2d_accepts_channel_last_memory_and_empty_batches():
    x, w, _ = _arrays((2, 3, 5, 5), (4, 3, 3, 3), np.float64)
    strided = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    got = F.conv2d(framework.Tensor(strided), framework.to_tensor(w), padding=1)
    np.testing.assert_allclose(got.numpy(), ref_conv2d(x, w, pads=((1, 1), (1, 1))), atol=1e-12)
    empty = F.conv2d(framework.to_tensor(np.zeros((0, 3, 5, 5))), framework.to_tensor(w))
    assert empty.shape == [0, 4, 3, 3]


def test_conv2d_reuses_workspace_without_aliasing_results():
    x, w, _ = _arrays((4, 8, 12, 12), (8, 8, 3, 3), np.float32)
    first = F.conv2d(framework.to_tensor(x), framework.to_tensor(w), padding=1)
    kept = first.numpy().copy()
    held = workspace_bytes()
    second = F.conv2d(framework.to_tensor(x * 2), framework.to_tensor(w), padding=1)
    assert workspace_bytes() == held
    np.testing.assert_array_equal(first.numpy(), kept)
    np.testing.assert_allclose(second.numpy(), 2 * kept, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "kwargs, ref_pads",
    [
        ({"padding": 1}, (1, 1)),
        ({"padding": "same", "dilation": 2}, (2, 2)),
        ({"stride": 2, "padding": [0, 1]}, (0, 1)),
        ({"groups": 2, "padding": 1}, (1, 1)),
    ],
)
def test_conv1d_matches_conv2d_with_unit_height(kwargs, ref_pads):
    groups = kwargs.get("groups", 1)
    x, w, b = _arrays((2, 4, 9), (6, 4 // groups, 3), np.float64)
    got = F.conv1d(framework.to_tensor(x), framework.to_tensor(w), framework.to_tensor(b), **kwargs)
    expected = ref_conv2d(
        x[:, :, None],
        w[:, :, None],
        b,
        (1, kwargs.get("stride", 1)),
        ((0, 0), ref_pads),
        (1, kwargs.get("dilation", 1)),
        groups,
    )[:, :, 0]
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)
    check_backward(lambda x, w, b: F.conv1d(x, w, b, **kwargs), [x[:1], w, b])
    nlc = F.conv1d(
        framework.to_tensor(x.transpose(0, 2, 1)),
        framework.to_tensor(w),
        framework.to_tensor(b),
        data_format="NLC",
        **kwargs,
    )
    np.testing.assert_allclose(nlc.numpy(), expected.transpose(0, 2, 1), atol=1e-12)


TRANSPOSE_CASES = {
    "plain": ((2, 3, 4, 5), (3, 2, 3, 3), {}),
    "stride2_pad1": ((2, 3, 4, 4), (3, 2, 3, 3), {"stride": 2, "padding": 1}),
    "output_padding": (
        (1, 3, 4, 4),
        (3, 2, 3, 3),
        {"stride": 2, "padding": 1, "output_padding": 1},
    ),
    "dilation_groups": (
        (1, 4, 4, 3),
        (4, 3, 3, 3),
        {"stride": 2, "padding": [1, 2], "dilation": 2, "groups": 2},
    ),
    "depthwise": ((2, 3, 4, 4), (3, 1, 3, 3), {"stride": 2, "padding": 1, "groups": 3}),
    "pointwise_stride2": ((2, 3, 3, 3), (3, 5, 1, 1), {"stride": 2}),
    "kernel4_stride2": ((1, 2, 3, 3), (2, 3, 4, 4), {"stride": 2, "padding": 1}),
}


def _pads(kwargs):
    p = kwargs.get("padding", 0)
    p = (p, p) if isinstance(p, int) else tuple(p)
    return ((p[0], p[0]), (p[1], p[1]))


@pytest.mark.parametrize("case", list(TRANSPOSE_CASES))
def test_conv2d_transpose_matches_direct_scatter(case):
    x_shape, w_shape, kwargs = TRANSPOSE_CASES[case]
    x, w, _ = _arrays(x_shape, w_shape, np.float64)
    expected = ref_conv2d_transpose(
        x,
        w,
        tuple(np.broadcast_to(kwargs.get("stride", 1), 2)),
        _pads(kwargs),
        tuple(np.broadcast_to(kwargs.get("output_padding", 0), 2)),
        tuple(np.broadcast_to(kwargs.get("dilation", 1), 2)),
        kwargs.get("groups", 1),
    )
    got = F.conv2d_transpose(framework.to_tensor(x), framework.to_tensor(w), **kwargs)
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)


@pytest.mark.parametrize("case", list(TRANSPOSE_CASES))
def test_conv2d_transpose_gradients_are_numerically_right(case):
    x_shape, w_shape, kwargs = TRANSPOSE_CASES[case]
    x, w, _ = _arrays((1, *x_shape[1:]), w_shape, np.float64)
    b = np.random.default_rng(2).standard_normal(w_shape[1] * kwargs.get("groups", 1))
    check_backward(lambda x, w, b: F.conv2d_transpose(x, w, b, **kwargs), [x, w, b])


@pytest.mark.parametrize("case", ["stride2_pad1", "depthwise"])
def test_conv2d_transpose_double_backward(case):
    x_shape, w_shape, kwargs = TRANSPOSE_CASES[case]
    x, w, _ = _arrays((1, *x_shape[1:]), w_shape, np.float64)
    check_double_backward(lambda x, w: F.conv2d_transpose(x, w, **kwargs), [x, w])


@pytest.mark.parametrize("case", list(TRANSPOSE_CASES))
def test_conv2d_transpose_matches_torch(case):
    torch = pytest.importorskip("torch")
    x_shape, w_shape, kwargs = TRANSPOSE_CASES[case]
    x, w, _ = _arrays(x_shape, w_shape, np.float32)
    b = np.random.default_rng(2).standard_normal(w_shape[1] * kwargs.get("groups", 1))
    b = b.astype(np.float32)
    xs = [framework.to_tensor(a, stop_gradient=False) for a in (x, w, b)]
    y = F.conv2d_transpose(*xs, **kwargs)
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    torch_kwargs = dict(kwargs)
    torch_kwargs["padding"] = tuple(np.broadcast_to(kwargs.get("padding", 0), 2).tolist())
    ty = torch.nn.functional.conv_transpose2d(tx, tw, tb, **torch_kwargs)
    gy = np.random.default_rng(1).standard_normal(ty.shape).astype(np.float32)
    ty.backward(torch.tensor(gy))
    grads = framework.grad(y, xs, framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-4)
    for ours, theirs in zip(grads, (tx, tw, tb), strict=True):
        np.testing.assert_allclose(ours.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_output_size_picks_the_output_padding():
    x, w, _ = _arrays((1, 3, 4, 4), (3, 2, 3, 3), np.float64)
    by_size = F.conv2d_transpose(
        framework.to_tensor(x), framework.to_tensor(w), stride=2, padding=1, output_size=[8, 7]
    )
    by_padding = F.conv2d_transpose(
        framework.to_tensor(x), framework.to_tensor(w), stride=2, padding=1, output_padding=[1, 0]
    )
    assert by_size.shape == [1, 2, 8, 7]
    np.testing.assert_allclose(by_size.numpy(), by_padding.numpy())
    with pytest.raises(ValueError, match="output_padding"):
        F.conv2d_transpose(
            framework.to_tensor(x), framework.to_tensor(w), stride=2, padding=1, output_size=[9, 7]
        )


def test_conv2d_transpose_same_padding_multiplies_the_size_by_the_stride():
    x, w, _ = _arrays((1, 3, 4, 5), (3, 2, 3, 3), np.float64)
    y = F.conv2d_transpose(framework.to_tensor(x), framework.to_tensor(w), stride=2, padding="same")
    assert y.shape == [1, 2, 8, 10]


def test_conv1d_transpose_matches_torch():
    torch = pytest.importorskip("torch")
    x, w, _ = _arrays((2, 4, 6), (4, 3, 3), np.float32)
    y = F.conv1d_transpose(
        framework.to_tensor(x), framework.to_tensor(w), stride=2, padding=1, output_padding=1
    )
    ty = torch.nn.functional.conv_transpose1d(
        torch.tensor(x), torch.tensor(w), stride=2, padding=1, output_padding=1
    )
    np.testing.assert_allclose(y.numpy(), ty.numpy(), rtol=1e-5, atol=1e-5)


def test_conv2d_names_the_channel_mismatch():
    x, w, _ = _arrays((1, 3, 5, 5), (4, 2, 3, 3), np.float32)
    with pytest.raises(
        ValueError, match=r"conv2d: the input has 3 channels .* weight shape paddle\.Size\(\[4, 2"
    ):
        F.conv2d(framework.to_tensor(x), framework.to_tensor(w))
    with pytest.raises(ValueError, match="data_format"):
        F.conv2d(framework.to_tensor(x), framework.to_tensor(x[:, :, :3, :3]), data_format="NWHC")
    with pytest.raises(TypeError, match="float64"):
        F.conv2d(framework.to_tensor(x), framework.to_tensor(w.astype(np.float64)))
    with pytest.raises(ValueError, match="smaller than the kernel"):
        F.conv2d(framework.to_tensor(x[:, :, :2, :2]), framework.to_tensor(x[:1, :, :3, :3]))


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["stride2_pad1", "groups2", "depthwise_stride2", "pointwise"])
def test_conv2d_on_gpu_matches_cpu(case):
    x_shape, w_shape, kwargs, _ = CONV2D_CASES[case]
    arrays = _arrays(x_shape, w_shape, np.float32)
    results = []
    for place in ("cpu", "gpu:0"):
        xs = [framework.to_tensor(a, place=place, stop_gradient=False) for a in arrays]
        y = F.conv2d(*xs, **kwargs)
        gy = framework.to_tensor(np.ones(y.shape, dtype=np.float32), place=place)
        results.append([y.numpy()] + [g.numpy() for g in framework.grad(y, xs, gy)])
    for cpu, gpu in zip(*results, strict=True):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "x_shape, w_shape, kwargs",
    [
        ((8, 32, 32, 32), (32, 32, 3, 3), {"padding": 1}),
        ((8, 32, 32, 32), (48, 32, 3, 3), {"padding": 1, "stride": 2}),
        ((8, 64, 32, 32), (64, 1, 3, 3), {"padding": 1, "groups": 64}),
    ],
    ids=["3x3", "3x3_stride2", "depthwise"],
)
def test_conv2d_large_enough_for_threaded_copies_matches_torch(x_shape, w_shape, kwargs):
    """Shapes big enough that im2col, padding, col2im and depthwise work is split over threads."""
    torch = pytest.importorskip("torch")
    x, w, _ = _arrays(x_shape, w_shape, np.float32)
    channel_last = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    xs = [
        framework.Tensor(channel_last, stop_gradient=False),
        framework.to_tensor(w, stop_gradient=False),
    ]
    y = F.conv2d(*xs, **kwargs)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    ty = torch.nn.functional.conv2d(tx, tw, **kwargs)
    gy = np.random.default_rng(1).standard_normal(ty.shape).astype(np.float32)
    ty.backward(torch.tensor(gy))
    gx, gw = framework.grad(y, xs, framework.to_tensor(gy))
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(gx.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(gw.numpy(), tw.grad.numpy(), rtol=1e-4, atol=5e-2)
