"""`DBLoss` and its parts against NumPy and torch references of PaddleOCR's formulas, their
gradients against central differences, and a tiny DB head trained with it end to end."""

from __future__ import annotations

import time

import numpy as np
import pytest

import framework
from framework.testing import check_backward
from framework.vision.ocr import (
    DBLoss,
    DBPostProcess,
    balanced_bce_loss,
    db_dice_loss,
    make_db_labels,
    mask_l1_loss,
)

EPS = 1e-6


def _np_balanced_bce(pred, gt, mask, ratio=3.0):
    positive = gt * mask
    negative = (1 - gt) * mask
    pos_count = int(positive.sum())
    neg_count = int(min(negative.sum(), pos_count * ratio))
    bce = -(gt * np.maximum(np.log(pred), -100) + (1 - gt) * np.maximum(np.log(1 - pred), -100))
    neg = np.sort((negative * bce).ravel())[::-1][:neg_count]
    return ((positive * bce).sum() + neg.sum()) / (pos_count + neg_count + EPS)


def _np_l1(pred, gt, mask):
    return (np.abs(pred - gt) * mask).sum() / (mask.sum() + EPS)


def _np_dice(pred, gt, mask):
    return 1 - 2 * (pred * gt * mask).sum() / ((pred * mask).sum() + (gt * mask).sum() + EPS)


def _case(seed=0, n=2, h=12, w=16):
    rng = np.random.default_rng(seed)
    maps = rng.uniform(0.05, 0.95, (n, 3, h, w))
    shrink_map = (rng.uniform(size=(n, h, w)) < 0.2).astype(np.float64)
    shrink_mask = (rng.uniform(size=(n, h, w)) < 0.9).astype(np.float64)
    threshold_map = rng.uniform(0.3, 0.7, (n, h, w))
    threshold_mask = (rng.uniform(size=(n, h, w)) < 0.5).astype(np.float64)
    return maps, shrink_map, shrink_mask, threshold_map, threshold_mask


def _t(a):
    return framework.to_tensor(np.asarray(a))


def test_parts_match_numpy():
    maps, sm, smask, tm, tmask = _case()
    p = maps[:, 0]
    assert balanced_bce_loss(_t(p), _t(sm), _t(smask)).item() == pytest.approx(
        _np_balanced_bce(p, sm, smask), rel=1e-10
    )
    assert mask_l1_loss(_t(maps[:, 1]), _t(tm), _t(tmask)).item() == pytest.approx(
        _np_l1(maps[:, 1], tm, tmask), rel=1e-10
    )
    assert db_dice_loss(_t(maps[:, 2]), _t(sm), _t(smask)).item() == pytest.approx(
        _np_dice(maps[:, 2], sm, smask), rel=1e-10
    )


def test_ohem_keeps_three_negatives_per_positive():
    gt = np.zeros((1, 4, 8))
    gt[0, 0, :2] = 1  # 2 positives -> the 6 hardest of 30 negatives
    mask = np.ones_like(gt)
    pred = np.full_like(gt, 0.1)
    pred[0, 0, :2] = 0.8
    pred[0, 3, :6] = 0.9  # the hard negatives
    expect = (2 * -np.log(0.8) + 6 * -np.log(0.1)) / (8 + EPS)
    assert balanced_bce_loss(_t(pred), _t(gt), _t(mask)).item() == pytest.approx(expect)
    # no positives: no negatives either
    assert balanced_bce_loss(_t(pred), _t(0 * gt), _t(mask)).item() == 0
    # masked pixels never count
    mask[0, 3, :6] = 0
    expect = (2 * -np.log(0.8) + 6 * -np.log(0.9)) / (8 + EPS)
    assert balanced_bce_loss(_t(pred), _t(gt), _t(mask)).item() == pytest.approx(expect)


def test_balanced_bce_from_logits_matches_and_corrects_confident_mistakes():
    maps, sm, smask, _, _ = _case(2)
    p = maps[:, 0]
    logits = np.log(p / (1 - p))
    assert balanced_bce_loss(_t(logits), _t(sm), _t(smask), from_logits=True).item() == (
        pytest.approx(_np_balanced_bce(p, sm, smask), rel=1e-9)
    )
    # a float32 sigmoid saturated at 1.0 passes no gradient; its logit does
    wrong = np.full((1, 2, 4), 40.0, dtype=np.float32)
    gt = np.zeros_like(wrong)
    gt[0, 0, 0] = 1
    mask = np.ones_like(wrong)
    via_logits = framework.to_tensor(wrong, stop_gradient=False)
    balanced_bce_loss(via_logits, _t(gt), _t(mask), from_logits=True).backward()
    via_probs = framework.to_tensor(wrong, stop_gradient=False)
    probs = framework.nn.functional.sigmoid(via_probs)
    balanced_bce_loss(probs, _t(gt), _t(mask)).backward()
    assert np.abs(via_probs.grad.numpy()).max() == 0
    grad = via_logits.grad.numpy()
    assert grad[0, 0, 0] == 0  # sigmoid(40) - 1 is 0 in float32: the positive is right
    assert (grad > 0.1).sum() == 3  # the 3 mined negatives (ratio 3) are pushed down


