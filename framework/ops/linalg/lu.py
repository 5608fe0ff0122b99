"""LU factorisation with partial pivoting: lu, lu_unpack, lu_solve.

NumPy has no LU, so `_factor` runs LAPACK's getrf algorithm (right-looking, partial pivoting
on the largest magnitude, first one on ties) on the whole batch at once: one vectorised rank-1
update per column. Results are packed as LAPACK packs them: `L` (unit diagonal, not stored)
below the diagonal, `U` on and above it, 1-based int32 pivots.

`LU.backward` is the published gradient (PyTorch's `linalg_lu_backward`) for square, wide and
tall matrices, written with differentiable ops.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_matrix, check_same_dtype
from framework.ops.linalg.solve import TriangularSolve
from framework.ops.manipulation.join import concat
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.manipulation.triangular import tril, triu


def _factor(xp, a, pivot: bool):
    """Packed LU of `a [*, m, n]`, 1-based pivots `[*, k]` and infos `[*]` (the 1-based
    column of the first zero pivot, 0 when there is none)."""
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    lu = a.reshape((-1, m, n)).copy()
    count = lu.shape[0]
    rows = xp.arange(count)
    pivots = xp.empty((count, k), dtype=xp.int32)
    infos = xp.zeros(count, dtype=xp.int32)
    for j in range(k):
        p = xp.argmax(xp.abs(lu[:, j:, j]), axis=1) + j if pivot else xp.full(count, j)
        pivots[:, j] = p + 1
        swap = lu[rows, p, :].copy()
        lu[rows, p, :] = lu[:, j, :]
        lu[:, j, :] = swap
        head = lu[:, j, j]
        zero = head == 0
        infos = xp.where(zero & (infos == 0), j + 1, infos)
        # A zero pivot leaves its column as it is (LAPACK does the same).
        scale = xp.where(zero, 0, 1 / xp.where(zero, 1, head))
        lu[:, j + 1 :, j] *= scale[:, None]
        lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j : j + 1] * lu[:, j : j + 1, j + 1 :]
    return lu.reshape(a.shape), pivots.reshape(batch + (k,)), infos.reshape(batch)


def _permutation(xp, pivots, m: int, dtype):
    """`P [*, m, m]` with `A = P L U` from 1-based pivots `[*, k]`."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    flat = pivots.reshape((-1, k)).astype(xp.int64) - 1
    count = flat.shape[0]
    rows = xp.arange(count)
    perm = xp.broadcast_to(xp.arange(m), (count, m)).copy()
    for j in range(k):
        target = flat[:, j]
        swap = perm[rows, target].copy()
        perm[rows, target] = perm[:, j]
        perm[:, j] = swap
    # Row i of P^T A is row perm[i] of A, so P^T = I[perm] and P is its transpose.
    p_transposed = xp.eye(m, dtype=dtype)[perm]
    return p_transposed.swapaxes(-1, -2).reshape(batch + (m, m))


def _unit_lower(lu: Tensor, columns: int) -> Tensor:
    xp = get_array_module(lu._data)
    m = lu._data.shape[-2]
    eye = Tensor._wrap(xp.eye(m, columns, dtype=lu._data.dtype))
    return tril(lu[..., :columns], -1) + eye


class LU(Function):
    def __init__(self, pivot: bool) -> None:
        self.pivot = pivot

    def forward(self, x):
        self.retain_outputs(0, 1)
        lu, pivots, infos = _factor(get_array_module(x), x, self.pivot)
        return lu, pivots, infos

    def backward(self, glu: Tensor, _gpivots, _ginfos) -> Tensor:
        lu, pivots = self.saved_outputs()
        xp = get_array_module(lu._data)
        m, n = lu._data.shape[-2:]
        k = min(m, n)
        lower, upper = _unit_lower(lu, k), triu(lu[..., :k, :])
        gl, gu = tril(glu[..., :, :k], -1), triu(glu[..., :k, :])
        p = Tensor._wrap(_permutation(xp, pivots._data, m, lu._data.dtype))
        l1, u1 = lower[..., :k, :], upper[..., :, :k]
        phi_l = matmul(mT(l1), gl[..., :k, :])
        phi_u = matmul(gu[..., :, :k], mT(u1))
        if n > k:  # wide: U = [U1 | U2] with U2 = L^{-1} P^T A2
            phi_l = phi_l - matmul(gu[..., :, k:], mT(upper[..., :, k:]))
        if m > k:  # tall: L = [L1; L2] with L2 = A2 U^{-1}
            phi_u = phi_u - matmul(mT(lower[..., k:, :]), gl[..., k:, :])
        phi = tril(phi_l, -1) + triu(phi_u)
        # L1^{-T} phi U1^{-T}
        g1 = TriangularSolve(False, True, True).apply(l1, phi)
        g1 = mT(TriangularSolve(True, False, False).apply(u1, mT(g1)))
        if n > k:
            g2 = TriangularSolve(False, True, True).apply(l1, gu[..., :, k:])
            g1 = concat([g1, g2], axis=-1)
        if m > k:
            g2 = mT(TriangularSolve(True, False, False).apply(u1, mT(gl[..., k:, :])))
            g1 = concat([g1, g2], axis=-2)
        return matmul(p, g1)


