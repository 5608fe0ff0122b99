"""Order statistics: quantile, nanquantile, median, nanmedian.

The data are sorted once to decide, for every output, which one or two input elements it
interpolates between and with what weights (the "plan"). The op is then linear in the input
with those weights fixed: `GatherPlanned` picks and weighs, and its backward `ScatterPlanned`
sends the gradient back to exactly those elements; each is the other's backward, so every order
of derivative is right (the second derivative is zero, as for a piecewise-linear function).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.math.promotion import as_float
from framework.ops.reduction.axes import normalize_axes, reduced_shape

_INTERPOLATIONS = ("linear", "lower", "higher", "nearest", "midpoint")


@dataclass(frozen=True)
class _Plan:
    order: tuple[int, ...]  # transpose putting the reduced axes last
    moved_shape: tuple[int, ...]  # the input's shape after that transpose
    columns: int  # elements per group (the product of the reduced dims)
    low: object  # (Q, R) column of the lower element of each output, in the input's order
    high: object  # (Q, R) column of the upper element
    low_weight: object  # (Q, R)
    high_weight: object  # (Q, R)
    undefined: object  # (R,) rows whose result is nan (nan in the data, or nothing to take)
    out_shape: tuple[int, ...]


def _make_plan(data, axes, keepdim, qs: np.ndarray, interpolation: str, skip_nan: bool, scalar_q):
    xp = get_array_module(data)
    rest = tuple(i for i in range(data.ndim) if i not in axes)
    order = rest + axes
    moved = data.transpose(order)
    moved_shape = moved.shape
    n = _size(moved_shape[len(rest) :])
    rows = moved.reshape(_size(moved_shape[: len(rest)]), n)
    nans = xp.isnan(rows) if rows.dtype.kind == "f" else xp.zeros(rows.shape, dtype=bool)
    counts = n - nans.sum(axis=1) if skip_nan else xp.full(rows.shape[0], n)
    undefined = (counts == 0) if skip_nan else (nans.any(axis=1) | (n == 0))
    ranks = xp.argsort(rows, axis=1, kind="stable")  # nan sorts last
    q = xp.asarray(qs, dtype=np.float64)[:, None]
    position = q * xp.maximum(counts - 1, 0)[None, :]
    below = xp.floor(position)
    above = xp.ceil(position)
    fraction = position - below
    if interpolation == "lower":
        above, fraction = below, xp.zeros_like(fraction)
    elif interpolation == "higher":
        below, fraction = above, xp.zeros_like(fraction)
    elif interpolation == "nearest":
        below = above = xp.round(position)
        fraction = xp.zeros_like(fraction)
    elif interpolation == "midpoint":
        fraction = xp.where(above > below, 0.5, 0.0)
    row_index = xp.arange(rows.shape[0])[None, :]
    last = max(n - 1, 0)
    low = ranks[row_index, xp.clip(below, 0, last).astype(np.int64)] if n else below.astype(int)
    high = ranks[row_index, xp.clip(above, 0, last).astype(np.int64)] if n else low
    keep = xp.logical_not(undefined)[None, :]
    out_shape = reduced_shape(data.shape, axes, keepdim)
    if not scalar_q:
        out_shape = (len(qs),) + out_shape
    return _Plan(
        order,
        moved_shape,
        n,
        low,
        high,
        ((1.0 - fraction) * keep).astype(data.dtype),
        (fraction * keep).astype(data.dtype),
        undefined,
        out_shape,
    )


def _size(shape: Sequence[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


class GatherPlanned(Function):
    """out = w_low * x[low] + w_high * x[high] (nan where the plan says undefined)."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan

    def forward(self, x):
        plan = self.plan
        xp = get_array_module(x)
        rows = x.transpose(plan.order).reshape(plan.low.shape[1], plan.columns)
        index = xp.arange(rows.shape[0])[None, :]
        if rows.shape[1]:
            out = (
                rows[index, plan.low] * plan.low_weight + rows[index, plan.high] * plan.high_weight
            )
        else:
            out = xp.zeros(plan.low.shape, dtype=x.dtype)
        out = xp.where(plan.undefined[None, :], xp.asarray(np.nan, dtype=x.dtype), out)
        return out.reshape(plan.out_shape)

    def backward(self, gy: Tensor) -> Tensor:
        return ScatterPlanned(self.plan).apply(gy)