def test_dbloss_dict_and_weights():
    maps, sm, smask, tm, tmask = _case(1)
    losses = DBLoss()(_t(maps), _t(sm), _t(smask), _t(tm), _t(tmask))
    assert set(losses) == {"loss", "loss_shrink_maps", "loss_threshold_maps", "loss_binary_maps"}
    assert all(v.shape == [] for v in losses.values())
    shrink = 5 * _np_balanced_bce(maps[:, 0], sm, smask)
    threshold = 10 * _np_l1(maps[:, 1], tm, tmask)
    binary = _np_dice(maps[:, 2], sm, smask)
    assert losses["loss_shrink_maps"].item() == pytest.approx(shrink, rel=1e-10)
    assert losses["loss_threshold_maps"].item() == pytest.approx(threshold, rel=1e-10)
    assert losses["loss_binary_maps"].item() == pytest.approx(binary, rel=1e-10)
    assert losses["loss"].item() == pytest.approx(shrink + threshold + binary, rel=1e-10)
    # PaddleOCR's call form, its label order, and its configs' DiceLoss shrink term
    paddle_style = DBLoss(main_loss_type="DiceLoss", alpha=2, beta=3)(
        {"maps": _t(maps)}, [None, _t(tm), _t(tmask), _t(sm), _t(smask)]
    )
    positives = (sm * smask).sum()
    kept = positives + min(((1 - sm) * smask).sum(), 3 * positives)
    dice_shrink = 2 * _np_dice(maps[:, 0], sm, smask) * kept / (kept + EPS)
    assert paddle_style["loss_shrink_maps"].item() == pytest.approx(dice_shrink, rel=1e-10)
    assert paddle_style["loss_threshold_maps"].item() == pytest.approx(3 * threshold / 10)
    # unbalanced BCE is the mean over the shrink mask
    plain = DBLoss(balance_loss=False)(_t(maps), _t(sm), _t(smask), _t(tm), _t(tmask))
    bce = -(sm * np.log(maps[:, 0]) + (1 - sm) * np.log(1 - maps[:, 0]))
    bce = (bce * smask).sum() / (smask.sum() + EPS)
    assert plain["loss_shrink_maps"].item() == pytest.approx(5 * bce, rel=1e-10)


