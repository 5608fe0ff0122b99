"""Products of Householder reflections, as LAPACK's geqrf stores them: householder_product
(orgqr) and ormqr.

Reflection `i` is `H_i = I - tau_i w_i w_i^T`, where `w_i` is column `i` of `x` below the
diagonal with a 1 on it. Each is applied as a rank-1 update, never formed; the ops are
compositions, differentiable in `x`, `tau` and `y`.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_matrix, check_same_dtype
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.manipulation.triangular import tril


def _reflectors(x: Tensor, k: int) -> Tensor:
    """The vectors `w_i` as the columns of `[*, m, k]`."""
    xp = get_array_module(x._data)
    m = x._data.shape[-2]
    return tril(x[..., :k], -1) + Tensor._wrap(xp.eye(m, k, dtype=x._data.dtype))


def _reflect(w: Tensor, tau: Tensor, i: int, c: Tensor) -> Tensor:
    """`H_i c` for `c [*, m, p]`."""
    wi = w[..., i : i + 1]  # [*, m, 1]
    return c - wi * (tau[..., i : i + 1].unsqueeze(-1) * matmul(mT(wi), c))


def _check(x: Tensor, tau: Tensor, op: str) -> int:
    check_matrix(x, op)
    check_same_dtype(x, tau, op)
    k = tau._data.shape[-1] if tau._data.ndim else 0
    if tau._data.ndim < 1 or k > min(x._data.shape[-2:]):
        raise ValueError(
            f"{op}: tau must be [*, k] with k <= min(m, n) of {x.shape}, got {tau.shape}"
        )
    return k


def householder_product(x: Tensor, tau: Tensor, name: str | None = None) -> Tensor:
    """The first `n` columns of `Q = H_1 H_2 ... H_k`, from reflectors stored in
    `x [*, m, n]` (`m >= n`) and `tau [*, k]`: the `Q` of a QR decomposition in LAPACK's form.
    Returns `[*, m, n]` in the dtype of `x`.

        q = framework.linalg.householder_product(x, tau)   # x: [4, 3], tau: [3] -> [4, 3]
    """
    k = _check(x, tau, "householder_product")
    m, n = x._data.shape[-2:]
    if m < n:
        raise ValueError(f"householder_product: x must have m >= n, got {x.shape}")
    xp = get_array_module(x._data)
    w = _reflectors(x, k)
    eye = xp.broadcast_to(xp.eye(m, n, dtype=x._data.dtype), x._data.shape[:-2] + (m, n))
    q = Tensor._wrap(eye.copy())
    for i in reversed(range(k)):
        q = _reflect(w, tau, i, q)
    return q


def ormqr(
    x: Tensor,
    tau: Tensor,
    y: Tensor,
    left: bool = True,
    transpose: bool = False,
    name: str | None = None,
) -> Tensor:
    """`op(Q) @ y` (`left`) or `y @ op(Q)`, with `Q = householder_product(x, tau)` (`[*, mn, k]`
    from reflectors `x [*, mn, k]`, `tau [*, k]`) and `op(Q) = Q^T` when `transpose`: Paddle's
    definition, which for square `x` is LAPACK's ormqr. `y` must chain with `op(Q)`; the
    result has the dtype of `y`.

        out = framework.linalg.ormqr(x, tau, y)   # x, y: [3, 3], tau: [3] -> [3, 3]
    """
    check_same_dtype(x, y, "ormqr")
    if tau._data.shape[-1:] != x._data.shape[-1:]:
        raise ValueError(f"ormqr: tau {tau.shape} must have the last dim of x {x.shape}")
    q = householder_product(x, tau)
    op_q = mT(q) if transpose else q
    return matmul(op_q, y) if left else matmul(y, op_q)
