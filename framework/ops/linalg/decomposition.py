"""Matrix decompositions: cholesky, qr, eigh / eigvalsh, eig / eigvals.

The backwards are the published ones (Murray 2016 for Cholesky; Walter & Lehmann 2018 and
PyTorch's `linalg_qr_backward` for QR; the symmetric eigenproblem as in Giles 2008), written
with differentiable Tensor ops, so second derivatives come for free. Gradients of functions of
a symmetric input (cholesky, eigh) are returned symmetric, as Paddle and PyTorch do.

`eigh` takes Hermitian complex input too (the same formula with conjugate transposes).
`eig` and `eigvals` are forward-only.
"""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_float, check_matrix, check_square
from framework.ops.linalg.solve import TriangularSolve
from framework.ops.manipulation.diagonal import diag_embed
from framework.ops.manipulation.join import concat
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.manipulation.triangular import tril, triu
from framework.ops.math.complex_parts import conj_grad


def _symmetrized(g: Tensor) -> Tensor:
    return (g + mT(g)) * 0.5


class Cholesky(Function):
    """The lower factor `L` of `A = L L^T`; reads the lower triangle of `A`."""

    def forward(self, x):
        self.retain_outputs(0)
        xp = get_array_module(x)
        try:
            return xp.linalg.cholesky(x)
        except np.linalg.LinAlgError as error:
            raise ValueError(f"cholesky: the matrix is not positive definite ({error})") from None

    def backward(self, gl: Tensor) -> Tensor:
        (lower,) = self.saved_outputs()
        m = matmul(mT(lower), gl)
        phi = (tril(m) + tril(m, -1)) * 0.5  # the lower triangle, its diagonal halved
        # L^{-T} phi L^{-1}, as two triangular solves.
        z = TriangularSolve(False, True, False).apply(lower, phi)
        ga = mT(TriangularSolve(False, True, False).apply(lower, mT(z)))
        return _symmetrized(ga)


def cholesky(x: Tensor, upper: bool = False, name: str | None = None) -> Tensor:
    """The Cholesky factor of symmetric positive-definite matrices: `L` lower with
    `x = L L^T`, or `U` upper with `x = U^T U` when `upper`. Reads one triangle of `x`.

    `x`: `[*, n, n]` float32/float64; the result has its shape and dtype. A matrix that is not
    positive definite raises ValueError.

        a = framework.to_tensor([[4.0, 2.0], [2.0, 5.0]])
        framework.linalg.cholesky(a)   # [[2, 0], [1, 2]]
    """
    check_square(x, "cholesky")
    if upper:
        # Paddle reads the upper triangle for upper=True: factor its transpose.
        return mT(Cholesky().apply(mT(x)))
    return Cholesky().apply(x)


def _triangular_solve_right(r: Tensor, b: Tensor) -> Tensor:
    """`b R^{-T}` for an upper triangular `R`: `X R^T = b` is `R X^T = b^T`."""
    return mT(TriangularSolve(True, False, False).apply(r, mT(b)))


def _qr_tall_backward(q: Tensor, r: Tensor, gq: Tensor, gr: Tensor) -> Tensor:
    """The gradient for `A [m, n] = Q R` with `m >= n` (reduced Q)."""
    m = matmul(gr, mT(r)) - matmul(mT(q), gq)
    # The symmetric matrix whose upper triangle is M's: triu(M) + triu(M, 1)^T.
    b = matmul(q, triu(m) + mT(triu(m, 1))) + gq
    return _triangular_solve_right(r, b)


