"""Likelihood losses, as in `paddle.nn.functional`: poisson_nll_loss and gaussian_nll_loss.

Composed from differentiable ops, so every order of gradient exists.
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.functional.loss_terms import check_reduction


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def poisson_nll_loss(
    input: Tensor,
    label: Tensor,
    log_input: bool = True,
    full: bool = False,
    epsilon: float = 1e-8,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The Poisson negative log-likelihood, as `paddle.nn.functional.poisson_nll_loss`.

    Negative log-likelihood of `label ~ Poisson(rate)`: `exp(input) - label * input` with
    `log_input=True` (input is the log-rate), else `input - label * log(input + epsilon)`.
    `full=True` adds Stirling's term `label log(label) - label + log(2 pi label) / 2` where
    `label > 1`.

    Args:
        input (Tensor): log-rates (rates with `log_input=False`), any shape; float32 or float64.
        label (Tensor): counts, the shape of `input`.
        log_input (bool, optional): `input` is the log of the rate. Default: True.
        full (bool, optional): add Stirling's term. Default: False.
        epsilon (float, optional): keeps the log finite. Default: 1e-08.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> log_rate, counts = paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([1.0, 3.0])
        >>> print(F.poisson_nll_loss(log_rate, counts, reduction='none'))
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [ 1.        , -0.28171802])
    """
    check_reduction(reduction, "poisson_nll_loss")
    if input.shape != label.shape:
        raise ValueError(f"input's shape {input.shape} must equal label's shape {label.shape}")
    if log_input:
        loss = input.exp() - label * input
    else:
        loss = input - label * (input + epsilon).log()
    if full:
        xp = get_array_module(label._data)
        y = label._data.astype(input.dtype, copy=False)
        above = y > 1
        safe = xp.where(above, y, 1)
        stirling = xp.where(above, safe * xp.log(safe) - safe + 0.5 * xp.log(2 * math.pi * safe), 0)
        loss = loss + Tensor._wrap(stirling.astype(input.dtype, copy=False))
    return _reduce(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,
    label: Tensor,
    variance: Tensor,
    full: bool = False,
    epsilon: float = 1e-6,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """The Gaussian negative log-likelihood, as `paddle.nn.functional.gaussian_nll_loss`.

    Negative log-likelihood of `label ~ N(input, variance)`:
    `(log(variance) + (input - label)^2 / variance) / 2` (+ `log(2 pi) / 2` with `full`).

    `variance` has the input's shape, or it without the last axis (one variance per sample),
    or anything that broadcasts; values below `epsilon` are raised to it for stability (the
    gradient still reaches `variance`).

    Args:
        input (Tensor): the predicted means, `[N, *]`; float32 or float64.
        label (Tensor): the targets, the shape of `input`.
        variance (Tensor): positive, the shape of `input` or broadcast with it.
        full (bool, optional): add the constant `log(2 pi) / 2`. Default: False.
        epsilon (float, optional): the smallest variance used. Default: 1e-06.
        reduction (str, optional): 'mean', 'sum' or 'none'. Default: 'mean'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: a scalar for 'mean' and 'sum', else the shape of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> mean, label = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.5, 2.0])
        >>> print(F.gaussian_nll_loss(mean, label, paddle.to_tensor([1.0, 0.5])))
        Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,
               -0.11078680)
    """
    check_reduction(reduction, "gaussian_nll_loss")
    xp = get_array_module(variance._data)
    if bool((variance._data < 0).any()):
        raise ValueError("variance has negative entry/entries")
    if variance.shape != input.shape and variance.shape == input.shape[:-1]:
        variance = variance.unsqueeze(-1)
    lifted = xp.maximum(variance._data, epsilon) - variance._data
    if bool((lifted != 0).any()):
        variance = variance + Tensor._wrap(lifted.astype(variance.dtype, copy=False))
    loss = (variance.log() + (input - label) ** 2 / variance) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)