def lu(x: Tensor, pivot: bool = True, get_infos: bool = False, name: str | None = None):
    """The LU factorisation `x = P L U` with partial pivoting, packed as LAPACK packs it.

    `x`: `[*, m, n]` float32/float64, `k = min(m, n)`. Returns `LU [*, m, n]` (unit-diagonal
    `L` below the diagonal, `U` on and above it), 1-based int32 `pivots [*, k]` and, with
    `get_infos`, int32 `infos [*]` (the 1-based index of the first zero pivot, else 0).
    `lu_unpack` turns them into `P, L, U`. `LU` is differentiable.

        lu, pivots = framework.linalg.lu(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
        # lu: [[3, 4], [0.3333, 0.6667]], pivots: [2, 2]
    """
    check_matrix(x, "lu")
    packed, pivots, infos = LU(bool(pivot)).apply(x)
    return (packed, pivots, infos) if get_infos else (packed, pivots)


def lu_unpack(
    x: Tensor,
    y: Tensor,
    unpack_ludata: bool = True,
    unpack_pivots: bool = True,
    name: str | None = None,
) -> tuple[Tensor | None, Tensor | None, Tensor | None]:
    """`P, L, U` from `lu`'s packed `x [*, m, n]` and pivots `y [*, k]`: `P [*, m, m]`,
    `L [*, m, k]` (unit lower), `U [*, k, n]`, with `P @ L @ U` the factored matrix. Parts not
    asked for (`unpack_ludata`, `unpack_pivots`) are None. `L` and `U` are differentiable.

        p, l, u = framework.linalg.lu_unpack(*framework.linalg.lu(a))
    """
    check_matrix(x, "lu_unpack")
    m, n = x._data.shape[-2:]
    k = min(m, n)
    if tuple(y._data.shape) != tuple(x._data.shape[:-2]) + (k,):
        raise ValueError(f"lu_unpack: pivots must be [*, {k}] for LU {x.shape}, got {y.shape}")
    lower = upper = p = None
    if unpack_ludata:
        lower, upper = _unit_lower(x, k), triu(x[..., :k, :])
    if unpack_pivots:
        xp = get_array_module(x._data)
        p = Tensor._wrap(_permutation(xp, y._data, m, x._data.dtype))
    return p, lower, upper


def lu_solve(
    b: Tensor, lu: Tensor, pivots: Tensor, trans: str = "N", name: str | None = None
) -> Tensor:
    """`X` with `A @ X = b` (`trans='N'`) or `A^T @ X = b` (`'T'`, `'C'`), given `lu`'s factors
    of `A [*, n, n]`. `b`: `[*, n, k]`; the result has its shape. Differentiable in `b` and
    `lu`.

        packed, pivots = framework.linalg.lu(a)
        x = framework.linalg.lu_solve(b, packed, pivots)
    """
    check_matrix(lu, "lu_solve")
    check_same_dtype(b, lu, "lu_solve")
    if trans not in ("N", "T", "C"):
        raise ValueError(f"lu_solve: trans must be 'N', 'T' or 'C', got {trans!r}")
    n = lu._data.shape[-1]
    if lu._data.shape[-2] != n or b._data.ndim < 2 or b._data.shape[-2] != n:
        raise ValueError(
            f"lu_solve: needs square LU [*, n, n] and b [*, n, k], got {lu.shape}, {b.shape}"
        )
    p = Tensor._wrap(_permutation(get_array_module(lu._data), pivots._data, n, lu._data.dtype))
    if trans == "N":  # X = U^{-1} L^{-1} P^T b
        z = TriangularSolve(False, False, True).apply(lu, matmul(mT(p), b))
        return TriangularSolve(True, False, False).apply(lu, z)
    # A^T = U^T L^T P^T, so X = P L^{-T} U^{-T} b.
    z = TriangularSolve(True, True, False).apply(lu, b)
    return matmul(p, TriangularSolve(False, True, True).apply(lu, z))
