"""Functions of a matrix: matrix_exp (Higham's scaling and squaring) and cond.

Both are compositions of matmul, solve, inv, svd and norms, so they are differentiable to
any order through those ops.
"""

from __future__ import annotations

import math

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_matrix, check_square
from framework.ops.linalg.norm import matrix_norm
from framework.ops.linalg.solve import inv, solve
from framework.ops.linalg.svd import svdvals

# The [13/13] Pade coefficients and the 1-norm up to which they are accurate to double
# precision without scaling (Higham 2005, "The scaling and squaring method for the matrix
# exponential revisited", Table 2.3).
_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA13 = 5.371920351148152


def matrix_exp(x: Tensor, name: str | None = None) -> Tensor:
    """The matrix exponential `sum_k x^k / k!` of square matrices `[*, n, n]`, by the [13/13]
    Pade approximant with scaling and squaring; same shape and dtype as `x`.

        framework.linalg.matrix_exp(framework.to_tensor([[0.0, 1.0], [0.0, 0.0]]))
        # [[1, 1], [0, 1]]
    """
    check_square(x, "matrix_exp")
    xp = get_array_module(x._data)
    n = x._data.shape[-1]
    one_norm = float(xp.abs(x._data).sum(axis=-2).max()) if x._data.size else 0.0
    # One scaling for the whole batch: more squarings than a matrix needs cost nothing in
    # accuracy, and keep the batch in one set of products.
    squarings = max(0, math.ceil(math.log2(one_norm / _THETA13))) if one_norm > _THETA13 else 0
    a = x * (0.5**squarings) if squarings else x
    b = _PADE13
    eye = Tensor._wrap(xp.eye(n, dtype=x._data.dtype))
    a2 = matmul(a, a)
    a4 = matmul(a2, a2)
    a6 = matmul(a4, a2)
    u = matmul(a6, a6 * b[13] + a4 * b[11] + a2 * b[9]) + a6 * b[7] + a4 * b[5] + a2 * b[3]
    u = matmul(a, u + eye * b[1])
    v = matmul(a6, a6 * b[12] + a4 * b[10] + a2 * b[8]) + a6 * b[6] + a4 * b[4] + a2 * b[2]
    v = v + eye * b[0]
    result = solve(v - u, v + u)
    for _ in range(squarings):
        result = matmul(result, result)
    return result


def cond(x: Tensor, p: float | str | None = None, name: str | None = None) -> Tensor:
    """The condition number of matrices `[*, m, n]` (a `[*]` result, dtype of `x`).

    `p` None or 2: largest over smallest singular value; -2: the reverse (both for any
    shape). 'fro', 'nuc', 1, -1, inf, -inf: `norm(x, p) * norm(inv(x), p)` for square `x`.

        framework.linalg.cond(framework.to_tensor([[1.0, 0.0], [0.0, 4.0]]))   # 4.0
    """
    check_matrix(x, "cond")
    if p is None or p in (2, -2):
        values = svdvals(x)
        largest, smallest = values[..., 0], values[..., -1]
        return smallest / largest if p == -2 else largest / smallest
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise ValueError(
            f"cond: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {p!r}"
        )
    check_square(x, "cond")
    return matrix_norm(x, p) * matrix_norm(inv(x), p)