def test_matches_torch():
    torch = pytest.importorskip("torch")
    maps, sm, smask, tm, tmask = _case(2)
    ours_in = framework.to_tensor(maps, stop_gradient=False)
    ours = DBLoss()(ours_in, _t(sm), _t(smask), _t(tm), _t(tmask))
    ours["loss"].backward()

    m = torch.tensor(maps, requires_grad=True)
    gt, mask = torch.tensor(sm), torch.tensor(smask)
    positive, negative = gt * mask, (1 - gt) * mask
    pos_count = int(positive.sum())
    neg_count = int(min(negative.sum().item(), pos_count * 3))
    bce = torch.nn.functional.binary_cross_entropy(m[:, 0], gt, reduction="none")
    hard = torch.topk((negative * bce).reshape(-1), neg_count).values
    shrink = ((positive * bce).sum() + hard.sum()) / (pos_count + neg_count + EPS)
    threshold = ((m[:, 1] - torch.tensor(tm)).abs() * torch.tensor(tmask)).sum() / (
        torch.tensor(tmask).sum() + EPS
    )
    inter = (m[:, 2] * gt * mask).sum()
    binary = 1 - 2 * inter / ((m[:, 2] * mask).sum() + (gt * mask).sum() + EPS)
    total = 5 * shrink + 10 * threshold + binary
    total.backward()
    assert ours["loss"].item() == pytest.approx(total.item(), rel=1e-10)
    np.testing.assert_allclose(ours_in.grad.numpy(), m.grad.numpy(), rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("part", ["bce", "l1", "dice", "dbloss"])
def test_gradients(part):
    maps, sm, smask, tm, tmask = _case(3, n=1, h=5, w=6)
    if part == "bce":
        check_backward(balanced_bce_loss, [maps[:, 0], sm, smask], no_grads=[False, True, True])
    elif part == "l1":
        check_backward(mask_l1_loss, [maps[:, 1], tm, tmask], no_grads=[False, True, True])
    elif part == "dice":
        check_backward(db_dice_loss, [maps[:, 2], sm, smask], no_grads=[False, True, True])
    else:
        loss = DBLoss()
        check_backward(
            lambda m, a, b, c, d: loss(m, a, b, c, d)["loss"],
            [maps, sm, smask, tm, tmask],
            no_grads=[False, True, True, True, True],
        )


@pytest.mark.parametrize(
    ("maps_shape", "label_shape", "match"),
    [
        ((2, 2, 8, 8), (2, 8, 8), r"\[N, 3, H, W\]"),
        ((2, 3, 8, 8), (2, 8, 9), r"shrink_map must be \[N, H, W\] = \[2, 8, 8\]"),
        ((2, 3, 8, 8), (1, 8, 8), "shrink_map must be"),
        ((3, 8, 8), (3, 8, 8), r"\[N, 3, H, W\]"),
    ],
)
def test_shape_errors(maps_shape, label_shape, match):
    maps = _t(np.full(maps_shape, 0.5))
    label = _t(np.zeros(label_shape))
    with pytest.raises(ValueError, match=match):
        DBLoss()(maps, label, label, label, label)


def test_other_errors():
    x = _t(np.full((1, 4, 4), 0.5))
    with pytest.raises(ValueError, match="mask has shape"):
        balanced_bce_loss(x, x, _t(np.ones((1, 4, 5))))
    with pytest.raises(ValueError, match="gt has shape"):
        mask_l1_loss(x, _t(np.ones((4, 4))), x)
    with pytest.raises(ValueError, match="main_loss_type"):
        DBLoss(main_loss_type="Euclidean")
    maps = _t(np.full((1, 3, 4, 4), 0.5))
    with pytest.raises(ValueError, match="5 items|got 3 items"):
        DBLoss()({"maps": maps}, [x, x, x])
    with pytest.raises(ValueError, match="DBLoss takes"):
        DBLoss()(maps, x, x)


# --- end to end: a tiny DB head learns white rectangles -----------------------------------

RECTS = [
    [(8, 10, 52, 24)],
    [(14, 6, 58, 18), (4, 28, 40, 42)],
    [(20, 20, 60, 36)],
]  # (x0, y0, x1, y1) per image, 48 x 64


class TinyDBHead(framework.nn.Layer):
    def __init__(self, k: float = 50.0) -> None:
        super().__init__()
        self.k = k
        self.body = framework.nn.Sequential(
            framework.nn.Conv2D(1, 8, 3, padding=1),
            framework.nn.ReLU(),
            framework.nn.Conv2D(8, 8, 3, padding=2, dilation=2),
            framework.nn.ReLU(),
            framework.nn.Conv2D(8, 8, 3, padding=4, dilation=4),
            framework.nn.ReLU(),
            framework.nn.Conv2D(8, 2, 1),
        )

    def forward(self, x):
        out = framework.nn.functional.sigmoid(self.body(x))
        prob, thresh = out[:, 0:1], out[:, 1:2]
        binary = framework.nn.functional.sigmoid(self.k * (prob - thresh))
        return framework.concat([prob, thresh, binary], axis=1)


STEPS = 150  # ~6 s on one CPU core; the loss falls ~10x, the boxes' IoU is 0.8-0.95


def _box_iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_tiny_head_converges_and_detects():
    start = time.perf_counter()
    framework.seed(0)
    h, w = 48, 64
    images = np.zeros((len(RECTS), 1, h, w), np.float32)
    labels = []
    for i, rects in enumerate(RECTS):
        polys = []
        for x0, y0, x1, y1 in rects:
            images[i, 0, y0 : y1 + 1, x0 : x1 + 1] = 1
            polys.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
        labels.append(make_db_labels(polys, h, w))
    targets = [
        framework.to_tensor(np.stack([lab[k] for lab in labels]))
        for k in ("shrink_map", "shrink_mask", "threshold_map", "threshold_mask")
    ]
    x = framework.to_tensor(images - 0.5)
    model = TinyDBHead()
    loss_fn = DBLoss()
    opt = framework.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
    history = []
    for _ in range(STEPS):
        loss = loss_fn(model(x), *targets)["loss"]
        loss.backward()
        opt.step()
        opt.clear_grad()
        history.append(loss.item())
    assert history[-1] < 0.2 * history[0], history[::10]
    prob = model(x).numpy()[:, 0]
    post = DBPostProcess(box_thresh=0.5, unclip_ratio=1.5)
    for i, rects in enumerate(RECTS):
        boxes, _ = post(prob[i], (h, w))
        found = [(b[:, 0].min(), b[:, 1].min(), b[:, 0].max(), b[:, 1].max()) for b in boxes]
        for rect in rects:
            best = max((_box_iou(rect, f) for f in found), default=0.0)
            assert best > 0.5, (i, rect, found)
    assert time.perf_counter() - start < 60
