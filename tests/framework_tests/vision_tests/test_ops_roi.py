"""RoI ops (`roi_align`, `roi_pool`, `psroi_pool` and their layers): scalar references written
from the kernels' formulas (the `roi_align` one is also torchvision's `roi_align`, which has
the same `aligned` and `sampling_ratio` conventions), numerical gradients, and real Paddle's
outputs and input gradients."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

import framework
from framework.testing.gradient_check import check_backward, check_double_backward
from framework.vision import ops
from framework.vision.ops import roi_sampling

BOXES = np.array(
    [
        [1.0, 1.0, 6.0, 7.0],
        [-2.0, 0.5, 4.3, 12.0],  # partly outside
        [3.2, 2.1, 3.4, 2.5],  # smaller than a pixel
        [0.0, 0.0, 11.0, 9.0],  # the whole map
        [5.0, 5.0, 20.0, 20.0],
        [2.5, 1.5, 8.5, 6.5],  # halves, which C's round takes away from zero
    ]
)
BOXES_NUM = np.array([2, 4], np.int32)


def features(dtype=np.float64, channels: int = 3, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((2, channels, 9, 11)).astype(dtype)


def images() -> list[int]:
    return np.repeat(np.arange(BOXES_NUM.size), BOXES_NUM).tolist()


def bilinear(plane: np.ndarray, y: float, x: float) -> float:
    h, w = plane.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return (
        (1 - ly) * (1 - lx) * plane[y0, x0]
        + (1 - ly) * lx * plane[y0, x1]
        + ly * (1 - lx) * plane[y1, x0]
        + ly * lx * plane[y1, x1]
    )


def reference_roi_align(x, boxes, size, scale, sampling_ratio, aligned):
    ph, pw = size
    out = np.zeros((len(boxes), x.shape[1], ph, pw))
    for k, (box, image) in enumerate(zip(boxes, images(), strict=True)):
        shift = 0.5 if aligned else 0.0
        x1, y1, x2, y2 = (v * scale - shift for v in box)
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        gh = sampling_ratio if sampling_ratio > 0 else math.ceil(rh / ph)
        gw = sampling_ratio if sampling_ratio > 0 else math.ceil(rw / pw)
        count = max(gh * gw, 1)
        for c in range(x.shape[1]):
            for i in range(ph):
                for j in range(pw):
                    total = 0.0
                    for iy in range(gh):
                        for ix in range(gw):
                            y = y1 + i * rh / ph + (iy + 0.5) * rh / ph / gh
                            xx = x1 + j * rw / pw + (ix + 0.5) * rw / pw / gw
                            total += bilinear(x[image, c], y, xx)
                    out[k, c, i, j] = total / count
    return out


def c_round(v: float) -> float:
    return math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)


def reference_roi_pool(x, boxes, size, scale):
    ph, pw = size
    _, channels, h, w = x.shape
    out = np.zeros((len(boxes), channels, ph, pw))
    for k, (box, image) in enumerate(zip(boxes, images(), strict=True)):
        x1, y1, x2, y2 = (c_round(v * scale) for v in box)
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        for i in range(ph):
            for j in range(pw):
                hs = min(max(math.floor(i * rh / ph) + y1, 0), h)
                he = min(max(math.ceil((i + 1) * rh / ph) + y1, 0), h)
                ws = min(max(math.floor(j * rw / pw) + x1, 0), w)
                we = min(max(math.ceil((j + 1) * rw / pw) + x1, 0), w)
                if he > hs and we > ws:
                    out[k, :, i, j] = x[image, :, hs:he, ws:we].max(axis=(1, 2))
    return out


def reference_psroi_pool(x, boxes, size, scale):
    ph, pw = size
    _, channels, h, w = x.shape
    out = np.zeros((len(boxes), channels // (ph * pw), ph, pw))
    for k, (box, image) in enumerate(zip(boxes, images(), strict=True)):
        x1, y1 = c_round(box[0]) * scale, c_round(box[1]) * scale
        x2, y2 = (c_round(box[2]) + 1) * scale, (c_round(box[3]) + 1) * scale
        rh, rw = max(y2 - y1, 0.1), max(x2 - x1, 0.1)
        for i in range(ph):
            for j in range(pw):
                hs = min(max(math.floor(i * rh / ph + y1), 0), h)
                he = min(max(math.ceil((i + 1) * rh / ph + y1), 0), h)
                ws = min(max(math.floor(j * rw / pw + x1), 0), w)
                we = min(max(math.ceil((j + 1) * rw / pw + x1), 0), w)
                if he > hs and we > ws:
                    for c in range(out.shape[1]):
                        plane = x[image, (c * ph + i) * pw + j, hs:he, ws:we]
                        out[k, c, i, j] = plane.mean()
    return out


def call(op, x, boxes=BOXES, *args, **kwargs):
    return op(
        framework.to_tensor(x),
        framework.to_tensor(boxes.astype(x.dtype)),
        framework.to_tensor(BOXES_NUM),
        *args,
        **kwargs,
    )


@pytest.mark.parametrize("aligned", [True, False])
@pytest.mark.parametrize("sampling_ratio", [-1, 2])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_align_matches_the_scalar_reference(aligned, sampling_ratio, scale) -> None:
    x = features()
    got = call(ops.roi_align, x, BOXES, (3, 4), scale, sampling_ratio, aligned)
    want = reference_roi_align(x, BOXES, (3, 4), scale, sampling_ratio, aligned)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("scale", [1.0, 0.5])
@pytest.mark.parametrize("size", [(2, 3), (3, 3)])
def test_roi_pool_matches_the_scalar_reference(scale, size) -> None:
    x = features()
    got = call(ops.roi_pool, x, BOXES, size, scale)
    np.testing.assert_array_equal(got.numpy(), reference_roi_pool(x, BOXES, size, scale))


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_psroi_pool_matches_the_scalar_reference(scale) -> None:
    x = features(channels=12)
    got = call(ops.psroi_pool, x, BOXES, (2, 3), scale)
    want = reference_psroi_pool(x, BOXES, (2, 3), scale)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def small_case():
    """One image, two boxes, so that the numerical gradients stay cheap."""
    x = features(channels=4)[:1, :, :6, :7]
    boxes = framework.to_tensor(np.array([[0.6, 0.3, 5.2, 4.9], [-1.0, 1.5, 3.0, 7.0]]))
    return x, boxes, framework.to_tensor(np.array([2], np.int32))


@pytest.mark.parametrize("aligned", [True, False])
def test_roi_align_gradients(aligned) -> None:
    x, boxes, num = small_case()
    op = ops.RoIAlign((2, 3), spatial_scale=0.8)
    check_backward(lambda t: op(t, boxes, num, aligned=aligned), [x])
    check_double_backward(lambda t: op(t, boxes, num, aligned=aligned), [x])


def test_roi_pool_gradients() -> None:
    x, boxes, num = small_case()
    op = ops.RoIPool((2, 2), spatial_scale=0.8)
    check_backward(lambda t: op(t, boxes, num), [x])
    check_double_backward(lambda t: op(t, boxes, num), [x])


def test_psroi_pool_gradients() -> None:
    x, boxes, num = small_case()
    op = ops.PSRoIPool((2, 2), spatial_scale=0.8)
    check_backward(lambda t: op(t, boxes, num), [x])
    check_double_backward(lambda t: op(t, boxes, num), [x])


def test_no_boxes_give_an_empty_result() -> None:
    x = framework.to_tensor(features(np.float32)[:1])
    boxes = framework.zeros([0, 4])
    num = framework.to_tensor(np.array([0], np.int32))
    assert ops.roi_align(x, boxes, num, 2).shape == [0, 3, 2, 2]
    assert ops.roi_pool(x, boxes, num, 2).shape == [0, 3, 2, 2]


def test_it_rejects_boxes_num_that_do_not_add_up() -> None:
    x = framework.to_tensor(features(np.float32))
    with pytest.raises(ValueError, match="adds up"):
        ops.roi_align(x, framework.zeros([3, 4]), framework.to_tensor(np.array([1, 1])), 2)
    with pytest.raises(ValueError, match="multiple"):
        ops.psroi_pool(x, framework.zeros([2, 4]), framework.to_tensor(np.array([1, 1])), 2)


def test_layers_show_their_configuration() -> None:
    assert "output_size=(2, 3)" in repr(ops.RoIAlign((2, 3)))
    assert "spatial_scale=0.5" in repr(ops.RoIPool(2, 0.5))
    assert "output_size=7" in repr(ops.PSRoIPool(7))


# -- real Paddle -----------------------------------------------------------------------------


def paddle_and_ours(
    name: str, x: np.ndarray, *args, boxes: np.ndarray = BOXES, boxes_num: np.ndarray = BOXES_NUM
):
    """Both frameworks' output and input gradient under the same random upstream gradient."""
    paddle = pytest.importorskip("paddle")
    upstream = None
    results = []
    for lib, op in ((paddle, getattr(paddle.vision.ops, name)), (framework, getattr(ops, name))):
        t = lib.to_tensor(x, stop_gradient=False)
        out = op(t, lib.to_tensor(boxes.astype(x.dtype)), lib.to_tensor(boxes_num), *args)
        if upstream is None:
            upstream = np.random.default_rng(1).standard_normal(out.shape).astype(x.dtype)
        (out * lib.to_tensor(upstream)).sum().backward()
        results.append((out.numpy(), t.grad.numpy()))
    return results


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "name, channels, args",
    [
        ("roi_align", 3, ((3, 4), 1.0, -1, True)),
        ("roi_align", 3, ((2, 2), 0.5, 2, False)),
        ("roi_pool", 3, ((2, 3), 1.0)),
        ("roi_pool", 3, (3, 0.5)),
        ("psroi_pool", 12, ((2, 3), 1.0)),
        ("psroi_pool", 8, (2, 0.5)),
    ],
)
def test_it_matches_paddle(name, channels, args, dtype) -> None:
    x = features(dtype, channels)
    boxes = BOXES
    if name == "roi_align":  # see the next test for why the sub-pixel box is widened
        boxes = BOXES.copy()
        boxes[2, 2:] = boxes[2, :2] + 1.0
    (want, want_grad), (got, got_grad) = paddle_and_ours(name, x, *args, boxes=boxes)
    assert got.dtype == want.dtype
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    np.testing.assert_allclose(got_grad, want_grad, rtol=tol, atol=tol)


