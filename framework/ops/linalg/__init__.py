"""Linear algebra: products, einsum, norms, solves, decompositions. `TENSOR_METHODS` binds
method forms."""

from framework.ops.linalg.decomposition import cholesky, eig, eigh, eigvals, eigvalsh, qr
from framework.ops.linalg.determinant import det, slogdet
from framework.ops.linalg.einsum import einsum
from framework.ops.linalg.lu import lu, lu_solve, lu_unpack
from framework.ops.linalg.matmul import bmm, dot, matmul, mm, outer
from framework.ops.linalg.norm import matrix_norm, norm, vector_norm
from framework.ops.linalg.solve import (
    cholesky_inverse,
    cholesky_solve,
    inv,
    solve,
    triangular_solve,
)
from framework.ops.linalg.svd import lstsq, matrix_rank, pinv, svd, svdvals
from framework.ops.tensor_binding import reflected

__all__ = [
    "bmm",
    "cholesky",
    "cholesky_inverse",
    "cholesky_solve",
    "det",
    "dot",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "einsum",
    "inv",
    "lstsq",
    "lu",
    "lu_solve",
    "lu_unpack",
    "matmul",
    "matrix_norm",
    "matrix_rank",
    "mm",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "triangular_solve",
    "vector_norm",
]

TENSOR_METHODS = {
    "__matmul__": matmul,
    "__rmatmul__": reflected(matmul),
    "bmm": bmm,
    "cholesky": cholesky,
    "cholesky_inverse": cholesky_inverse,
    "cholesky_solve": cholesky_solve,
    "det": det,
    "dot": dot,
    "eig": eig,
    "eigvals": eigvals,
    "eigvalsh": eigvalsh,
    "inverse": inv,
    "lstsq": lstsq,
    "lu": lu,
    "lu_unpack": lu_unpack,
    "matmul": matmul,
    "matrix_norm": matrix_norm,
    "mm": mm,
    "norm": norm,
    "outer": outer,
    "pinv": pinv,
    "qr": qr,
    "slogdet": slogdet,
    "solve": solve,
    "svd": svd,
    "triangular_solve": triangular_solve,
    "vector_norm": vector_norm,
}
