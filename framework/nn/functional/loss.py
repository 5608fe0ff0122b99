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
    """The mean squared error, as `paddle.nn.functional.mse_loss`.

    Mean squared error `(input - label)^2`, reduced by 'mean' (default), 'sum' or 'none'.

    Args:
        input (Tensor): predictions, any shape; float32 or float64.
        label (Tensor): targets, the shape and dtype of `input`.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else the shape of `input`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0])
        >>> y = paddle.to_tensor([1.0, 0.0, 5.0])
        >>> print(F.mse_loss(x, y))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               2.66666675)
        >>> print(F.mse_loss(x, y, reduction='none'))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 4., 4.])
    """
    check_reduction(reduction, "MSELoss")
    return MSELoss(reduction).apply(*amp_cast("mse_loss", input, _as_label(label, input)))


def square_error_cost(input: Tensor, label: Tensor) -> Tensor:
    """The squared error, as `paddle.nn.functional.square_error_cost`.

    `(input - label)^2`, elementwise (no reduction).

    Args:
        input (Tensor): predictions, any shape; float32 or float64.
        label (Tensor): targets, the shape and dtype of `input`.

    Returns:
        Tensor: `(input - label)^2`, the shape and dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.square_error_cost(paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([2.0, 0.0])))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [1., 9.])
    """
    return MSELoss("none").apply(*amp_cast("mse_loss", input, _as_label(label, input)))