def test_roi_align_differs_from_paddle_only_in_sub_pixel_box_gradients() -> None:
    """Paddle's CPU backward makes every box at least one pixel wide and tall, even with
    `aligned=True` where its forward does not: its gradient of a sub-pixel box is the
    gradient of a widened box. Ours is the derivative of the forward (see
    `test_roi_align_gradients`), so the two agree on every other box."""
    x = features()
    tiny, widened = BOXES[2:3], np.array([[3.2, 2.1, 4.2, 3.1]])
    second = np.array([0, 1], np.int32)
    (want, want_grad), (got, _) = paddle_and_ours(
        "roi_align", x, (3, 4), boxes=tiny, boxes_num=second
    )
    (_, widened_grad), _ = paddle_and_ours("roi_align", x, (3, 4), boxes=widened, boxes_num=second)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(want_grad, widened_grad, rtol=1e-12, atol=1e-12)


def test_small_chunks_give_the_same_result(monkeypatch) -> None:
    """Taps (align, psroi) and boxes (max pooling) go through in chunks bounded by
    CHUNK_VALUES; a tiny bound must not change any value or gradient."""
    x = features(channels=12)
    whole = [
        call(ops.roi_align, x, BOXES, (3, 4)),
        call(ops.roi_pool, x, BOXES, (2, 3)),
        call(ops.psroi_pool, x, BOXES, (2, 3)),
    ]
    monkeypatch.setattr(roi_sampling, "CHUNK_VALUES", 7)
    # the package's `roi_pool` attribute is the function, so reach the module by name
    roi_pool_module = importlib.import_module("framework.vision.ops.roi_pool")
    monkeypatch.setattr(roi_pool_module, "CHUNK_VALUES", 7)
    chunked = [
        call(ops.roi_align, x, BOXES, (3, 4)),
        call(ops.roi_pool, x, BOXES, (2, 3)),
        call(ops.psroi_pool, x, BOXES, (2, 3)),
    ]
    for a, b in zip(whole, chunked, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12, atol=1e-12)
