"""Inverses and linear solves: inv, solve, triangular_solve, cholesky_solve, cholesky_inverse.

`Inverse`, `Solve` and `TriangularSolve` are the primitives; their backwards are written with
these same ops and matmul, so every gradient here is differentiable again. The Cholesky forms
are compositions of triangular solves. Batch dims broadcast as in NumPy; gradients are summed
back to each input's shape.

`TriangularSolve` runs the general LU solver on the masked triangle: NumPy has no batched
triangular solver, and on the same matrix LU without pivoting reduces to substitution.
"""

from __future__ import annotations

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_same_dtype, check_square
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.manipulation.triangular import tril, triu
from framework.ops.math.complex_parts import conj_grad


def _solve_arrays(xp, a, b, op: str):
    try:
        return xp.linalg.solve(a, b)
    except np.linalg.LinAlgError as error:
        raise ValueError(f"{op}: the matrix is singular ({error})") from None


class Inverse(Function):
    def forward(self, x):
        self.retain_outputs(0)
        xp = get_array_module(x)
        try:
            return xp.linalg.inv(x)
        except np.linalg.LinAlgError as error:
            raise ValueError(f"inv: the matrix is singular ({error})") from None

    def backward(self, gy: Tensor) -> Tensor:
        (y,) = self.saved_outputs()
        yt = conj_grad(mT(y))  # Y^H for complex inputs (conjugate Wirtinger convention)
        return -matmul(matmul(yt, gy), yt)


class Solve(Function):
    """`A X = B` for `A [*, n, n]`, `B [*, n, k]`."""

    def forward(self, a, b):
        self.retain_inputs(0)
        self.retain_outputs(0)
        self._b_shape = b.shape
        return _solve_arrays(get_array_module(a, b), a, b, "solve")

    def backward(self, gx: Tensor):
        (a,) = self.saved_inputs()
        (x,) = self.saved_outputs()
        gb = Solve().apply(mT(a), gx)
        ga = sum_to(-matmul(gb, mT(x)), a._data.shape) if self.needs_input_grad[0] else None
        return ga, sum_to(gb, self._b_shape)


class TriangularSolve(Function):
    """`op(A) X = B` with `A` triangular (only its `upper` or lower triangle is read) and
    `op(A)` = `A` or `A^T`; `unitriangular` takes the diagonal as ones."""

    def __init__(self, upper: bool, transpose: bool, unitriangular: bool) -> None:
        self.upper = upper
        self.transpose = transpose
        self.unitriangular = unitriangular

    def _triangle(self, xp, a):
        t = xp.triu(a) if self.upper else xp.tril(a)
        if self.unitriangular:
            t = t - xp.tril(xp.triu(t)) + xp.eye(a.shape[-1], dtype=a.dtype)
        return t.swapaxes(-1, -2) if self.transpose else t

    def forward(self, a, b):
        self.retain_inputs(0)
        self.retain_outputs(0)
        xp = get_array_module(a, b)
        self._shapes = (a.shape, b.shape)
        return _solve_arrays(xp, self._triangle(xp, a), b, "triangular_solve")

    def backward(self, gx: Tensor):
        (a,) = self.saved_inputs()
        (x,) = self.saved_outputs()
        a_shape, b_shape = self._shapes
        flipped = TriangularSolve(self.upper, not self.transpose, self.unitriangular)
        gb = flipped.apply(a, gx)
        ga = None
        if self.needs_input_grad[0]:
            ga = -matmul(x, mT(gb)) if self.transpose else -matmul(gb, mT(x))
            offset = 1 if self.unitriangular else 0
            ga = triu(ga, offset) if self.upper else tril(ga, -offset)
            ga = sum_to(ga, a_shape)
        return ga, sum_to(gb, b_shape)


def _check_system(x: Tensor, y: Tensor, op: str) -> None:
    check_square(x, op)
    check_same_dtype(x, y, op)
    if y._data.ndim < 2 or y._data.shape[-2] != x._data.shape[-1]:
        raise ValueError(
            f"{op}: the right-hand side must be [*, {x.shape[-1]}, k] for matrices {x.shape}, "
            f"got {y.shape}"
        )


