"""Matrix products: matmul (batched, NumPy broadcasting), mm, bmm, dot, outer.

`MatMul` works on inputs with at least 2 dims; the 1-D cases are reshaped around it. The
transposes are strided views handed straight to BLAS, and a batched input times a matrix runs
as one large GEMM on the flattened batch. Backward is two more matmuls with transpose flags, and
`sum_to` folds broadcast batch dims.
"""

from __future__ import annotations

from framework.amp.auto_cast import amp_cast
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.linalg.einsum import einsum
from framework.ops.manipulation.broadcast import sum_to
from framework.ops.manipulation.shape import Reshape
from framework.ops.math.complex_parts import conj_grad


class MatMul(Function):
    def __init__(self, transpose_x: bool, transpose_y: bool) -> None:
        self.transpose_x = transpose_x
        self.transpose_y = transpose_y

    def forward(self, x, y):
        self.retain_inputs(0, 1)
        a = x.swapaxes(-1, -2) if self.transpose_x else x
        b = y.swapaxes(-1, -2) if self.transpose_y else y
        if b.ndim == 2 and a.ndim > 2 and not self.transpose_x:
            # One GEMM over the flattened batch instead of one per batch entry.
            out = a.reshape(-1, a.shape[-1]) @ b
            return out.reshape(a.shape[:-1] + (b.shape[-1],))
        return get_array_module(a).matmul(a, b)

    def backward(self, gy: Tensor):
        # Bilinear, so complex inputs only need conjugating (conjugate Wirtinger convention).
        x, y = (conj_grad(t) for t in self.saved_inputs())
        tx, ty = self.transpose_x, self.transpose_y
        gx = gy_ = None
        if self.needs_input_grad[0]:
            gx = _matmul(y, gy, ty, True) if tx else _matmul(gy, y, False, not ty)
            gx = sum_to(gx, x._data.shape)
        if self.needs_input_grad[1]:
            if y._data.ndim == 2 and x._data.ndim > 2 and not tx:
                # The batch folds into the GEMM's inner dim instead of a sum over B results.
                k, m = x._data.shape[-1], gy._data.shape[-1]
                x2 = Reshape((-1, k)).apply(x)
                g2 = Reshape((-1, m)).apply(gy)
                gy_ = _matmul(g2, x2, True, False) if ty else _matmul(x2, g2, True, False)
            else:
                gy_ = _matmul(gy, x, True, tx) if ty else _matmul(x, gy, not tx, False)
                gy_ = sum_to(gy_, y._data.shape)
        return gx, gy_


def _matmul(x: Tensor, y: Tensor, transpose_x: bool, transpose_y: bool) -> Tensor:
    return MatMul(transpose_x, transpose_y).apply(x, y)


def _shape_error(x: Tensor, y: Tensor, transpose_x: bool, transpose_y: bool) -> ValueError:
    kx = x.shape[-2] if transpose_x and x.ndim > 1 else x.shape[-1]
    ky = y.shape[-1] if transpose_y and y.ndim > 1 else y.shape[0 if y.ndim == 1 else -2]
    flags = ""
    if transpose_x or transpose_y:
        flags = f" (transpose_x={transpose_x}, transpose_y={transpose_y})"
    if kx != ky:
        reason = f"the contracted dims are {kx} and {ky}"
    else:
        reason = f"the batch dims {x.shape[:-2]} and {y.shape[:-2]} do not broadcast"
    return ValueError(f"matmul: shapes {x.shape} and {y.shape}{flags} do not match: {reason}")


def matmul(
    x: Tensor,
    y: Tensor,
    transpose_x: bool = False,
    transpose_y: bool = False,
    name: str | None = None,
) -> Tensor:
    """Matrix product with NumPy's rules: batch dims broadcast, a 1-D `x` is a row vector and a
    1-D `y` a column vector (their size-1 dim is dropped from the result). `transpose_x` /
    `transpose_y` transpose the last two dims first (no effect on 1-D inputs).

        a = framework.randn([8, 3, 4]); b = framework.randn([4, 5])
        framework.matmul(a, b).shape                      # [8, 3, 5]
        framework.matmul(b, b, transpose_x=True).shape    # [5, 5]
    """
    x, y = amp_cast("matmul", *as_operands(x, y))
    if x._data.dtype != y._data.dtype:
        raise TypeError(f"matmul: x and y must have the same dtype, got {x.dtype} and {y.dtype}")
    x_ndim, y_ndim = x._data.ndim, y._data.ndim
    if x_ndim == 0 or y_ndim == 0:
        raise ValueError(f"matmul: inputs must have at least 1 dim, got {x.shape}, {y.shape}")
    try:
        if x_ndim >= 2 and y_ndim >= 2:
            return MatMul(transpose_x, transpose_y).apply(x, y)
        a = Reshape((1, x._data.shape[0])).apply(x) if x_ndim == 1 else x
        b = Reshape((y._data.shape[0], 1)).apply(y) if y_ndim == 1 else y
        out = MatMul(transpose_x and x_ndim > 1, transpose_y and y_ndim > 1).apply(a, b)
    except ValueError:
        raise _shape_error(x, y, transpose_x, transpose_y) from None
    shape = out._data.shape
    if x_ndim == 1:
        shape = shape[:-2] + shape[-1:]
    if y_ndim == 1:
        shape = shape[:-1]
    return Reshape(shape).apply(out)


def mm(input: Tensor, mat2: Tensor, name: str | None = None) -> Tensor:  # noqa: A002
    """Matrix product of two matrices (Paddle's `mm`; broadcasting as `matmul`)."""
    return matmul(input, mat2)


def bmm(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Batched matrix product of `[B, n, k]` and `[B, k, m]` tensors."""
    if x._data.ndim != 3 or y._data.ndim != 3:
        raise ValueError(f"bmm: expects two 3-D tensors, got shapes {x.shape} and {y.shape}")
    if x._data.shape[0] != y._data.shape[0]:
        raise ValueError(f"bmm: batch sizes differ: {x.shape} and {y.shape}")
    return matmul(x, y)


def dot(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Inner product of two 1-D tensors (a 0-D result), or row-wise for two `[N, k]` tensors
    (an `[N]` result)."""
    if x._data.shape != y._data.shape or x._data.ndim not in (1, 2):
        raise ValueError(
            f"dot: expects two 1-D or 2-D tensors of one shape, got {x.shape}, {y.shape}"
        )
    return einsum("...k,...k->...", x, y)


def outer(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Outer product `x[i] * y[j]` of the flattened inputs: shape `[x.size, y.size]`."""
    a = Reshape((x._data.size, 1)).apply(x)
    b = Reshape((1, y._data.size)).apply(y)
    return MatMul(False, False).apply(a, b)
