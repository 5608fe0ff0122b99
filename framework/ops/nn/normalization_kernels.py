"""Normalization array kernels: `y = (x - mean) * invstd * gamma + beta` and its derivatives.

Statistics reduce `axes` of an array (kept as size-1 dims); `gamma`/`beta` are already shaped
to broadcast against it and their gradients sum over `param_axes`. With `fixed` statistics
(batch norm in eval mode) mean and invstd are constants. The formulas are general; batch norm's
hot path has its own cache-blocked kernels in `batch_norm_kernels`.

Double backward: with `a`, `b`, `c` the gradients flowing into (gx, ggamma, gbeta) and
`h = gy * gamma`, writing `m(.)` for the mean over `axes` and `S(.)` for the sum:
    D   = invstd * (a - m(a) - xhat * m(a * xhat))
    dgy = D * gamma + b * xhat + c,      dgamma = S_params(D * gy)
    u   = -invstd * (h * S(a * xhat) + a * S(h * xhat)) / M + b * gy
    dx  = invstd * (u - m(u) - xhat * m(u * xhat))
          - invstd^2 * xhat * (S(a * h) - S(a) * S(h) / M - S(h * xhat) * S(a * xhat) / M) / M
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module


def count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[a] for a in axes)


def moments(x, axes: tuple[int, ...], eps: float):
    """Mean and `1/sqrt(var + eps)` over `axes` (biased variance), kept as size-1 dims."""
    xp = get_array_module(x)
    mean = x.mean(axis=axes, keepdims=True)
    centered = x - mean
    centered *= centered
    var = centered.mean(axis=axes, keepdims=True)
    return mean, 1.0 / xp.sqrt(var + x.dtype.type(eps)), var


def forward(x, gamma, beta, mean, invstd):
    y = (x - mean) * invstd
    if gamma is not None:
        y *= gamma
    if beta is not None:
        y += beta
    return y


def backward(x, gamma, gy, mean, invstd, axes, param_axes, fixed: bool):
    """Returns (gx, ggamma, gbeta); ggamma and gbeta keep their broadcast shape."""
    xhat = (x - mean) * invstd
    ggamma = (gy * xhat).sum(axis=param_axes, keepdims=True)
    gbeta = gy.sum(axis=param_axes, keepdims=True)
    h = gy if gamma is None else gy * gamma
    if fixed:
        return h * invstd, ggamma, gbeta
    gx = h - h.mean(axis=axes, keepdims=True)
    gx -= xhat * (h * xhat).mean(axis=axes, keepdims=True)
    gx *= invstd
    return gx, ggamma, gbeta


def double_backward(x, gamma, gy, mean, invstd, a, b, c, axes, param_axes, fixed: bool):
    """Gradients of `<a, gx> + <b, ggamma> + <c, gbeta>` in (x, gamma, gy); any of a, b, c may
    be None (zero). Returns (dx, dgamma, dgy)."""
    xhat = (x - mean) * invstd
    one = 1.0 if gamma is None else gamma
    h = gy * one
    dgy = 0.0
    dx = 0.0
    dgamma = None
    if a is not None:
        if fixed:
            d = a * invstd
        else:
            d = a - a.mean(axis=axes, keepdims=True)
            d -= xhat * (a * xhat).mean(axis=axes, keepdims=True)
            d *= invstd
        dgy = d * one
        dgamma = (d * gy).sum(axis=param_axes, keepdims=True)
        if not fixed:
            m = count(x.shape, axes)
            s_ax = (a * xhat).sum(axis=axes, keepdims=True)
            s_hx = (h * xhat).sum(axis=axes, keepdims=True)
            k = (a * h).sum(axis=axes, keepdims=True)
            k -= a.sum(axis=axes, keepdims=True) * h.sum(axis=axes, keepdims=True) / m
            k -= s_hx * s_ax / m
            u = -(h * s_ax + a * s_hx) * (invstd / m)
            dx = -(invstd * invstd / m) * xhat * k + _project(u, xhat, invstd, axes)
    if b is not None:
        dgy = dgy + b * xhat
        term = b * gy * invstd
        dx = dx + (term if fixed else _project(b * gy, xhat, invstd, axes))
    if c is not None:
        dgy = dgy + c
    xp = get_array_module(x)
    dx = xp.zeros_like(x) + dx
    dgy = xp.zeros_like(gy) + dgy
    return dx, dgamma, dgy


def _project(u, xhat, invstd, axes):
    """`invstd * (u - m(u) - xhat * m(u * xhat))`: u pulled back through xhat(x)."""
    out = u - u.mean(axis=axes, keepdims=True)
    out -= xhat * (u * xhat).mean(axis=axes, keepdims=True)
    return out * invstd
