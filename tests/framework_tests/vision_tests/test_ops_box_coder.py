"""`box_coder` against PaddlePaddle's own op and a NumPy reference, and `distance2bbox` /
`bbox2distance` against NumPy; gradients of all three through Tensors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward
from framework.vision import ops
from tests.framework_tests.vision_tests.box_fixtures import random_boxes

VARIANCE = [0.1, 0.1, 0.2, 0.2]


def encode_reference(prior, var, target, normalized: bool) -> np.ndarray:
    pixel = 0.0 if normalized else 1.0
    out = np.zeros((len(target), len(prior), 4))
    for i, t in enumerate(target):
        for j, p in enumerate(prior):
            pw, ph = p[2] - p[0] + pixel, p[3] - p[1] + pixel
            pcx, pcy = p[0] + pw / 2, p[1] + ph / 2
            tw, th = t[2] - t[0] + pixel, t[3] - t[1] + pixel
            tcx, tcy = (t[0] + t[2]) / 2, (t[1] + t[3]) / 2
            v = np.ones(4) if var is None else np.asarray(var)[j] if np.ndim(var) == 2 else var
            delta = [(tcx - pcx) / pw, (tcy - pcy) / ph, np.log(tw / pw), np.log(th / ph)]
            out[i, j] = np.asarray(delta) / v
    return out


def decode_reference(prior, var, deltas, normalized: bool, axis: int) -> np.ndarray:
    pixel = 0.0 if normalized else 1.0
    out = np.zeros(deltas.shape)
    for i in range(deltas.shape[0]):
        for j in range(deltas.shape[1]):
            k = j if axis == 0 else i
            p = prior[k]
            v = np.ones(4) if var is None else np.asarray(var)[k] if np.ndim(var) == 2 else var
            d = deltas[i, j] * v
            pw, ph = p[2] - p[0] + pixel, p[3] - p[1] + pixel
            cx, cy = d[0] * pw + p[0] + pw / 2, d[1] * ph + p[1] + ph / 2
            w, h = np.exp(d[2]) * pw, np.exp(d[3]) * ph
            out[i, j] = [cx - w / 2, cy - h / 2, cx + w / 2 - pixel, cy + h / 2 - pixel]
    return out


def _variances(kind: str, count: int):
    if kind == "list":
        return VARIANCE
    if kind == "none":
        return None
    return np.random.default_rng(3).uniform(0.1, 1.0, (count, 4))


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("variance", ["list", "tensor", "none"])
def test_encode_matches_reference(normalized, variance) -> None:
    prior, target = random_boxes(4, 1), random_boxes(3, 2)
    var = _variances(variance, 4)
    got = ops.box_coder(prior, var, target, "encode_center_size", normalized)
    np.testing.assert_allclose(got, encode_reference(prior, var, target, normalized), rtol=1e-12)


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("variance", ["list", "tensor", "none"])
@pytest.mark.parametrize("axis", [0, 1])
def test_decode_matches_reference(normalized, variance, axis) -> None:
    deltas = np.random.default_rng(4).standard_normal((3, 5, 4))
    prior = random_boxes(5 if axis == 0 else 3, 5)
    var = _variances(variance, len(prior))
    got = ops.box_coder(prior, var, deltas, "decode_center_size", normalized, axis)
    want = decode_reference(prior, var, deltas, normalized, axis)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_decode_inverts_encode() -> None:
    prior, target = random_boxes(4, 6), random_boxes(3, 7)
    deltas = ops.box_coder(prior, VARIANCE, target, "encode_center_size")
    back = ops.box_coder(prior, VARIANCE, deltas, "decode_center_size")
    np.testing.assert_allclose(back, np.broadcast_to(target[:, None], back.shape), atol=1e-12)


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("variance", ["list", "tensor"])
def test_encode_matches_paddle(normalized, variance) -> None:
    paddle = pytest.importorskip("paddle")
    prior, target = random_boxes(6, 8, np.float32), random_boxes(5, 9, np.float32)
    var = _variances(variance, 6)
    theirs_var = VARIANCE if variance == "list" else paddle.to_tensor(var.astype(np.float32))
    ours_var = VARIANCE if variance == "list" else var.astype(np.float32)
    want = paddle.vision.ops.box_coder(
        paddle.to_tensor(prior), theirs_var, paddle.to_tensor(target), box_normalized=normalized
    ).numpy()
    got = ops.box_coder(prior, ours_var, target, box_normalized=normalized)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("variance", ["list", "tensor"])
@pytest.mark.parametrize("axis", [0, 1])
def test_decode_matches_paddle(normalized, variance, axis) -> None:
    paddle = pytest.importorskip("paddle")
    deltas = np.random.default_rng(10).standard_normal((4, 6, 4)).astype(np.float32)
    prior = random_boxes(6 if axis == 0 else 4, 11, np.float32)
    var = _variances(variance, len(prior))
    theirs_var = VARIANCE if variance == "list" else paddle.to_tensor(var.astype(np.float32))
    ours_var = VARIANCE if variance == "list" else var.astype(np.float32)
    want = paddle.vision.ops.box_coder(
        paddle.to_tensor(prior), theirs_var, paddle.to_tensor(deltas), "decode_center_size",
        normalized, axis,
    ).numpy()  # fmt: skip
    got = ops.box_coder(prior, ours_var, deltas, "decode_center_size", normalized, axis)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_box_coder_rejects_bad_arguments() -> None:
    prior, target = random_boxes(2, 1), random_boxes(2, 2)
    with pytest.raises(ValueError, match="code_type"):
        ops.box_coder(prior, VARIANCE, target, "encode")
    with pytest.raises(ValueError, match=r"\[N, M, 4\]"):
        ops.box_coder(prior, VARIANCE, target, "decode_center_size")
    with pytest.raises(ValueError, match="4 values"):
        ops.box_coder(prior, [0.1, 0.2], target)


def test_box_coder_gradients() -> None:
    prior, target = random_boxes(3, 12), random_boxes(2, 13)
    deltas = np.random.default_rng(14).standard_normal((2, 3, 4)) * 0.5
    check_backward(lambda p, t: ops.box_coder(p, VARIANCE, t), [prior, target])
    check_backward(
        lambda p, d: ops.box_coder(p, VARIANCE, d, "decode_center_size"), [prior, deltas]
    )
    check_double_backward(
        lambda p, d: ops.box_coder(p, VARIANCE, d, "decode_center_size", False), [prior, deltas]
    )


def test_distance2bbox_matches_numpy_and_clips() -> None:
    rng = np.random.default_rng(15)
    points = rng.uniform(0, 20, (6, 2))
    distance = rng.uniform(0, 8, (6, 4))
    want = np.concatenate([points - distance[:, :2], points + distance[:, 2:]], axis=1)
    np.testing.assert_allclose(ops.distance2bbox(points, distance), want)
    clipped = ops.distance2bbox(points, distance, max_shape=(15, 12))
    np.testing.assert_allclose(clipped, np.clip(want, 0, [12, 15, 12, 15]))


def test_distance2bbox_broadcasts_a_batch() -> None:
    rng = np.random.default_rng(16)
    points, distance = rng.uniform(0, 20, (5, 2)), rng.uniform(0, 8, (3, 5, 4))
    got = ops.distance2bbox(points, distance)
    assert got.shape == (3, 5, 4)
    np.testing.assert_allclose(got[1], ops.distance2bbox(points, distance[1]))


def test_bbox2distance_inverts_distance2bbox_and_clips() -> None:
    rng = np.random.default_rng(17)
    points, distance = rng.uniform(0, 20, (6, 2)), rng.uniform(0, 6, (6, 4))
    boxes = ops.distance2bbox(points, distance)
    np.testing.assert_allclose(ops.bbox2distance(points, boxes, reg_max=7), distance, atol=1e-12)
    far = ops.bbox2distance(points, boxes + [-30, -30, 30, 30], reg_max=7)
    np.testing.assert_allclose(far, 6.9)
    outside = ops.bbox2distance(np.array([[0.0, 0.0]]), np.array([[1.0, 1.0, 2.0, 2.0]]), 7)
    np.testing.assert_allclose(outside, [[0.0, 0.0, 2.0, 2.0]])


def test_distance_gradients() -> None:
    rng = np.random.default_rng(18)
    points, distance = rng.uniform(0, 20, (4, 2)), rng.uniform(0.5, 6, (4, 4))
    boxes = ops.distance2bbox(points, distance)
    check_backward(ops.distance2bbox, [points, distance])
    check_double_backward(ops.distance2bbox, [points, distance])
    check_backward(lambda p, b: ops.bbox2distance(p, b, 7), [points, boxes])


def test_tensors_stay_tensors() -> None:
    points = framework.to_tensor(np.zeros((2, 2), np.float32))
    out = ops.distance2bbox(points, framework.ones([2, 4]))
    assert isinstance(out, framework.Tensor) and out.dtype == np.float32


@pytest.mark.gpu
def test_box_coder_on_gpu_matches_cpu() -> None:
    from framework.core.backend import to_numpy, to_place

    place = framework.CUDAPlace(0)
    prior, target = random_boxes(4, 19, np.float32), random_boxes(3, 20, np.float32)
    got = ops.box_coder(to_place(prior, place), VARIANCE, to_place(target, place))
    np.testing.assert_allclose(to_numpy(got), ops.box_coder(prior, VARIANCE, target), rtol=1e-5)
