"""Randomised low-rank SVD and PCA: svd_lowrank, pca_lowrank (Halko, Martinsson and Tropp
2011, Algorithm 5.1 with `niter` power iterations).

The range of `x` is sampled with a Gaussian matrix from the framework's generator, so results
follow `framework.seed`. Compositions of matmul, qr and svd: differentiable through them.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.creation.random import randn
from framework.ops.linalg.decomposition import qr
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_matrix, check_same_dtype
from framework.ops.linalg.svd import svd
from framework.ops.manipulation.transpose import swapped_last_dims as mT


def svd_lowrank(
    x: Tensor,
    q: int | None = None,
    niter: int = 2,
    M: Tensor | None = None,  # noqa: N803 - Paddle's argument name
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """An approximate truncated SVD `x - M ~ U diag(S) V^T` of rank `q` (default 6).

    `x`: `[*, m, n]` float32/float64, `M` (optional) broadcasts to it. Returns `U [*, m, q]`,
    `S [*, q]` and `V [*, n, q]` (V, not V^T, as in Paddle). Exact when `x - M` has rank at
    most `q`; `niter` power iterations sharpen a slowly decaying spectrum.

        u, s, v = framework.linalg.svd_lowrank(framework.randn([100, 40]), q=5)   # [100, 5] ...
    """
    check_matrix(x, "svd_lowrank")
    m, n = x._data.shape[-2:]
    q = 6 if q is None else int(q)
    if not 0 < q <= min(m, n):
        raise ValueError(f"svd_lowrank: q must be in [1, {min(m, n)}] for {x.shape}, got {q}")
    a = x
    if M is not None:
        check_same_dtype(x, M, "svd_lowrank")
        a = x - M
    sketch = randn(list(x._data.shape[:-2]) + [n, q], dtype=x.dtype)
    basis = qr(matmul(a, sketch))[0]
    for _ in range(int(niter)):
        basis = qr(matmul(a, qr(matmul(mT(a), basis))[0]))[0]
    u, s, vh = svd(matmul(mT(basis), a))
    return matmul(basis, u), s, mT(vh)


def pca_lowrank(
    x: Tensor,
    q: int | None = None,
    center: bool = True,
    niter: int = 2,
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """Approximate principal components of `x [*, m, n]` (rows are samples): `svd_lowrank`
    of `x` minus its column means (when `center`), with `q` defaulting to `min(6, m, n)`.
    Returns `U [*, m, q]`, `S [*, q]`, `V [*, n, q]`; the columns of `V` are the components.
    """
    check_matrix(x, "pca_lowrank")
    m, n = x._data.shape[-2:]
    q = min(6, m, n) if q is None else int(q)
    mean = x.mean(axis=-2, keepdim=True) if center else None
    return svd_lowrank(x, q, niter, mean)
