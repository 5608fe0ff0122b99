"""Determinants: det and slogdet (Paddle's stacked `[sign, log|det|]` form).

Both gradients are `d log|det A| / dA = A^{-T}` scaled, built from `Inverse`, so they are
differentiable again; a singular matrix has no such gradient and backward says so.
"""

from __future__ import annotations

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.matrix_checks import check_square
from framework.ops.linalg.solve import Inverse
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.transpose import swapped_last_dims as mT
from framework.ops.math.complex_parts import conj_grad


def _as_matrix_batch(t: Tensor) -> Tensor:
    """`[*]` values reshaped to `[*, 1, 1]`, to scale a batch of matrices."""
    return Reshape(tuple(t._data.shape) + (1, 1)).apply(t)


class Determinant(Function):
    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        return get_array_module(x).linalg.det(x)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (d,) = self.saved_outputs()
        # Complex inputs: the derivative det * A^-T is conjugated (conjugate Wirtinger).
        return _as_matrix_batch(gy * conj_grad(d)) * conj_grad(mT(Inverse().apply(x)))


class SignLogDeterminant(Function):
    """Outputs `[2, *batch]`: row 0 the sign of the determinant, row 1 `log|det|`."""

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        sign, logabs = xp.linalg.slogdet(x)
        return xp.stack([sign, logabs]).astype(x.dtype, copy=False)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        return _as_matrix_batch(gy[1]) * mT(Inverse().apply(x))


def det(x: Tensor, name: str | None = None) -> Tensor:
    """The determinant of each matrix: `[*, n, n]` gives `[*]`, in the dtype of `x` (float or
    complex).

    framework.linalg.det(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]))   # -2.0
    """
    check_square(x, "det", complex_ok=True)
    return Determinant().apply(x)


def slogdet(x: Tensor, name: str | None = None) -> Tensor:
    """Sign and log of the absolute determinant, stacked as Paddle does: `[*, n, n]` gives
    `[2, *]` (`out[0]` the sign, `out[1]` `log|det|`), in the dtype of `x`. Only `log|det|`
    carries a gradient.

        framework.linalg.slogdet(framework.to_tensor([[1.0, 2.0], [3.0, 4.0]]))   # [-1., 0.6931]
    """
    check_square(x, "slogdet")
    return SignLogDeterminant().apply(x)
