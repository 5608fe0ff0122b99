"""Detection losses (`framework.vision.detection.losses`): NumPy references, gradients (first
and second order), and PaddleDetection's formulas written in PaddlePaddle ops (values and
gradients)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import framework
from framework.testing import check_backward, check_double_backward
from framework.vision.detection import losses
from tests.framework_tests.vision_tests.box_fixtures import random_boxes

RNG = np.random.default_rng(0)
LOGITS = RNG.standard_normal((6, 3))
TARGET = np.where(RNG.uniform(size=(6, 3)) > 0.6, RNG.uniform(0.1, 1.0, (6, 3)), 0.0)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def vfl_reference(logits, q, alpha=0.75, gamma=2.0, iou_weighted=True, use_sigmoid=True):
    p = _sigmoid(logits) if use_sigmoid else logits
    bce = -(q * np.log(p) + (1 - q) * np.log(1 - p))
    positive = q > 0
    weight = np.where(positive, q if iou_weighted else 1.0, alpha * np.abs(p - q) ** gamma)
    return bce * weight


def qfl_reference(logits, label, score, beta=2.0):
    p = _sigmoid(logits)
    out = np.zeros(len(logits))
    for i in range(len(logits)):
        for c in range(logits.shape[1]):
            q = score[i] if label[i] == c else 0.0
            bce = -(q * np.log(p[i, c]) + (1 - q) * np.log(1 - p[i, c]))
            out[i] += bce * abs(q - p[i, c]) ** beta
    return out


def dfl_reference(logits, y):
    log_p = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    left = np.floor(y).astype(int)
    rows = np.arange(len(y))
    return -(log_p[rows, left] * (left + 1 - y) + log_p[rows, left + 1] * (y - left))


def box_reference(mode, p, g, eps):
    """PaddleDetection's bbox_iou for one pair, with Python floats."""
    px1, py1, px2, py2 = p
    gx1, gy1, gx2, gy2 = g
    overlap = max(min(px2, gx2) - max(px1, gx1), 0) * max(min(py2, gy2) - max(py1, gy1), 0)
    union = max((px2 - px1) * (py2 - py1), 0) + max((gx2 - gx1) * (gy2 - gy1), 0) - overlap + eps
    iou = overlap / union
    cw, ch = max(px2, gx2) - min(px1, gx1), max(py2, gy2) - min(py1, gy1)
    if mode == "giou":
        c_area = cw * ch + eps
        return iou - (c_area - union) / c_area
    c2 = cw**2 + ch**2 + eps
    rho2 = ((px1 + px2 - gx1 - gx2) ** 2 + (py1 + py2 - gy1 - gy2) ** 2) / 4
    if mode == "diou":
        return iou - rho2 / c2
    v = 4 / math.pi**2 * (math.atan((px2 - px1) / (py2 - py1 + eps)) - math.atan(
        (gx2 - gx1) / (gy2 - gy1 + eps))) ** 2  # fmt: skip
    return iou - (rho2 / c2 + v * v / (1 + eps - iou + v))


def _t(x):
    return framework.to_tensor(np.asarray(x))


@pytest.mark.parametrize("iou_weighted", [True, False])
@pytest.mark.parametrize("use_sigmoid", [True, False])
def test_varifocal_matches_reference(iou_weighted, use_sigmoid) -> None:
    pred = LOGITS if use_sigmoid else _sigmoid(LOGITS)
    got = losses.varifocal_loss(_t(pred), _t(TARGET), 0.75, 2.0, iou_weighted, use_sigmoid)
    want = vfl_reference(pred, TARGET, 0.75, 2.0, iou_weighted, use_sigmoid)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)


