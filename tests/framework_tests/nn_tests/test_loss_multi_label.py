"""BCEWithLogitsLoss as multi-label training uses it: [N, C] logits against multi-hot targets.

A NumPy reference, float64 gradient checks of first and second order on hard 0/1 targets,
stability at large logits, and PaddlePaddle itself (skipped when absent) on every reduction,
with `weight` and `pos_weight`.
"""

from __future__ import annotations

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.testing import check_backward, check_double_backward

rng = np.random.default_rng(7)
LOGITS = rng.standard_normal((6, 5)) * 3
TARGETS = (rng.uniform(size=(6, 5)) < 0.4).astype(np.float64)  # multi-hot, several per row
POS_WEIGHT = np.array([1.0, 2.0, 0.5, 3.0, 1.5])


def reference(x: np.ndarray, y: np.ndarray, pos_weight: np.ndarray | float = 1.0) -> np.ndarray:
    """-(pw y log s(x) + (1 - y) log(1 - s(x))), written the obvious (unstable) way."""
    s = 1 / (1 + np.exp(-x))
    return -(pos_weight * y * np.log(s) + (1 - y) * np.log(1 - s))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_it_matches_the_numpy_reference_on_multi_hot_targets(reduction: str) -> None:
    loss = nn.BCEWithLogitsLoss(reduction=reduction)
    out = loss(framework.to_tensor(LOGITS), framework.to_tensor(TARGETS)).numpy()
    values = reference(LOGITS, TARGETS)
    expected = {"mean": values.mean(), "sum": values.sum(), "none": values}[reduction]
    np.testing.assert_allclose(out, expected, rtol=1e-10)


def test_its_gradients_check_numerically_on_multi_hot_targets() -> None:
    loss = nn.BCEWithLogitsLoss(pos_weight=framework.to_tensor(POS_WEIGHT))
    targets = framework.to_tensor(TARGETS)
    check_backward(lambda x: loss(x, targets), [LOGITS])
    check_double_backward(lambda x: loss(x, targets), [LOGITS])


def test_it_stays_finite_at_large_logits() -> None:
    x = np.array([[-80.0, 80.0, 0.0, 40.0], [120.0, -120.0, 5.0, -5.0]], np.float32)
    y = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], np.float32)
    logits = framework.to_tensor(x, stop_gradient=False)
    out = nn.BCEWithLogitsLoss(reduction="none")(logits, framework.to_tensor(y))
    out.sum().backward()
    # Right answers cost nothing; a confident wrong one costs |x| (log(1 + e^|x|) ~ |x|).
    np.testing.assert_allclose(out.numpy()[:, :2], 0.0, atol=1e-6)
    np.testing.assert_allclose(out.numpy()[0, 3], 40.0, rtol=1e-6)
    assert np.isfinite(logits.grad.numpy()).all()


paddle_cases = {
    "mean": {},
    "sum": {"reduction": "sum"},
    "none": {"reduction": "none"},
    "pos_weight": {"pos_weight": POS_WEIGHT},
    "weight_and_pos_weight": {"weight": POS_WEIGHT[::-1].copy(), "pos_weight": POS_WEIGHT},
}


@pytest.mark.parametrize("name", sorted(paddle_cases))
def test_it_matches_paddle(name: str) -> None:
    paddle = pytest.importorskip("paddle")
    options = paddle_cases[name]
    arrays = {k: v.astype(np.float32) for k, v in options.items() if k != "reduction"}
    reduction = {"reduction": options.get("reduction", "mean")}
    ours_options = {k: framework.to_tensor(v) for k, v in arrays.items()} | reduction
    theirs_options = {k: paddle.to_tensor(v) for k, v in arrays.items()} | reduction
    x, y = LOGITS.astype(np.float32), TARGETS.astype(np.float32)
    ours_x = framework.to_tensor(x, stop_gradient=False)
    ours = nn.BCEWithLogitsLoss(**ours_options)(ours_x, framework.to_tensor(y))
    theirs_x = paddle.to_tensor(x, stop_gradient=False)
    theirs = paddle.nn.BCEWithLogitsLoss(**theirs_options)(theirs_x, paddle.to_tensor(y))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)
    ours.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(ours_x.grad.numpy(), theirs_x.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_the_functional_form_is_the_layer() -> None:
    x, y = framework.to_tensor(LOGITS), framework.to_tensor(TARGETS)
    layer = nn.BCEWithLogitsLoss(pos_weight=framework.to_tensor(POS_WEIGHT))(x, y)
    functional = F.binary_cross_entropy_with_logits(
        x, y, pos_weight=framework.to_tensor(POS_WEIGHT)
    )
    np.testing.assert_allclose(layer.numpy(), functional.numpy())
