"""The singular value decomposition and what is built on it: svd, svdvals, pinv, lstsq,
matrix_rank.

`SVD.backward` is the published gradient (Townsend 2016; PyTorch's `svd_backward`) written
with Tensor ops, so it is differentiable again. It needs distinct, non-zero singular values,
as every SVD gradient does. `pinv` and `lstsq` are compositions, differentiable through it.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.decomposition import eigh
from framework.ops.linalg.decomposition import mH as _mH
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_matrix, check_same_dtype
from framework.ops.manipulation.diagonal import diag_embed
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.manipulation.where import where


class SVD(Function):
    def __init__(self, full_matrices: bool) -> None:
        self.full_matrices = full_matrices

    def forward(self, x):
        self.retain_outputs(0, 1, 2)
        u, s, vh = get_array_module(x).linalg.svd(x, full_matrices=self.full_matrices)
        return u, s, vh

    def backward(self, gu: Tensor, gs: Tensor, gvh: Tensor) -> Tensor:
        u, s, vh = self.saved_outputs()
        k = s._data.shape[-1]
        if self.full_matrices:
            # The extra columns of U (rows of Vh) are not unique: their gradients are dropped.
            u, gu, vh, gvh = u[..., :k], gu[..., :k], vh[..., :k, :], gvh[..., :k, :]
        m, n = u._data.shape[-2], vh._data.shape[-1]
        v, gv = _mH(vh), _mH(gvh)
        xp = get_array_module(s._data)
        s2 = s * s
        eye = Tensor._wrap(xp.eye(k, dtype=s._data.dtype))
        gaps = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye  # E[j, l] = s[l]^2 - s[j]^2, 1 on diag
        uh_gu = matmul(_mH(u), gu)
        skew_u, skew_v = uh_gu - _mH(uh_gu), matmul(_mH(v), gv) - _mH(matmul(_mH(v), gv))
        core = (skew_u * s.unsqueeze(-2) + s.unsqueeze(-1) * skew_v) / gaps + diag_embed(gs)
        if u._data.dtype.kind == "c":
            # Complex singular vectors are unique up to a phase per pair; the gradient of a
            # loss that does not depend on it gains i Im(diag(U^H gU)) / S (PyTorch's rule).
            core = core + diag_embed(skew_u.diagonal(axis1=-2, axis2=-1) / (s * 2.0))
        if m > k:
            # (I - U U^H) gU S^{-1}: the part of gU outside U's column space.
            gu_sinv = gu / s.unsqueeze(-2)
            return matmul(matmul(u, core) + gu_sinv - matmul(u, matmul(_mH(u), gu_sinv)), vh)
        if n > k:
            sinv_gvt = _mH(gv) / s.unsqueeze(-1)
            return matmul(u, matmul(core, vh) + sinv_gvt - matmul(matmul(sinv_gvt, v), vh))
        return matmul(matmul(u, core), vh)


def svd(
    x: Tensor, full_matrices: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    """The singular value decomposition `x = U diag(S) VH`, singular values descending.

    `x`: `[*, m, n]` float32/float64 or complex64/complex128, `k = min(m, n)`. Returns
    `U [*, m, k]`, `S [*, k]` and `VH [*, k, n]` (`U [*, m, m]` and `VH [*, n, n]` with
    `full_matrices`); `S` has the real dtype (float32 for complex64), U and VH that of `x`.
    Singular vectors are unique only up to sign (a phase for complex inputs); gradients need
    distinct singular values, and for complex inputs a loss that does not depend on the phase.

        u, s, vh = framework.linalg.svd(framework.randn([4, 3]))   # [4, 3], [3], [3, 3]
    """
    check_matrix(x, "svd", complex_ok=True)
    return SVD(bool(full_matrices)).apply(x)


def svdvals(x: Tensor, name: str | None = None) -> Tensor:
    """The singular values of `x [*, m, n]`, descending: `[*, min(m, n)]`. Differentiable.

    framework.linalg.svdvals(framework.to_tensor([[3.0, 0.0], [0.0, -4.0]]))   # [4., 3.]
    """
    return svd(x)[1]


def _reciprocal_above(values: Tensor, cutoff: Tensor) -> Tensor:
    """`1 / values` where `values > cutoff`, else 0, with no 0 * inf in the gradient."""
    keep = values > cutoff
    ones = Tensor._wrap(get_array_module(values._data).ones((), dtype=values._data.dtype))
    return where(keep, 1.0 / where(keep, values, ones), ones * 0.0)


def pinv(
    x: Tensor, rcond: float | Tensor = 1e-15, hermitian: bool = False, name: str | None = None
) -> Tensor:
    """The Moore-Penrose pseudo-inverse of `x [*, m, n]`: `[*, n, m]`, in the dtype of `x`.

    Singular values at or below `rcond` times the largest are treated as zero. `hermitian`
    takes `x` as symmetric and uses its eigendecomposition.

        framework.linalg.pinv(framework.to_tensor([[1.0, 2.0], [2.0, 4.0]]))   # [[0.04, 0.08], ...]
    """
    check_matrix(x, "pinv")
    rcond_t = (
        rcond
        if isinstance(rcond, Tensor)
        else Tensor._wrap(get_array_module(x._data).asarray(rcond, dtype=x._data.dtype))
    )
    if hermitian:
        w, v = eigh(x)
        cutoff = w.abs().max(axis=-1, keepdim=True).detach() * rcond_t
        inv_w = _reciprocal_above(w.abs(), cutoff) * w.sign()
        return matmul(v * inv_w.unsqueeze(-2), mT(v))
    u, s, vh = svd(x)
    cutoff = s.max(axis=-1, keepdim=True).detach() * rcond_t
    inv_s = _reciprocal_above(s, cutoff)
    return matmul(mT(vh) * inv_s.unsqueeze(-2), mT(u))


def _default_rtol(x: Tensor) -> float:
    xp = get_array_module(x._data)
    return float(xp.finfo(x._data.dtype).eps) * max(x._data.shape[-2:])


def matrix_rank(
    x: Tensor,
    tol: float | Tensor | None = None,
    hermitian: bool = False,
    atol: float | Tensor | None = None,
    rtol: float | Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """The rank of each matrix: the count of singular values above a threshold. `[*, m, n]`
    gives int64 `[*]`.

    The threshold is `tol` when given (absolute), else `max(atol, rtol * largest)`, with `rtol`
    defaulting to `eps * max(m, n)` when neither `atol` nor `rtol` is given (0 when only
    `atol` is). `hermitian` uses eigenvalue magnitudes.

        framework.linalg.matrix_rank(framework.to_tensor([[1.0, 2.0], [2.0, 4.0]]))   # 1
    """
    check_matrix(x, "matrix_rank")
    xp = get_array_module(x._data)
    data = x._data
    values = (
        xp.abs(xp.linalg.eigvalsh(data)) if hermitian else xp.linalg.svd(data, compute_uv=False)
    )

    def as_array(t):
        return t._data if isinstance(t, Tensor) else xp.asarray(t, dtype=data.dtype)

    largest = values.max(axis=-1) if values.shape[-1] else xp.zeros(values.shape[:-1], data.dtype)
    if tol is not None:
        threshold = as_array(tol)
    else:
        if rtol is None:
            rtol = _default_rtol(x) if atol is None else 0.0
        threshold = xp.maximum(as_array(0.0 if atol is None else atol), as_array(rtol) * largest)
    rank = (values > xp.asarray(threshold)[..., None]).sum(axis=-1)
    return Tensor._wrap(rank.astype("int64"))


_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def lstsq(
    x: Tensor,
    y: Tensor,
    rcond: float | None = None,
    driver: str | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The least-squares solution of `x @ X = y`, as Paddle returns it:
    `(solution, residuals, rank, singular_values)`.

    `x`: `[*, m, n]`, `y`: `[*, m, k]`; `solution` is `[*, n, k]`, the minimum-norm solution
    through the pseudo-inverse (singular values at or below `rcond` times the largest, default
    `eps * max(m, n)`, count as zero); it is differentiable. As in Paddle, what else is filled
    depends on `driver` (default 'gelsy'): `residuals [*, k]` (squared residual norms, when
    `m > n`, the matrices have full rank and the driver is not 'gelsy'), `rank` (int32 `[*]`,
    not for 'gels') and `singular_values [*, min(m, n)]` ('gelsd' and 'gelss'); the others
    are empty.

        a = framework.to_tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        framework.linalg.lstsq(a, framework.to_tensor([[1.0], [1.0], [2.0]]))[0]   # [[1], [1]]
    """
    check_matrix(x, "lstsq")
    check_matrix(y, "lstsq")
    check_same_dtype(x, y, "lstsq")
    if driver not in _DRIVERS:
        raise ValueError(f"lstsq: driver must be one of {_DRIVERS[1:]} or None, got {driver!r}")
    if y._data.shape[-2] != x._data.shape[-2]:
        raise ValueError(f"lstsq: x {x.shape} and y {y.shape} need the same number of rows")
    driver = driver or "gelsy"
    xp = get_array_module(x._data)
    dtype = x._data.dtype
    cutoff = _default_rtol(x) if rcond is None else float(rcond)
    solution = matmul(pinv(x, cutoff), y)
    singular = xp.linalg.svd(x._data, compute_uv=False)
    largest = singular.max(axis=-1, keepdims=True) if singular.shape[-1] else singular
    rank = (singular > cutoff * largest).sum(axis=-1)
    m, n = x._data.shape[-2:]
    empty = Tensor._wrap(xp.zeros((0,), dtype=dtype))
    residuals = empty
    if driver != "gelsy" and m > n and bool((rank == n).all()):
        residuals = ((matmul(x, solution) - y) ** 2).sum(axis=-2)
    if driver == "gels":
        rank_out = Tensor._wrap(xp.zeros((0,), dtype="int64"))
    else:
        rank_out = Tensor._wrap(rank.astype("int32"))
    values = Tensor._wrap(singular) if driver in ("gelsd", "gelss") else empty
    return solution, residuals, rank_out, values