def test_reductions_and_avg_factor() -> None:
    elementwise = vfl_reference(LOGITS, TARGET)
    w = RNG.uniform(size=(6, 1))
    total = losses.varifocal_loss(_t(LOGITS), _t(TARGET), reduction="sum").item()
    assert total == pytest.approx(elementwise.sum())
    mean = losses.varifocal_loss(_t(LOGITS), _t(TARGET), reduction="mean").item()
    assert mean == pytest.approx(elementwise.mean())
    averaged = losses.varifocal_loss(
        _t(LOGITS), _t(TARGET), weight=_t(w), reduction="mean", avg_factor=2.5
    ).item()
    assert averaged == pytest.approx((elementwise * w).sum() / 2.5)
    with pytest.raises(ValueError, match="avg_factor"):
        losses.varifocal_loss(_t(LOGITS), _t(TARGET), reduction="sum", avg_factor=2.0)
    with pytest.raises(ValueError, match="reduction"):
        losses.varifocal_loss(_t(LOGITS), _t(TARGET), reduction="max")


def test_varifocal_gradients() -> None:
    target = TARGET.copy()

    def vfl(x):
        return losses.varifocal_loss(x, _t(target))

    check_backward(vfl, [LOGITS])
    check_double_backward(vfl, [LOGITS])
    probs = _sigmoid(LOGITS)
    check_backward(lambda p: losses.varifocal_loss(p, _t(target), use_sigmoid=False), [probs])


def test_quality_focal_matches_reference_and_gradients() -> None:
    label = np.array([0, 3, 2, 1, 3, 0])  # 3 is background
    score = RNG.uniform(0.2, 1.0, 6)
    got = losses.quality_focal_loss(_t(LOGITS), _t(label), _t(score))
    np.testing.assert_allclose(got.numpy(), qfl_reference(LOGITS, label, score), rtol=1e-10)
    check_backward(lambda x: losses.quality_focal_loss(x, _t(label), _t(score)), [LOGITS])


def test_distribution_focal_matches_reference_and_gradients() -> None:
    logits = RNG.standard_normal((5, 8))
    y = np.array([0.0, 0.5, 3.25, 6.9, 2.0])
    got = losses.distribution_focal_loss(_t(logits), _t(y))
    np.testing.assert_allclose(got.numpy(), dfl_reference(logits, y), rtol=1e-12)
    check_backward(lambda x: losses.distribution_focal_loss(x, _t(y)), [logits])
    check_double_backward(lambda x: losses.distribution_focal_loss(x, _t(y)), [logits])


def test_distribution_focal_is_smallest_at_the_target_mix() -> None:
    y = np.array([2.25])
    mix = np.zeros((1, 8))
    mix[0, 2], mix[0, 3] = 0.75, 0.25
    best = losses.distribution_focal_loss(_t(np.log(mix + 1e-12)), _t(y)).item()
    other = losses.distribution_focal_loss(_t(np.log(np.roll(mix, 1) + 1e-12)), _t(y)).item()
    entropy = -(0.75 * np.log(0.75) + 0.25 * np.log(0.25))
    assert best == pytest.approx(entropy, abs=1e-9) and other > best


def _box_pairs(seed: int):
    pred, target = random_boxes(6, seed), random_boxes(6, seed + 1)
    target[:3] = pred[:3] + np.random.default_rng(seed).uniform(-0.8, 0.8, (3, 4))
    return pred, target


@pytest.mark.parametrize("mode", ["giou", "diou", "ciou"])
def test_iou_losses_match_reference(mode) -> None:
    pred, target = _box_pairs(2)
    fn = getattr(losses, f"{mode}_loss")
    got = fn(_t(pred), _t(target), eps=1e-9).numpy()
    want = [1 - box_reference(mode, p, g, 1e-9) for p, g in zip(pred, target, strict=True)]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    identical = fn(_t(pred), _t(pred)).numpy()
    np.testing.assert_allclose(identical, 0.0, atol=1e-8)


def _ciou_alpha_fixed(pred, target):
    """CIoU loss with its trade-off alpha held at its value at (pred, target)."""
    from framework.vision.ops.boxes import aspect_ratio_term

    eps = 1e-10
    iou = losses.aligned_box_iou(_t(pred), _t(target), "iou", eps).numpy()
    v = aspect_ratio_term(_t(pred), _t(target), eps).numpy()
    alpha = _t(v / (1 + eps - iou + v))

    def loss(p, g):
        diou = losses.aligned_box_iou(p, g, "diou", eps)
        return 1.0 - diou + alpha * aspect_ratio_term(p, g, eps)

    return loss


