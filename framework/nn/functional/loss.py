"""Regression and binary-classification losses, as in `paddle.nn.functional`:
mse_loss, l1_loss, smooth_l1_loss, binary_cross_entropy, binary_cross_entropy_with_logits,
kl_div, sigmoid_focal_loss, log_loss. Cross-entropy and NLL live in `cross_entropy.py`.

Each fused loss is an `ElementwiseLoss`: one pass computes the per-element loss and reduces it
('mean', 'sum' or 'none'); backward multiplies the incoming gradient by the per-element
derivative, on arrays, or with Tensor ops when the backward is recorded (`create_graph=True`).
Input and label broadcast against each other; gradients are summed back to each one's shape.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.cross_entropy import (
    cross_entropy,
    nll_loss,
    softmax_with_cross_entropy,
)
from framework.nn.functional.loss_terms import (
    BCELoss,
    BCEWithLogitsLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    SmoothL1Loss,
    check_reduction,
)
from framework.nn.functional.sigmoid import sigmoid

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "kl_div",
    "l1_loss",
    "label_smooth",
    "log_loss",
    "mse_loss",
    "nll_loss",
    "sigmoid_focal_loss",
    "smooth_l1_loss",
    "softmax_with_cross_entropy",
    "square_error_cost",
]


def _as_label(label: object, like: Tensor) -> Tensor:
    if isinstance(label, Tensor):
        return label
    xp = get_array_module(like._data)
    return Tensor._wrap(xp.asarray(label, dtype=like.dtype))


def _apply_weight(out: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
    """Multiply an unreduced loss by `weight` (broadcast) and then reduce."""
    if weight is not None:
        out = out * (weight if weight.dtype == out.dtype else weight.astype(out.dtype))
    if reduction == "sum":
        return out.sum()
    if reduction == "mean":
        return out.mean()
    return out


def _fused(function: Function, input: Tensor, label: Tensor, weight: Tensor | None) -> Tensor:
    if weight is None:
        return function.apply(input, label)
    reduction = function.reduction
    function.reduction = "none"
    return _apply_weight(function.apply(input, label), weight, reduction)


def mse_loss(input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None):
    """Mean squared error `(input - label)^2`, reduced by 'mean' (default), 'sum' or 'none'."""
    check_reduction(reduction, "MSELoss")
    return MSELoss(reduction).apply(*amp_cast("mse_loss", input, _as_label(label, input)))


def square_error_cost(input: Tensor, label: Tensor) -> Tensor:
    """`(input - label)^2`, elementwise (no reduction)."""
    return MSELoss("none").apply(*amp_cast("mse_loss", input, _as_label(label, input)))


def l1_loss(input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None):
    """Mean absolute error `|input - label|`, reduced by 'mean', 'sum' or 'none'.

    Complex inputs give a real loss (float32 for complex64), as in Paddle, built from `abs`
    so that the gradient is the complex sign `r / |r|`.
    """
    check_reduction(reduction, "L1Loss")
    if any(isinstance(t, Tensor) and t._data.dtype.kind == "c" for t in (input, label)):
        loss = (input - label).abs()
        return loss if reduction == "none" else (loss.sum() if reduction == "sum" else loss.mean())
    return L1Loss(reduction).apply(*amp_cast("l1_loss", input, _as_label(label, input)))


def smooth_l1_loss(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    is_huber: bool = True,
    name: str | None = None,
) -> Tensor:
    """Paddle's smooth L1 (Huber) loss: `0.5 r^2` where `|r| <= delta`, else
    `delta * (|r| - 0.5 delta)`, with `r = input - label`; `is_huber=False` divides by delta
    (PyTorch's SmoothL1Loss with `beta=delta`)."""
    check_reduction(reduction, "smooth_l1_loss")
    input, label = amp_cast("smooth_l1_loss", input, _as_label(label, input))
    return SmoothL1Loss(reduction, delta, is_huber).apply(input, label)


def binary_cross_entropy(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """`-(label log(input) + (1 - label) log(1 - input))` on probabilities in [0, 1], with each
    log clamped at -100 as Paddle does; `weight` rescales each element."""
    check_reduction(reduction, "binary_cross_entropy")
    input, label, weight = amp_cast("binary_cross_entropy", input, _as_label(label, input), weight)
    return _fused(BCELoss(reduction), input, label, weight)


def binary_cross_entropy_with_logits(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Sigmoid plus binary cross-entropy in one stable step. `pos_weight` (one per class,
    broadcast over the last axis) weights the positive term; `weight` rescales each element."""
    check_reduction(reduction, "binary_cross_entropy_with_logits")
    logit, label, weight = amp_cast(
        "binary_cross_entropy_with_logits", logit, _as_label(label, logit), weight
    )
    if pos_weight is not None:
        pos_weight = pos_weight._data.astype(logit.dtype, copy=False)
    function = BCEWithLogitsLoss(reduction, pos_weight)
    return _fused(function, logit, label, weight)


def kl_div(
    input: Tensor,
    label: Tensor,
    reduction: str = "mean",
    log_target: bool = False,
    name: str | None = None,
) -> Tensor:
    """Kullback-Leibler divergence `label * (log(label) - input)` where `input` holds
    log-probabilities (and `label` log-probabilities too when `log_target=True`).
    `reduction` is 'mean' (over all elements), 'batchmean' (sum / batch size), 'sum' or 'none'.
    """
    check_reduction(reduction, "kl_div", ("mean", "batchmean", "sum", "none"))
    input, label = amp_cast("kl_div", input, _as_label(label, input))
    if reduction == "batchmean":
        total = KLDivLoss("sum", log_target).apply(input, label)
        return total / float(input.shape[0]) if input.ndim > 0 else total
    return KLDivLoss(reduction, log_target).apply(input, label)


def sigmoid_focal_loss(
    logit: Tensor,
    label: Tensor,
    normalizer: Tensor | None = None,
    alpha: float = 0.25,
    gamma: float = 2.0,
    reduction: str = "sum",
    name: str | None = None,
) -> Tensor:
    """Focal loss `alpha_t (1 - p_t)^gamma * BCE(logit, label)` for dense detection
    (Lin et al. 2017), divided by `normalizer` (e.g. the number of positives) when given.
    Note Paddle's default reduction here is 'sum'."""
    check_reduction(reduction, "sigmoid_focal_loss")
    logit, label = amp_cast("sigmoid_focal_loss", logit, _as_label(label, logit))
    loss = BCEWithLogitsLoss("none", None).apply(logit, label)
    p = sigmoid(logit)
    p_t = p * label + (1.0 - p) * (1.0 - label)
    alpha_t = label * alpha + (1.0 - label) * (1.0 - alpha)
    loss = alpha_t * loss * (1.0 - p_t) ** gamma
    if normalizer is not None:
        loss = loss / normalizer
    return _apply_weight(loss, None, reduction)


def log_loss(input: Tensor, label: Tensor, epsilon: float = 1e-4, name: str | None = None):
    """`-label log(input + eps) - (1 - label) log(1 - input + eps)`, elementwise."""
    label = _as_label(label, input)
    return -label * (input + epsilon).log() - (1.0 - label) * (1.0 - input + epsilon).log()


def label_smooth(
    label: Tensor, prior_dist: Tensor | None = None, epsilon: float = 0.1, name: str | None = None
) -> Tensor:
    """`(1 - epsilon) * label + epsilon * prior`, with a uniform prior over the last axis by
    default. `label` is typically one-hot, `[N, C]` or `[N, T, C]`."""
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
    smoothed = label * (1.0 - epsilon)
    if prior_dist is None:
        return smoothed + epsilon / label.shape[-1]
    return smoothed + prior_dist * epsilon