def inv(x: Tensor, name: str | None = None) -> Tensor:
    """The inverse of each square matrix in `x` (`[*, n, n]`, float32/float64 or complex64/
    complex128; same shape and dtype out). A singular matrix raises ValueError.

        a = framework.to_tensor([[2.0, 0.0], [0.0, 4.0]])
        framework.linalg.inv(a)   # [[0.5, 0], [0, 0.25]]
    """
    check_square(x, "inv", complex_ok=True)
    return Inverse().apply(x)


def solve(x: Tensor, y: Tensor, left: bool = True, name: str | None = None) -> Tensor:
    """`X` with `x @ X = y` (`left=True`) or `X @ x = y` (`left=False`).

    `x`: `[*, n, n]`; `y`: `[*, n, k]` (`[*, k, n]` when `left=False`) or a vector `[n]`.
    Batch dims broadcast. Same dtype as the inputs.

        a = framework.to_tensor([[3.0, 1.0], [1.0, 2.0]])
        framework.linalg.solve(a, framework.to_tensor([9.0, 8.0]))   # [2., 3.]
    """
    if y._data.ndim == 1:
        check_same_dtype(x, y, "solve")
        column = Reshape((y._data.shape[0], 1)).apply(y)
        out = solve(x, column, left)
        return Reshape((y._data.shape[0],)).apply(out)
    if not left:
        return mT(solve(mT(x), mT(y)))
    _check_system(x, y, "solve")
    return Solve().apply(x, y)


def triangular_solve(
    x: Tensor,
    y: Tensor,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
    name: str | None = None,
) -> Tensor:
    """`X` with `op(x) @ X = y`, where `x` is triangular: only its upper (`upper=True`) or
    lower triangle is read, `op(x)` is `x^T` when `transpose`, and `unitriangular` takes the
    diagonal as ones.

    `x`: `[*, n, n]`, `y`: `[*, n, k]`, batch dims broadcast; float32/float64.

        a = framework.to_tensor([[2.0, 1.0], [0.0, 4.0]])
        framework.linalg.triangular_solve(a, framework.to_tensor([[4.0], [8.0]]))   # [[1], [2]]
    """
    _check_system(x, y, "triangular_solve")
    return TriangularSolve(bool(upper), bool(transpose), bool(unitriangular)).apply(x, y)


def cholesky_solve(x: Tensor, y: Tensor, upper: bool = False, name: str | None = None) -> Tensor:
    """`X` with `A @ X = x`, given `y`, the Cholesky factor of `A` (`A = L L^T` with `L = y`
    lower, or `A = U^T U` with `U = y` when `upper`).

    `x`: `[*, n, k]`, `y`: `[*, n, n]`; float32/float64.

        a = framework.to_tensor([[4.0, 2.0], [2.0, 3.0]])
        framework.linalg.cholesky_solve(framework.to_tensor([[6.0], [5.0]]),
                                        framework.linalg.cholesky(a))   # [[1], [1]]
    """
    _check_system(y, x, "cholesky_solve")
    # A = U^T U: solve U^T Z = x, then U X = Z (for a lower L, U = L^T).
    z = TriangularSolve(upper, upper, False).apply(y, x)
    return TriangularSolve(upper, not upper, False).apply(y, z)


def cholesky_inverse(x: Tensor, upper: bool = False, name: str | None = None) -> Tensor:
    """The inverse of `A` from its Cholesky factor `x` (`A = x x^T`, or `x^T x` when `upper`).

    `x`: `[n, n]` or `[*, n, n]`, float32/float64; the result has the same shape.

        l = framework.linalg.cholesky(framework.to_tensor([[4.0, 2.0], [2.0, 3.0]]))
        framework.linalg.cholesky_inverse(l)   # [[0.375, -0.25], [-0.25, 0.5]]
    """
    check_square(x, "cholesky_inverse")
    xp = get_array_module(x._data)
    eye = Tensor._wrap(xp.broadcast_to(xp.eye(x._data.shape[-1], dtype=x._data.dtype), x.shape))
    return cholesky_solve(eye, x, upper)