class ScatterPlanned(Function):
    """The adjoint of `GatherPlanned`: each output's gradient goes to its one or two inputs."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan

    def forward(self, gy):
        plan = self.plan
        xp = get_array_module(gy)
        n_rows = plan.low.shape[1]
        g = gy.reshape(plan.low.shape)
        buffer = xp.zeros((n_rows, plan.columns), dtype=gy.dtype)
        if buffer.size:
            index = xp.arange(n_rows)
            # One quantile at a time: within one, each row gets one low and one high index, so
            # the in-place adds never collide.
            for k in range(g.shape[0]):
                buffer[index, plan.low[k]] += g[k] * plan.low_weight[k]
                buffer[index, plan.high[k]] += g[k] * plan.high_weight[k]
        inverse = np.argsort(plan.order)
        return buffer.reshape(plan.moved_shape).transpose(tuple(inverse))

    def backward(self, g: Tensor) -> Tensor:
        return GatherPlanned(self.plan).apply(g)


def _quantile(x: Tensor, q, axis, keepdim: bool, interpolation: str, skip_nan: bool):
    """The quantile tensor and its plan."""
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"interpolation must be one of {_INTERPOLATIONS}, got {interpolation!r}")
    scalar_q = isinstance(q, int | float) or (isinstance(q, Tensor) and q.ndim == 0)
    qs = np.atleast_1d(np.asarray(q.numpy() if isinstance(q, Tensor) else q, dtype=np.float64))
    if qs.ndim != 1 or ((qs < 0) | (qs > 1)).any():
        raise ValueError(f"q must be a number or a 1-D list of numbers in [0, 1], got {q!r}")
    x = as_float(x)
    axes = normalize_axes(axis, x._data.ndim)
    plan = _make_plan(x._data, axes, bool(keepdim), qs, interpolation, skip_nan, scalar_q)
    return GatherPlanned(plan).apply(x), plan


def quantile(
    x: Tensor,
    q: float | Sequence[float] | Tensor,
    axis: int | list[int] | None = None,
    keepdim: bool = False,
    interpolation: str = "linear",
    name: str | None = None,
) -> Tensor:
    """The `q`-th quantile(s) over `axis` (None: all elements), as `numpy.quantile`.

    `q` is a number in [0, 1] or a list of them; a list puts one leading output dim per
    quantile. `interpolation`: 'linear', 'lower', 'higher', 'nearest' or 'midpoint'. A group
    that contains nan gives nan. The gradient goes to the one or two elements interpolated.

        x = framework.to_tensor([[1.0, 2.0, 3.0, 4.0]])
        framework.quantile(x, 0.5, axis=1)          # [2.5]
        framework.quantile(x, [0.25, 0.75], axis=1) # [[1.75], [3.25]]
    """
    return _quantile(x, q, axis, keepdim, interpolation, skip_nan=False)[0]


def nanquantile(
    x: Tensor,
    q: float | Sequence[float] | Tensor,
    axis: int | list[int] | None = None,
    keepdim: bool = False,
    interpolation: str = "linear",
    name: str | None = None,
) -> Tensor:
    """`quantile` ignoring nan elements (nan where a group is all nan)."""
    return _quantile(x, q, axis, keepdim, interpolation, skip_nan=True)[0]


def _median(x: Tensor, axis, keepdim: bool, mode: str, skip_nan: bool):
    if mode == "avg":
        return _quantile(x, 0.5, axis, keepdim, "linear", skip_nan)[0]
    if mode != "min":
        raise ValueError(f"mode must be 'avg' or 'min', got {mode!r}")
    if x._data.dtype.kind in "iub" and x._data.size:
        values, plan = _lower_median_exact(x, axis, keepdim)
    else:
        values, plan = _quantile(x, 0.5, axis, keepdim, "lower", skip_nan)
    if axis is None or isinstance(axis, list | tuple):
        return values  # as Paddle: the index comes only with one int axis
    # Paddle also returns where the lower median sits along the axis: the plan's column.
    index = plan.low[0].reshape(values._data.shape).astype(dtypes.int64)
    return values, Tensor._wrap(index)


def _lower_median_exact(x: Tensor, axis, keepdim: bool):
    """mode='min' of an integer tensor: the element itself, in x's dtype (Paddle keeps int64;
    going through float32 would also round values past 2**24). Integers have no nan."""
    data = x._data
    axes = normalize_axes(axis, data.ndim)
    plan = _make_plan(data, axes, bool(keepdim), np.array([0.5]), "lower", False, True)
    xp = get_array_module(data)
    rows = data.transpose(plan.order).reshape(plan.low.shape[1], plan.columns)
    picked = rows[xp.arange(rows.shape[0])[None, :], plan.low]
    return Tensor._wrap(picked.reshape(plan.out_shape)), plan


def median(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
):
    """The median over `axis` (None: all elements).

    `mode='avg'` averages the two middle elements of an even-sized group (float32 for integer
    input); `mode='min'` takes the lower one, in x's dtype, and, when `axis` is given, also
    returns its index (int64), as Paddle does.

        framework.median(framework.to_tensor([3.0, 1.0, 2.0, 4.0]))  # 2.5
    """
    return _median(x, axis, keepdim, mode, skip_nan=False)


def nanmedian(
    x: Tensor,
    axis: int | None = None,
    keepdim: bool = False,
    mode: str = "avg",
    name: str | None = None,
):
    """`median` ignoring nan elements (nan where a group is all nan)."""
    return _median(x, axis, keepdim, mode, skip_nan=True)
