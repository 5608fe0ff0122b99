"""multi_margin_loss, multi_label_margin_loss, triplet_margin_with_distance_loss, dice_loss
and npair_loss: NumPy references, PyTorch parity where torch has the loss, real Paddle parity
in float32 (values, shapes, dtypes), float64 gradient checks of first and second order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(0)
X = rng.standard_normal((5, 4))
LABEL = np.array([3, 0, 2, 2, 1])
WEIGHT = rng.uniform(0.5, 2.0, 4)
TARGETS = np.array([[3, 0, -1, 1], [1, 1, 2, -1], [0, 1, 2, 3], [-1, 2, 0, 0], [2, -1, -1, -1]])
A, B, C = (rng.standard_normal((5, 3)) for _ in range(3))
PROBS = rng.uniform(0.05, 1.0, (2, 3, 3, 4))
CLASSES = rng.integers(0, 4, (2, 3, 3, 1))
PAIR_LABELS = np.array([0, 1, 0, 2, 1])


def tensor(array, **kwargs):
    return framework.to_tensor(array, **kwargs)


def reference_multi_margin(x, label, p, margin, weight):
    n, c = x.shape
    out = np.zeros(n)
    for i, j in itertools.product(range(n), range(c)):
        if j != label[i]:
            w = 1.0 if weight is None else weight[label[i]]
            out[i] += w * max(0.0, margin - x[i, label[i]] + x[i, j]) ** p / c
    return out


def reference_multi_label_margin(x, targets):
    n, c = x.shape
    out = np.zeros(n)
    for i in range(n):
        listed = []
        for t in targets[i]:
            if t == -1:
                break
            listed.append(t)
        for j in listed:
            for k in set(range(c)) - set(listed):
                out[i] += max(0.0, 1.0 - (x[i, j] - x[i, k])) / c
    return out


@pytest.mark.parametrize(("p", "weight"), [(1, None), (2, None), (1, WEIGHT), (2, WEIGHT)])
def test_multi_margin_loss_matches_numpy_and_pytorch(p, weight):
    torch = pytest.importorskip("torch")
    w = None if weight is None else tensor(weight)
    out = F.multi_margin_loss(tensor(X), tensor(LABEL), p, 0.8, w, reduction="none")
    expected = reference_multi_margin(X, LABEL, p, 0.8, weight)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-15)
    ours = tensor(X, stop_gradient=False)
    theirs = torch.tensor(X, requires_grad=True)
    tw = None if weight is None else torch.tensor(weight)
    loss = F.multi_margin_loss(ours, tensor(LABEL), p, 0.8, w)
    torch_loss = torch.nn.functional.multi_margin_loss(theirs, torch.tensor(LABEL), p, 0.8, tw)
    np.testing.assert_allclose(loss.numpy(), torch_loss.detach().numpy(), rtol=1e-12)
    loss.backward()
    torch_loss.backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-10, atol=1e-14)


def test_multi_label_margin_loss_matches_numpy_and_pytorch():
    torch = pytest.importorskip("torch")
    out = F.multi_label_margin_loss(tensor(X), tensor(TARGETS), reduction="none")
    np.testing.assert_allclose(out.numpy(), reference_multi_label_margin(X, TARGETS), rtol=1e-12)
    ours = tensor(X, stop_gradient=False)
    theirs = torch.tensor(X, requires_grad=True)
    loss = F.multi_label_margin_loss(ours, tensor(TARGETS), reduction="sum")
    torch_loss = torch.nn.functional.multilabel_margin_loss(
        theirs, torch.tensor(TARGETS), reduction="sum"
    )
    np.testing.assert_allclose(loss.numpy(), torch_loss.detach().numpy(), rtol=1e-12)
    loss.backward()
    torch_loss.backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-10, atol=1e-14)


def cosine_distance(x, y):
    return 1.0 - F.cosine_similarity(x, y, axis=-1)


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("custom", [False, True])
def test_triplet_margin_with_distance_loss_matches_pytorch(swap, custom):
    torch = pytest.importorskip("torch")
    ours = [tensor(a, stop_gradient=False) for a in (A, B, C)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (A, B, C)]
    distance = cosine_distance if custom else None
    torch_distance = (
        (lambda x, y: 1.0 - torch.nn.functional.cosine_similarity(x, y)) if custom else None
    )
    loss = F.triplet_margin_with_distance_loss(*ours, distance, 0.5, swap, "sum")
    torch_loss = torch.nn.functional.triplet_margin_with_distance_loss(
        *theirs, distance_function=torch_distance, margin=0.5, swap=swap, reduction="sum"
    )
    np.testing.assert_allclose(loss.numpy(), torch_loss.detach().numpy(), rtol=1e-8)
    loss.backward()
    torch_loss.backward()
    for a, b in zip(ours, theirs, strict=True):
        # torch's default pairwise_distance adds eps like Paddle's: the gradients agree closely.
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-6, atol=1e-8)


def reference_dice(probs, classes, epsilon=1e-5):
    one_hot = np.eye(probs.shape[-1])[classes[..., 0]]
    axes = tuple(range(1, probs.ndim))
    overlap = (probs * one_hot).sum(axes)
    return np.mean(1 - 2 * overlap / (probs.sum(axes) + one_hot.sum(axes) + epsilon))


def reference_npair(anchor, positive, labels, l2_reg=0.002):
    same = (labels[:, None] == labels[None, :]).astype(float)
    target = same / same.sum(1, keepdims=True)
    logits = anchor @ positive.T
    log_probs = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    per_anchor = -(target * log_probs).sum(1, keepdims=True)
    l2 = (anchor**2).sum(1).mean() + (positive**2).sum(1).mean()
    return l2 * 0.25 * l2_reg + (target * per_anchor).sum(0).mean()


def test_dice_and_npair_losses_match_numpy():
    out = F.dice_loss(tensor(PROBS), tensor(CLASSES))
    np.testing.assert_allclose(out.numpy(), reference_dice(PROBS, CLASSES), rtol=1e-12)
    out = F.npair_loss(tensor(A), tensor(B), tensor(PAIR_LABELS), l2_reg=0.01)
    np.testing.assert_allclose(out.numpy(), reference_npair(A, B, PAIR_LABELS, 0.01), rtol=1e-12)


def paddle_cases(paddle):
    pf = paddle.nn.functional
    pt = paddle.to_tensor
    f32 = {k: v.astype(np.float32) for k, v in dict(X=X, W=WEIGHT, A=A, B=B, C=C, P=PROBS).items()}
    return {
        "multi_margin": (
            lambda: F.multi_margin_loss(tensor(f32["X"]), tensor(LABEL), 2, 0.7, tensor(f32["W"])),
            lambda: pf.multi_margin_loss(pt(f32["X"]), pt(LABEL), 2, 0.7, pt(f32["W"])),
        ),
        "multi_margin_none": (
            lambda: F.multi_margin_loss(tensor(f32["X"]), tensor(LABEL), reduction="none"),
            lambda: pf.multi_margin_loss(pt(f32["X"]), pt(LABEL), reduction="none"),
        ),
        "multi_label_margin": (
            lambda: F.multi_label_margin_loss(tensor(f32["X"]), tensor(TARGETS), "none"),
            lambda: pf.multi_label_margin_loss(pt(f32["X"]), pt(TARGETS), "none"),
        ),
        "triplet_with_distance": (
            lambda: F.triplet_margin_with_distance_loss(
                *[tensor(f32[k]) for k in "ABC"], swap=True, reduction="none"
            ),
            lambda: pf.triplet_margin_with_distance_loss(
                *[pt(f32[k]) for k in "ABC"], swap=True, reduction="none"
            ),
        ),
        "dice": (
            lambda: F.dice_loss(tensor(f32["P"]), tensor(CLASSES)),
            lambda: pf.dice_loss(pt(f32["P"]), pt(CLASSES)),
        ),
        # Paddle 3.3's npair_loss fails on float64 inputs (its soft labels stay float32).
        "npair": (
            lambda: F.npair_loss(tensor(f32["A"]), tensor(f32["B"]), tensor(PAIR_LABELS)),
            lambda: pf.npair_loss(pt(f32["A"]), pt(f32["B"]), pt(PAIR_LABELS)),
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "multi_margin",
        "multi_margin_none",
        "multi_label_margin",
        "triplet_with_distance",
        "dice",
        "npair",
    ],
)
def test_losses_match_paddle_in_float32(name):
    paddle = pytest.importorskip("paddle")
    ours_fn, paddle_fn = paddle_cases(paddle)[name]
    ours, theirs = ours_fn().numpy(), paddle_fn().numpy()
    assert ours.dtype == theirs.dtype == np.float32
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


GRADIENT_CASES = {
    "multi_margin_p1": (lambda x: F.multi_margin_loss(x, tensor(LABEL), 1, 0.8), [X]),
    "multi_margin_p2_weight": (
        lambda x, w: F.multi_margin_loss(x, tensor(LABEL), 2, 0.8, w, "sum"),
        [X, WEIGHT],
    ),
    "multi_label_margin": (lambda x: F.multi_label_margin_loss(x, tensor(TARGETS)), [X]),
    "triplet_with_distance": (
        lambda a, b, c: F.triplet_margin_with_distance_loss(a, b, c, cosine_distance, 0.5, True),
        [A, B, C],
    ),
    "dice": (lambda p: F.dice_loss(p, tensor(CLASSES)), [PROBS]),
    "npair": (lambda a, b: F.npair_loss(a, b, tensor(PAIR_LABELS), 0.05), [A, B]),
}


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients_in_float64(name):
    fn, arrays = GRADIENT_CASES[name]
    check_backward(fn, arrays)
    check_double_backward(fn, arrays)


def test_losses_check_their_arguments():
    with pytest.raises(ValueError, match="shape\\[0\\]"):
        F.multi_margin_loss(tensor(X), tensor(LABEL[:3]))
    with pytest.raises(ValueError, match="weight"):
        F.multi_margin_loss(tensor(X), tensor(LABEL), weight=tensor(WEIGHT[:3]))
    with pytest.raises(ValueError, match=">= -1"):
        F.multi_label_margin_loss(tensor(X), tensor(TARGETS - 2))
    with pytest.raises(ValueError, match="greater than 0"):
        F.triplet_margin_with_distance_loss(
            tensor(A), tensor(B), tensor(C), lambda x, y: (x - y).sum(-1)
        )
    with pytest.raises(ValueError, match="last dimension"):
        F.dice_loss(tensor(PROBS), tensor(CLASSES[..., 0:1].repeat(2, -1)))
    with pytest.raises(ValueError, match="reduction"):
        F.multi_margin_loss(tensor(X), tensor(LABEL), reduction="avg")
