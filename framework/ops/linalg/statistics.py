"""Covariance and correlation matrices: cov, corrcoef (NumPy's definitions, as Paddle's)."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_float
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.where import clip


def _observations(x: Tensor, rowvar: bool, op: str) -> Tensor:
    """`x` as `[variables, observations]`."""
    check_float(x, op)
    if x._data.ndim > 2:
        raise ValueError(f"{op}: expects a 1-D or 2-D tensor, got shape {x.shape}")
    if x._data.ndim < 2:
        return Reshape((1, -1)).apply(x)
    return x if rowvar else x.t()


def cov(
    x: Tensor,
    rowvar: bool = True,
    ddof: bool = True,
    fweights: Tensor | None = None,
    aweights: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The covariance matrix of the variables in `x`: rows are variables and columns
    observations (`rowvar=False` swaps them). `[v, n]` gives `[v, v]`; a 1-D `x` gives a 0-D
    variance. `ddof=True` divides by `n - 1`; `fweights` (int counts) and `aweights`
    (float weights), both `[n]`, weight the observations as in NumPy.

        framework.linalg.cov(framework.to_tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        # [[1, -1], [-1, 1]]
    """
    obs = _observations(x, rowvar, "cov")
    n = obs._data.shape[1]
    weights = None
    for w, what in ((fweights, "fweights"), (aweights, "aweights")):
        if w is None:
            continue
        if w._data.ndim != 1 or w._data.shape[0] != n:
            raise ValueError(f"cov: {what} must be [{n}] for {n} observations, got {w.shape}")
        if what == "fweights" and w._data.dtype.kind not in "iu":
            raise TypeError(f"cov: fweights must be integers, got {w.dtype}")
        if bool((w._data < 0).any()):
            raise ValueError(f"cov: {what} must be non-negative")
        w = w.astype(obs.dtype)
        weights = w if weights is None else weights * w
    if weights is None:
        total = float(n)
        mean = obs.mean(axis=1, keepdim=True)
        fact = total - 1 if ddof else total
        centered = obs - mean
        out = matmul(centered, centered, transpose_y=True) / fact
    else:
        total = weights.sum()
        mean = (obs * weights).sum(axis=1, keepdim=True) / total
        if not ddof:
            fact = total
        elif aweights is None:
            fact = total - 1
        else:
            fact = total - (weights * aweights.astype(obs.dtype)).sum() / total
        centered = obs - mean
        out = matmul(centered * weights, centered, transpose_y=True) / fact
    return Reshape(()).apply(out) if x._data.ndim < 2 else out


def corrcoef(x: Tensor, rowvar: bool = True, name: str | None = None) -> Tensor:
    """Pearson correlation coefficients of the variables in `x` (rows, or columns when
    `rowvar=False`): `[v, n]` gives `[v, v]`, clipped to [-1, 1].

        framework.linalg.corrcoef(framework.to_tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]]))
    """
    c = cov(x, rowvar)
    if c._data.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    return clip(c / std.unsqueeze(1) / std.unsqueeze(0), -1.0, 1.0)