@pytest.mark.parametrize("mode", ["giou", "diou", "ciou"])
def test_iou_loss_gradients(mode) -> None:
    pred, target = _box_pairs(3)

    def loss_for(p, g):
        return _ciou_alpha_fixed(p, g) if mode == "ciou" else getattr(losses, f"{mode}_loss")

    fn = loss_for(pred, target)
    check_backward(fn, [pred, target])
    check_double_backward(loss_for(pred[:2], target[:2]), [pred[:2], target[:2]])
    if mode == "ciou":
        tp, tg = (framework.to_tensor(x, stop_gradient=False) for x in (pred, target))
        ours = framework.grad(losses.ciou_loss(tp, tg).sum(), [tp, tg])
        tp2, tg2 = (framework.to_tensor(x, stop_gradient=False) for x in (pred, target))
        fixed = framework.grad(fn(tp2, tg2).sum(), [tp2, tg2])
        for a, b in zip(ours, fixed, strict=True):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-12)


# --- PaddleDetection's formulas in PaddlePaddle ops -------------------------------------------
def _paddle_vfl(paddle, pred, target):
    F = paddle.nn.functional
    p = F.sigmoid(pred)
    weight = target * (target > 0).astype("float32") + 0.75 * (p - target).abs().pow(2.0) * (
        target <= 0
    ).astype("float32")
    return F.binary_cross_entropy_with_logits(pred, target, reduction="none") * weight


def _paddle_dfl(paddle, pred, label):
    F = paddle.nn.functional
    left = label.astype("int64")
    right = left + 1
    w_left = right.astype("float32") - label
    w_right = label - left.astype("float32")
    ce = F.cross_entropy
    return (
        ce(pred, left, reduction="none").squeeze(-1) * w_left
        + ce(pred, right, reduction="none").squeeze(-1) * w_right
    )


def _paddle_giou(paddle, p, g, eps=1e-10):
    x1, y1, x2, y2 = paddle.split(p, 4, axis=-1)
    gx1, gy1, gx2, gy2 = paddle.split(g, 4, axis=-1)
    w = (paddle.minimum(x2, gx2) - paddle.maximum(x1, gx1)).clip(0)
    h = (paddle.minimum(y2, gy2) - paddle.maximum(y1, gy1)).clip(0)
    overlap = w * h
    union = (x2 - x1) * (y2 - y1) + (gx2 - gx1) * (gy2 - gy1) - overlap + eps
    iou = overlap / union
    area_c = (paddle.maximum(x2, gx2) - paddle.minimum(x1, gx1)) * (
        paddle.maximum(y2, gy2) - paddle.minimum(y1, gy1)
    ) + eps
    return (1 - (iou - (area_c - union) / area_c)).squeeze(-1)


def _compare_with_paddle(ours_fn, theirs_fn, inputs, grad_of=(0,)):
    paddle = pytest.importorskip("paddle")
    arrays = [np.asarray(a, np.float32) if a.dtype.kind == "f" else a for a in inputs]
    ours = [framework.to_tensor(a, stop_gradient=i not in grad_of) for i, a in enumerate(arrays)]
    theirs = [paddle.to_tensor(a, stop_gradient=i not in grad_of) for i, a in enumerate(arrays)]
    out, expected = ours_fn(*ours), theirs_fn(paddle, *theirs)
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    expected.sum().backward()
    for i in grad_of:
        np.testing.assert_allclose(
            ours[i].grad.numpy(), theirs[i].grad.numpy(), rtol=1e-4, atol=1e-6
        )


def test_varifocal_matches_paddledetection() -> None:
    _compare_with_paddle(losses.varifocal_loss, _paddle_vfl, [LOGITS, TARGET])


def test_distribution_focal_matches_paddledetection() -> None:
    logits = RNG.standard_normal((5, 8))
    y = np.array([0.0, 0.5, 3.25, 6.9, 2.0])
    _compare_with_paddle(losses.distribution_focal_loss, _paddle_dfl, [logits, y])


def test_giou_matches_paddledetection() -> None:
    pred, target = _box_pairs(4)
    _compare_with_paddle(losses.giou_loss, _paddle_giou, [pred, target], grad_of=(0, 1))
