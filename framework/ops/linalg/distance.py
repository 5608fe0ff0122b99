"""Distances between points: cdist, pdist, dist; and renorm, which caps sub-tensor norms.

Compositions of subtraction, indexing and `vector_norm`, whose gradient is zero at a zero
distance (as in PyTorch), so coincident points do not give NaN.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.linalg.norm import vector_norm
from framework.ops.manipulation.indexing import getitem
from framework.ops.manipulation.where import where

_CDIST_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


def _check_p(p: float, op: str) -> None:
    # A negative p is no norm; NumPy would divide by zero on coincident points.
    if p < 0:
        raise ValueError(f"{op}: p must be >= 0, got {p}")


def cdist(
    x: Tensor,
    y: Tensor,
    p: float = 2.0,
    compute_mode: str = "use_mm_for_euclid_dist_if_necessary",
    name: str | None = None,
) -> Tensor:
    """The p-norm distance between each row of `x [*, P, M]` and each row of `y [*, R, M]`:
    `[*, P, R]` (batch dims broadcast). Computed from the differences whatever
    `compute_mode` says, which is exact and costs `P * R * M` memory. Floating inputs only
    (an integer one is a TypeError); p = 0 counts differing coordinates, p = inf takes the
    largest difference.

        framework.cdist(framework.to_tensor([[0.0, 0.0]]), framework.to_tensor([[3.0, 4.0]]))
        # [[5.]]
    """
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"cdist: compute_mode must be one of {_CDIST_MODES}")
    if x._data.ndim < 2 or y._data.ndim < 2 or x._data.shape[-1] != y._data.shape[-1]:
        raise ValueError(f"cdist: needs [*, P, M] and [*, R, M], got {x.shape} and {y.shape}")
    _check_p(p, "cdist")
    differences = x.unsqueeze(-2) - y.unsqueeze(-3)
    return vector_norm(differences, p, axis=-1)


def pdist(x: Tensor, p: float = 2.0, name: str | None = None) -> Tensor:
    """The p-norm distances between all pairs of rows `i < j` of `x [N, M]`, in row-major
    order of the pairs: `[N * (N - 1) / 2]`, dtype of `x` (floating).

        framework.pdist(framework.to_tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
        # [5., 1., 4.2426405]
    """
    if x._data.ndim != 2:
        raise ValueError(f"pdist: x must be [N, M], got {x.shape}")
    _check_p(p, "pdist")
    xp = get_array_module(x._data)
    i, j = xp.triu_indices(x._data.shape[0], 1)
    return vector_norm(getitem(x, Tensor._wrap(i)) - getitem(x, Tensor._wrap(j)), p, axis=-1)


def dist(x: Tensor, y: Tensor, p: float = 2, name: str | None = None) -> Tensor:
    """The p-norm of `x - y` (broadcast) over all elements, as a 0-D tensor; p = 0 counts the
    differing elements, p = inf / -inf take the largest / smallest difference. Floating
    inputs; the result has their (promoted) dtype.

        framework.dist(framework.to_tensor([3.0, 4.0]), framework.to_tensor(0.0))   # 5.0
    """
    x, y = as_operands(x, y)
    return vector_norm(x - y, float(p))


def renorm(x: Tensor, p: float, axis: int, max_norm: float) -> Tensor:
    """`x` with each slice along `axis` whose p-norm exceeds `max_norm` scaled down to it
    (by `max_norm / (norm + 1e-7)`, as Paddle and PyTorch). Same shape and dtype as `x`.

        framework.renorm(framework.to_tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        # [[0.6, 0.8], [0.3, 0.4]]
    """
    ndim = x._data.ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"renorm: axis {axis} is out of range for {ndim} dims")
    others = [i for i in range(ndim) if i != axis % ndim]
    norms = vector_norm(x, p, axis=others, keepdim=True)
    scale = where(norms > max_norm, max_norm / (norms + 1e-7), norms * 0 + 1)
    return x * scale
