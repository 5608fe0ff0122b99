"""Deformable convolution (`deform_conv2d`, `DeformConv2D`): a scalar reference written from the
DCN formula (torchvision's `deform_conv2d` uses the same offset layout and bilinear rule),
ordinary convolution at zero offset, numerical gradients for every input, and real Paddle's
outputs and gradients."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing.gradient_check import check_backward, check_double_backward
from framework.vision import ops

# (channels, out_channels, kernel, stride, padding, dilation, deformable_groups, groups, mask)
CASES = [
    (4, 6, (3, 3), 1, 1, 1, 1, 1, False),
    (4, 6, (3, 3), 2, 1, 1, 2, 2, True),
    (2, 4, (2, 3), 1, (0, 1), 2, 1, 1, True),
]


def pair(v):
    return (v, v) if isinstance(v, int) else v


def make_case(case, dtype=np.float64, seed: int = 0, size=(7, 8)):
    c, cout, (kh, kw), s, p, d, dg, g, use_mask = case
    rng = np.random.default_rng(seed)
    (sh, sw), (ph, pw), (dh, dw) = pair(s), pair(p), pair(d)
    h, w = size
    ho = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    wo = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    arrays = {
        "x": rng.standard_normal((2, c, h, w)),
        "offset": rng.standard_normal((2, 2 * dg * kh * kw, ho, wo)) * 2,
        "weight": rng.standard_normal((cout, c // g, kh, kw)),
        "bias": rng.standard_normal(cout),
    }
    if use_mask:
        arrays["mask"] = rng.uniform(0, 1, (2, dg * kh * kw, ho, wo))
    arrays = {k: v.astype(dtype) for k, v in arrays.items()}
    return arrays, {"stride": s, "padding": p, "dilation": d, "deformable_groups": dg, "groups": g}


def sample(plane, y, x):
    h, w = plane.shape
    if y <= -1 or y >= h or x <= -1 or x >= w:
        return 0.0
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    total = 0.0
    for yc, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xc, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= yc < h and 0 <= xc < w:
                total += wy * wx * plane[yc, xc]
    return total


def reference(a, stride, padding, dilation, deformable_groups, groups):
    x, offset, weight, bias = a["x"], a["offset"], a["weight"], a["bias"]
    mask = a.get("mask")
    n, c, _, _ = x.shape
    cout, cin_group, kh, kw = weight.shape
    (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
    ho, wo = offset.shape[2:]
    out = np.zeros((n, cout, ho, wo))
    per_dg, per_group = c // deformable_groups, cout // groups
    for b in range(n):
        for o in range(cout):
            gi = o // per_group
            for i in range(ho):
                for j in range(wo):
                    total = bias[o]
                    for ci in range(cin_group):
                        ch = gi * cin_group + ci
                        g = ch // per_dg
                        for ki in range(kh):
                            for kj in range(kw):
                                k = ki * kw + kj
                                dy = offset[b, 2 * (g * kh * kw + k), i, j]
                                dx = offset[b, 2 * (g * kh * kw + k) + 1, i, j]
                                y = i * sh - ph + ki * dh + dy
                                xx = j * sw - pw + kj * dw + dx
                                v = sample(x[b, ch], y, xx)
                                if mask is not None:
                                    v *= mask[b, g * kh * kw + k, i, j]
                                total += weight[o, ci, ki, kj] * v
                    out[b, o, i, j] = total
    return out


def call(a, options):
    t = {k: framework.to_tensor(v) for k, v in a.items()}
    return ops.deform_conv2d(
        t["x"], t["offset"], t["weight"], t["bias"], mask=t.get("mask"), **options
    )


@pytest.mark.parametrize("case", CASES)
def test_it_matches_the_scalar_reference(case) -> None:
    a, options = make_case(case, size=(5, 6))
    np.testing.assert_allclose(call(a, options).numpy(), reference(a, **options), atol=1e-12)


def test_zero_offsets_are_an_ordinary_convolution() -> None:
    a, options = make_case(CASES[1])
    a["offset"][:] = 0
    a["mask"][:] = 1
    want = framework.nn.functional.conv2d(
        framework.to_tensor(a["x"]),
        framework.to_tensor(a["weight"]),
        framework.to_tensor(a["bias"]),
        stride=options["stride"],
        padding=options["padding"],
        groups=options["groups"],
    )
    np.testing.assert_allclose(call(a, options).numpy(), want.numpy(), atol=1e-12)


@pytest.mark.parametrize("case", CASES[1:])
def test_gradients_reach_every_input(case) -> None:
    a, options = make_case(case, size=(4, 5))
    names = list(a)

    def fn(*tensors):
        t = dict(zip(names, tensors, strict=True))
        return ops.deform_conv2d(
            t["x"], t["offset"], t["weight"], t["bias"], mask=t.get("mask"), **options
        )

    check_backward(fn, [a[k] for k in names], atol=1e-6)


def test_second_derivatives() -> None:
    a, options = make_case((2, 2, (2, 2), 1, 0, 1, 1, 1, True), size=(3, 3))
    names = ["x", "offset", "weight", "mask"]

    def fn(*tensors):
        t = dict(zip(names, tensors, strict=True))
        return ops.deform_conv2d(t["x"], t["offset"], t["weight"], mask=t["mask"], **options)

    check_double_backward(fn, [a[k] for k in names])


def test_it_rejects_an_offset_of_the_wrong_shape() -> None:
    a, options = make_case(CASES[0])
    a["offset"] = a["offset"][:, :-2]
    with pytest.raises(ValueError, match="offset must be"):
        call(a, options)


def test_the_layer_holds_paddle_shaped_parameters() -> None:
    layer = ops.DeformConv2D(4, 6, 3, padding=1, groups=2)
    assert layer.weight.shape == [6, 2, 3, 3]
    assert layer.bias.shape == [6]
    assert "kernel_size=(3, 3)" in repr(layer)
    out = layer(framework.rand([1, 4, 5, 5]), framework.zeros([1, 18, 5, 5]))
    assert out.shape == [1, 6, 5, 5]


# -- real Paddle -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES)
def test_it_matches_paddle(case, dtype) -> None:
    paddle = pytest.importorskip("paddle")
    a, options = make_case(case, dtype)
    results = []
    for lib, op in ((paddle, paddle.vision.ops.deform_conv2d), (framework, ops.deform_conv2d)):
        t = {k: lib.to_tensor(v, stop_gradient=False) for k, v in a.items()}
        out = op(t["x"], t["offset"], t["weight"], t["bias"], mask=t.get("mask"), **options)
        upstream = np.random.default_rng(1).standard_normal(out.shape).astype(dtype)
        (out * lib.to_tensor(upstream)).sum().backward()
        results.append([out.numpy()] + [t[k].grad.numpy() for k in a])
    tol = 2e-5 if dtype == np.float32 else 1e-12
    for name, want, got in zip(["out", *a], *results, strict=True):
        assert got.dtype == want.dtype, name
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)


def test_the_layer_matches_paddle() -> None:
    paddle = pytest.importorskip("paddle")
    a, _ = make_case(CASES[1], np.float32)
    ours = ops.DeformConv2D(4, 6, 3, stride=2, padding=1, deformable_groups=2, groups=2)
    theirs = paddle.vision.ops.DeformConv2D(
        4, 6, 3, stride=2, padding=1, deformable_groups=2, groups=2
    )
    theirs.weight.set_value(ours.weight.numpy())
    theirs.bias.set_value(np.arange(6, dtype=np.float32))
    ours.bias.set_value(np.arange(6, dtype=np.float32))
    args = [a["x"], a["offset"], a["mask"]]
    want = theirs(*[paddle.to_tensor(v) for v in args]).numpy()
    got = ours(*[framework.to_tensor(v) for v in args]).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
