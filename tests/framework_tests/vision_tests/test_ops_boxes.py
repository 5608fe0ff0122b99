"""Pairwise box overlaps (`framework.vision.ops.box_iou` and the GIoU/DIoU/CIoU family): a
scalar NumPy reference pair by pair, gradients (first and second order) through Tensors, and
PyTorch autograd of torchvision's formulas for the gradients' values."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward
from framework.vision import ops
from tests.framework_tests.vision_tests.box_fixtures import random_boxes


def reference(kind: str, a: np.ndarray, b: np.ndarray, eps: float = 1e-7) -> float:
    """One pair, written out with Python floats (torchvision's definitions)."""
    ax1, ay1, ax2, ay2 = (float(v) for v in a)
    bx1, by1, bx2, by2 = (float(v) for v in b)
    inter = max(0.0, min(ax2, bx2) - max(ax1, bx1)) * max(0.0, min(ay2, by2) - max(ay1, by1))
    union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter
    iou = inter / union
    cw = max(ax2, bx2) - min(ax1, bx1)
    ch = max(ay2, by2) - min(ay1, by1)
    if kind == "iou":
        return iou
    if kind == "giou":
        return iou - (cw * ch - union) / (cw * ch)
    rho2 = ((ax1 + ax2) / 2 - (bx1 + bx2) / 2) ** 2 + ((ay1 + ay2) / 2 - (by1 + by2) / 2) ** 2
    diou = iou - rho2 / (cw**2 + ch**2 + eps)
    if kind == "diou":
        return diou
    v = (
        4
        / math.pi**2
        * (math.atan((ax2 - ax1) / (ay2 - ay1)) - math.atan((bx2 - bx1) / (by2 - by1))) ** 2
    )
    return diou - v / (1 - iou + v + eps) * v


OPS = {
    "iou": ops.box_iou,
    "giou": ops.generalized_box_iou,
    "diou": ops.distance_box_iou,
    "ciou": ops.complete_box_iou,
}


@pytest.mark.parametrize("kind", sorted(OPS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pairwise_matches_the_scalar_reference(kind, dtype) -> None:
    a, b = random_boxes(5, 1, dtype), random_boxes(4, 2, dtype)
    b[0] = a[0]  # identical boxes
    b[1] = [20, 20, 21, 21]  # disjoint from everything
    got = OPS[kind](a, b)
    assert isinstance(got, np.ndarray) and got.dtype == dtype and got.shape == (5, 4)
    want = np.array([[reference(kind, x, y) for y in b] for x in a])
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-6)
    assert got[0, 0] == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_tensors_in_give_tensors_out(kind) -> None:
    a = framework.to_tensor(random_boxes(3, 3, np.float32))
    out = OPS[kind](a, a)
    assert isinstance(out, framework.Tensor) and out.shape == [3, 3]
    np.testing.assert_allclose(np.diag(out.numpy()), 1.0, atol=1e-6)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_empty_sets_give_empty_matrices(kind) -> None:
    assert OPS[kind](np.zeros((0, 4)), random_boxes(3, 4)).shape == (0, 3)
    assert OPS[kind](random_boxes(2, 4), np.zeros((0, 4))).shape == (2, 0)


def test_rejects_boxes_without_four_coordinates() -> None:
    with pytest.raises(ValueError, match=r"\[N, 4\]"):
        ops.box_iou(np.zeros((2, 3)), np.zeros((2, 4)))


def _ciou_with_constant_alpha(a: np.ndarray, b: np.ndarray):
    """CIoU holds its trade-off `alpha` constant for gradients; this is CIoU with `alpha`
    fixed at its value at (a, b), a function whose numerical gradient is the one CIoU means."""
    from framework.vision.ops.boxes import aspect_ratio_term

    iou = ops.box_iou(a, b)
    v = aspect_ratio_term(
        framework.to_tensor(a).unsqueeze(1), framework.to_tensor(b).unsqueeze(0)
    ).numpy()
    alpha = framework.to_tensor(v / (1 - iou + v + 1e-7))

    def surrogate(ta, tb):
        return ops.distance_box_iou(ta, tb) - alpha * aspect_ratio_term(
            ta.unsqueeze(1), tb.unsqueeze(0)
        )

    return surrogate


def _differentiable(kind: str, a: np.ndarray, b: np.ndarray):
    return _ciou_with_constant_alpha(a, b) if kind == "ciou" else OPS[kind]


@pytest.mark.parametrize("kind", sorted(OPS))
def test_gradients(kind) -> None:
    a, b = random_boxes(3, 5), random_boxes(2, 6)
    b[0] = a[0] + [0.3, -0.2, 0.4, 0.1]  # one overlapping pair at least
    check_backward(_differentiable(kind, a, b), [a, b])


def test_ciou_gradient_holds_alpha_constant() -> None:
    a, b = random_boxes(3, 5), random_boxes(2, 6)
    b[0] = a[0] + [0.3, -0.2, 0.4, 0.1]
    grads = []
    for fn in (ops.complete_box_iou, _ciou_with_constant_alpha(a, b)):
        ta, tb = (framework.to_tensor(x, stop_gradient=False) for x in (a, b))
        grads.append(framework.grad(fn(ta, tb).sum(), [ta, tb]))
    for got, want in zip(*grads, strict=True):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", sorted(OPS))
def test_double_backward(kind) -> None:
    a, b = random_boxes(2, 7), random_boxes(2, 8)
    b[0] = a[0] + [0.3, -0.2, 0.4, 0.1]
    check_double_backward(_differentiable(kind, a, b), [a, b])


def _torch_formulas(kind: str, a, b):
    """torchvision.ops' box_iou / generalized / distance / complete IoU, in torch ops."""
    import torch

    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    union = area_a[:, None] + area_b - inter
    iou = inter / union
    if kind == "iou":
        return iou
    lti = torch.min(a[:, None, :2], b[:, :2])
    rbi = torch.max(a[:, None, 2:], b[:, 2:])
    whi = rbi - lti
    if kind == "giou":
        areai = whi[..., 0] * whi[..., 1]
        return iou - (areai - union) / areai
    diag = whi[..., 0] ** 2 + whi[..., 1] ** 2 + 1e-7
    ca = (a[:, :2] + a[:, 2:]) / 2
    cb = (b[:, :2] + b[:, 2:]) / 2
    dist = ((ca[:, None] - cb) ** 2).sum(-1)
    diou = iou - dist / diag
    if kind == "diou":
        return diou
    wa, ha = a[:, None, 2] - a[:, None, 0], a[:, None, 3] - a[:, None, 1]
    wb, hb = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    v = (4 / math.pi**2) * (torch.atan(wa / ha) - torch.atan(wb / hb)) ** 2
    with torch.no_grad():
        alpha = v / (1 - iou + v + 1e-7)
    return diou - alpha * v


@pytest.mark.parametrize("kind", sorted(OPS))
def test_values_and_gradients_match_torch(kind) -> None:
    torch = pytest.importorskip("torch")
    a, b = random_boxes(4, 9, np.float32), random_boxes(3, 10, np.float32)
    b[0] = a[1] + np.float32(0.5)
    g = np.random.default_rng(11).standard_normal((4, 3)).astype(np.float32)
    ta, tb = (framework.to_tensor(x, stop_gradient=False) for x in (a, b))
    out = OPS[kind](ta, tb)
    out.backward(framework.to_tensor(g))
    pa, pb = (torch.tensor(x, requires_grad=True) for x in (a, b))
    expected = _torch_formulas(kind, pa, pb)
    expected.backward(torch.tensor(g))
    np.testing.assert_allclose(out.numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ta.grad.numpy(), pa.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tb.grad.numpy(), pb.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_box_area() -> None:
    boxes = random_boxes(5, 12)
    want = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    np.testing.assert_allclose(ops.box_area(boxes), want)
    check_backward(ops.box_area, [boxes])


@pytest.mark.gpu
@pytest.mark.parametrize("kind", sorted(OPS))
def test_pairwise_on_gpu_matches_cpu(kind) -> None:
    from framework.core.backend import to_numpy, to_place

    a, b = random_boxes(6, 13, np.float32), random_boxes(5, 14, np.float32)
    place = framework.CUDAPlace(0)
    got = OPS[kind](to_place(a, place), to_place(b, place))
    np.testing.assert_allclose(to_numpy(got), OPS[kind](a, b), rtol=1e-5, atol=1e-6)