class QR(Function):
    def __init__(self, mode: str) -> None:
        self.mode = mode

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0, 1)
        mode = "reduced" if self.mode == "r" else self.mode
        q, r = get_array_module(x).linalg.qr(x, mode=mode)
        return q, r

    def backward(self, gq: Tensor, gr: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        if x._data.dtype.kind == "c":
            raise NotImplementedError(
                f"qr: the gradient for {x._data.dtype.name} inputs is not implemented "
                "(the forward decomposition is)"
            )
        q, r = self.saved_outputs()
        rows, cols = x._data.shape[-2:]
        if rows >= cols:
            if self.mode == "complete" and rows > cols:
                raise RuntimeError(
                    "qr: the gradient is not defined for mode='complete' with more rows than "
                    "columns (Q's extra columns are not unique); use mode='reduced'"
                )
            return _qr_tall_backward(q, r, gq, gr)
        # A = [X | Y] with X square: X = Q U is a square QR, and Y = Q V adds V's terms.
        y = x[..., rows:]
        gu, gv = gr[..., :rows], gr[..., rows:]
        gx = _qr_tall_backward(q, r[..., :rows], gq + matmul(y, mT(gv)), gu)
        return concat([gx, matmul(q, gv)], axis=-1)


def qr(x: Tensor, mode: str = "reduced", name: str | None = None):
    """The QR decomposition `x = Q R`, `Q` with orthonormal columns, `R` upper triangular.

    `x`: `[*, m, n]` float32/float64 or complex64/complex128 (forward only), `k = min(m, n)`.
    `mode='reduced'` gives `Q [*, m, k]` and `R [*, k, n]`; `'complete'` gives `Q [*, m, m]`
    and `R [*, m, n]`; `'r'` gives `R` alone.

        q, r = framework.linalg.qr(framework.randn([4, 3]))   # q: [4, 3], r: [3, 3]
    """
    check_matrix(x, "qr", complex_ok=True)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = QR(mode).apply(x)
    return r if mode == "r" else (q, r)


class Eigh(Function):
    def __init__(self, uplo: str) -> None:
        self.uplo = uplo

    def forward(self, x):
        self.retain_outputs(0, 1)
        w, v = get_array_module(x).linalg.eigh(x, UPLO=self.uplo)
        return w, v

    def backward(self, gw: Tensor, gv: Tensor) -> Tensor:
        w, v = self.saved_outputs()
        xp = get_array_module(w._data)
        eye = Tensor._wrap(xp.eye(w._data.shape[-1], dtype=w._data.dtype))
        vh_gv = matmul(mH(v), gv)
        # The skew-Hermitian part; its diagonal (imaginary, the eigenvectors' phase) is
        # dropped, as PyTorch does: a loss that does not depend on the phase has none.
        skew = (vh_gv - mH(vh_gv)) * 0.5
        # 1 / (w[j] - w[i]) off the diagonal, 0 on it.
        gaps = w.unsqueeze(-2) - w.unsqueeze(-1) + eye
        inner = skew * ((1.0 - eye) / gaps) + diag_embed(gw)
        return matmul(matmul(v, inner), mH(v))


def mH(t: Tensor) -> Tensor:  # noqa: N802 - the conjugate transpose, as PyTorch's `Tensor.mH`
    """The conjugate transpose of the last two dims (the transpose for real tensors)."""
    return conj_grad(mT(t))


def _check_uplo(uplo: str, op: str) -> None:
    if uplo not in ("L", "U"):
        raise ValueError(f"{op}: UPLO must be L or U. But received UPLO is: {uplo}")


def eigh(x: Tensor, UPLO: str = "L", name: str | None = None) -> tuple[Tensor, Tensor]:  # noqa: N803
    """Eigenvalues (ascending) and eigenvectors of symmetric or Hermitian matrices, reading the
    lower (`UPLO='L'`) or upper triangle.

    `x`: `[*, n, n]` float32/float64 or complex64/complex128. Returns `w [*, n]`, always real
    (float32 for complex64, float64 for complex128, as Paddle), and `v [*, n, n]` in the dtype
    of `x` (columns are the eigenvectors, `x = v diag(w) v^H`). An eigenvector is unique only
    up to its sign (a phase for complex input): gradients assume distinct eigenvalues and a
    loss that does not depend on that phase.

        w, v = framework.linalg.eigh(framework.to_tensor([[2.0, 1.0], [1.0, 2.0]]))   # w: [1., 3.]
        w, v = framework.linalg.eigh(framework.to_tensor([[1, -2j], [2j, 5]]))   # w: [0.17, 5.83]
    """
    _check_eigh_input(x, "eigh")
    _check_uplo(UPLO, "eigh")
    return Eigh(UPLO).apply(x)


def _check_eigh_input(x: Tensor, op: str) -> None:
    check_float(x, op, complex_ok=True)
    if x._data.ndim < 2:
        raise ValueError(
            f"{op}: Input(input) only support >=2 tensor, but received length of Input(input) "
            f"is {x._data.ndim}."
        )
    if x._data.shape[-1] != x._data.shape[-2]:
        raise ValueError(
            f"{op}: The input matrix must be batches of square matrices. But received x's "
            f"dimension: {list(x._data.shape)}"
        )


def eigvalsh(x: Tensor, UPLO: str = "L", name: str | None = None) -> Tensor:  # noqa: N803
    """The eigenvalues of symmetric or Hermitian matrices, ascending: `[*, n, n]` gives real
    `[*, n]` (float32 for float32/complex64, float64 for float64/complex128). Differentiable
    (the gradient is `v diag(gw) v^H`).

        framework.linalg.eigvalsh(framework.to_tensor([[2.0, 1.0], [1.0, 2.0]]))   # [1., 3.]
    """
    return eigh(x, UPLO)[0]


class Eig(Function):
    def forward(self, x):
        xp = get_array_module(x)
        w, v = xp.linalg.eig(x)
        dtype = dtypes.complex_dtype_of(x.dtype)
        return w.astype(dtype, copy=False), v.astype(dtype, copy=False)


def eig(x: Tensor, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues and right eigenvectors of general square matrices, as complex tensors.

    `x`: `[*, n, n]` float32/float64 or complex64/complex128. Returns `w [*, n]` and
    `v [*, n, n]` in complex64 / complex128 (`x @ v = v * w`). Forward only: eig has no
    gradient here.

        w, v = framework.linalg.eig(framework.to_tensor([[0.0, -1.0], [1.0, 0.0]]))   # w: [1j, -1j]
    """
    check_square(x, "eig", complex_ok=True)
    if get_array_module(x._data).__name__ == "cupy":
        raise NotImplementedError("eig: CuPy has no general eigensolver; move x to the CPU")
    return Eig().apply(x)


def eigvals(x: Tensor, name: str | None = None) -> Tensor:
    """The eigenvalues of general square matrices: `[*, n, n]` gives complex `[*, n]`."""
    return eig(x)[0]