def l1_loss(input: Tensor, label: Tensor, reduction: str = "mean", name: str | None = None):
    """The mean absolute error, as `paddle.nn.functional.l1_loss`.

    Mean absolute error `|input - label|`, reduced by 'mean', 'sum' or 'none'. Complex inputs
    give a real loss (float32 for complex64), as in Paddle, built from `abs` so that the gradient
    is the complex sign `r / |r|`.

    Args:
        input (Tensor): predictions, any shape; float32 or float64.
        label (Tensor): targets, the shape and dtype of `input`.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else the shape of `input`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0])
        >>> y = paddle.to_tensor([1.0, 0.0, 5.0])
        >>> print(F.l1_loss(x, y))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               1.33333337)
        >>> print(F.l1_loss(x, y, reduction='sum'))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               4.)
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
    """The smooth L1 (Huber) loss, as `paddle.nn.functional.smooth_l1_loss`.

    Paddle's smooth L1 (Huber) loss: `0.5 r^2` where `|r| <= delta`, else
    `delta * (|r| - 0.5 delta)`, with `r = input - label`; `is_huber=False` divides by delta
    (PyTorch's SmoothL1Loss with `beta=delta`).

    Args:
        input (Tensor): predictions, any shape; float32 or float64.
        label (Tensor): targets, the shape and dtype of `input`.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        delta (float, optional): where the loss turns linear. Default: 1.0.
        is_huber (bool, optional): False divides by `delta`. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else the shape of `input`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([0.5, 2.0, -3.0])
        >>> y = paddle.to_tensor([0.0, 0.0, 0.0])
        >>> print(F.smooth_l1_loss(x, y, reduction='none'))
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0.12500000, 1.50000000, 2.50000000])
    """
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
    """Binary cross-entropy on probabilities, as `paddle.nn.functional.binary_cross_entropy`.

    `-(label log(input) + (1 - label) log(1 - input))` on probabilities in [0, 1], with each
    log clamped at -100 as Paddle does; `weight` rescales each element.

    Args:
        input (Tensor): probabilities in [0, 1], any shape; float32 or float64.
        label (Tensor): targets, the shape and dtype of `input`.
        weight (Tensor, optional): rescales each element, broadcast with `input`. Default: None.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else the shape of `input`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> p = paddle.to_tensor([0.9, 0.2, 0.6])
        >>> y = paddle.to_tensor([1.0, 0.0, 1.0])
        >>> print(F.binary_cross_entropy(p, y))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.27977657)
    """
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
    """Binary cross-entropy on logits, as `paddle.nn.functional.binary_cross_entropy_with_logits`.

    Sigmoid plus binary cross-entropy in one stable step. `pos_weight` (one per class,
    broadcast over the last axis) weights the positive term; `weight` rescales each element.

    Args:
        logit (Tensor): raw scores, any shape; float32 or float64.
        label (Tensor): targets in [0, 1], the shape and dtype of `logit`.
        weight (Tensor, optional): rescales each element, broadcast with `input`. Default: None.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        pos_weight (Tensor, optional): `[C]`, weights the positive term per class. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `logit`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> z = paddle.to_tensor([2.0, -1.0, 0.5])
        >>> y = paddle.to_tensor([1.0, 0.0, 1.0])
        >>> print(F.binary_cross_entropy_with_logits(z, y))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.30475557)
        >>> print(F.binary_cross_entropy_with_logits(z, y, pos_weight=paddle.to_tensor([2.0])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.50509053)
    """
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
    """The Kullback-Leibler divergence, as `paddle.nn.functional.kl_div`.

    Kullback-Leibler divergence `label * (log(label) - input)` where `input` holds
    log-probabilities (and `label` log-probabilities too when `log_target=True`).
    `reduction` is 'mean' (over all elements), 'batchmean' (sum / batch size), 'sum' or 'none'.

    Args:
        input (Tensor): log-probabilities, any shape; float32 or float64.
        label (Tensor): probabilities (log-probabilities with `log_target`), the shape of `input`.
        reduction (str, optional): 'mean', 'batchmean', 'sum' or 'none'. Default: 'mean'.
        log_target (bool, optional): `label` holds log-probabilities. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar (shape `[]`) for 'mean' and 'sum', else the shape of `input`; its dtype.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> logp = paddle.log(paddle.to_tensor([[0.25, 0.75]]))
        >>> q = paddle.to_tensor([[0.5, 0.5]])
        >>> print(F.kl_div(logp, q, reduction='batchmean'))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.14384104)
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
    """The sigmoid focal loss, as `paddle.nn.functional.sigmoid_focal_loss`.

    Focal loss `alpha_t (1 - p_t)^gamma * BCE(logit, label)` for dense detection
    (Lin et al. 2017), divided by `normalizer` (e.g. the number of positives) when given.
    Note Paddle's default reduction here is 'sum'.

    Args:
        logit (Tensor): raw scores, `[N, *]`; float32 or float64.
        label (Tensor): 0/1 targets, the shape and dtype of `logit`.
        normalizer (Tensor, optional): `[1]`, e.g. the number of positives, divides the loss.
            Default: None.
        alpha (float, optional): the positives' weight. Default: 0.25.
        gamma (float, optional): the focusing exponent. Default: 2.0.
        reduction (str, optional): 'sum', 'mean' or 'none'. Default: 'sum'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'sum' and 'mean', else the shape of `logit`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> z = paddle.to_tensor([[2.0, -1.0], [0.5, -3.0]])
        >>> y = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> print(F.sigmoid_focal_loss(z, y))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               0.99207330)
    """
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
    """The log loss, as `paddle.nn.functional.log_loss`.

    `-label log(input + eps) - (1 - label) log(1 - input + eps)`, elementwise.

    Args:
        input (Tensor): probabilities, `[N, 1]`; float32 or float64.
        label (Tensor): 0/1 targets, `[N, 1]`, the dtype of `input`.
        epsilon (float, optional): keeps the logs finite. Default: 0.0001.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the elementwise loss, `[N, 1]`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.log_loss(paddle.to_tensor([[0.9], [0.2]]), paddle.to_tensor([[1.0], [0.0]])))
        Tensor(shape=[2, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.10524942],
                [0.22301853]])
    """
    label = _as_label(label, input)
    return -label * (input + epsilon).log() - (1.0 - label) * (1.0 - input + epsilon).log()


def label_smooth(
    label: Tensor, prior_dist: Tensor | None = None, epsilon: float = 0.1, name: str | None = None
) -> Tensor:
    """Label smoothing, as `paddle.nn.functional.label_smooth`.

    `(1 - epsilon) * label + epsilon * prior`, with a uniform prior over the last axis by
    default. `label` is typically one-hot, `[N, C]` or `[N, T, C]`.

    Args:
        label (Tensor): one-hot targets, `[N, C]` or `[N, T, C]`; float32 or float64.
        prior_dist (Tensor, optional): `[1, C]`, the prior mixed in; uniform when None. Default:
            None.
        epsilon (float, optional): the mixing weight, in [0, 1]. Default: 0.1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `label`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.label_smooth(paddle.to_tensor([[0.0, 1.0, 0.0]]), epsilon=0.3))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0.10000000, 0.80000001, 0.10000000]])
    """
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
    smoothed = label * (1.0 - epsilon)
    if prior_dist is None:
        return smoothed + epsilon / label.shape[-1]
    return smoothed + prior_dist * epsilon
