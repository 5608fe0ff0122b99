"""Vector and matrix norms: `norm` (Paddle's `paddle.linalg.norm`, also `paddle.norm`),
`vector_norm` and `matrix_norm`.

`VectorNorm` computes any p-norm over a set of axes in one pass. Its backward is written with
Tensor ops, so it is differentiable again; for p = 1 and p = +-inf the gradient is a constant
pattern (signs, shared among ties) times the incoming gradient, which is exact to every order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.linalg.svd import svdvals
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.transpose import moveaxis
from framework.ops.manipulation.where import Where


class VectorNorm(Function):
    def __init__(self, p: float, axes: tuple[int, ...], keepdim: bool) -> None:
        self.p = p
        self.axes = axes
        self.keepdim = keepdim

    def forward(self, x):
        self.retain_inputs(0)
        self.retain_outputs(0)
        xp = get_array_module(x)
        p, axes = self.p, self.axes
        if p == 2:
            out = xp.sqrt(xp.sum(x * x, axis=axes, keepdims=self.keepdim))
        elif p == 1:
            out = xp.sum(xp.abs(x), axis=axes, keepdims=self.keepdim)
        elif p == math.inf:
            out = xp.max(xp.abs(x), axis=axes, keepdims=self.keepdim)
        elif p == -math.inf:
            out = xp.min(xp.abs(x), axis=axes, keepdims=self.keepdim)
        elif p == 0:
            out = xp.sum(x != 0, axis=axes, keepdims=self.keepdim)
        else:
            out = xp.sum(xp.abs(x) ** p, axis=axes, keepdims=self.keepdim) ** (1.0 / p)
        return xp.asarray(out, dtype=x.dtype)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        (y,) = self.saved_outputs()
        xp = get_array_module(x._data)
        kept = tuple(1 if i in self.axes else n for i, n in enumerate(x._data.shape))
        if not self.keepdim:
            gy = Reshape(kept).apply(gy)
            y = Reshape(kept).apply(y)
        p = self.p
        sign = xp.sign(x._data)
        if p == 0:
            return Tensor._wrap(xp.zeros_like(x._data))
        if p == 1:
            return gy * Tensor._wrap(sign)
        if p in (math.inf, -math.inf):
            ties = xp.abs(x._data) == y._data
            share = sign * ties / xp.sum(ties, axis=self.axes, keepdims=True)
            return gy * Tensor._wrap(share.astype(x._data.dtype, copy=False))
        # A zero norm has zero gradient (as in PyTorch), not 0/0.
        zero = y._data == 0
        one = Tensor._wrap(xp.ones((), dtype=y._data.dtype))
        safe = Where(zero).apply(one, y) if zero.any() else y
        if p == 2:
            return x * (gy / safe)
        return Tensor._wrap(sign) * x.abs() ** (p - 1) * (gy / safe ** (p - 1))


def _axes(axis: int | Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(int(a) for a in axis)
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"norm: axis {a} is out of range for a tensor with {ndim} dims")
    return tuple(sorted({a % ndim for a in axes}))


def _p_value(p: object) -> float:
    if isinstance(p, str):
        if p in ("inf", "-inf"):
            return float(p)
        raise ValueError(f"norm: unknown p {p!r}")
    return float(p)


def vector_norm(
    x: Tensor,
    p: float = 2.0,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """The p-norm of `x` over `axis` (all elements when None): `sum(|x|^p)^(1/p)`, with
    p = inf / -inf the largest / smallest magnitude and p = 0 the count of non-zeros.

    `x`: float32/float64, or complex64/complex128, whose norm is that of its magnitudes and is
    real (float32 for complex64), as in Paddle.

        framework.linalg.vector_norm(framework.to_tensor([3 + 4j, 0j]))   # 5.0 (float32)
    """
    if x._data.dtype.kind == "c":
        x = x.abs()  # |z| carries the complex gradient z / |z| back to x
    if x._data.dtype.kind != "f":
        raise TypeError(f"norm: expects a floating point or complex tensor, got {x.dtype}")
    return VectorNorm(_p_value(p), _axes(axis, x._data.ndim), bool(keepdim)).apply(x)


def _matrix_norm(x: Tensor, p: object, axes: tuple[int, ...], keepdim: bool) -> Tensor:
    if x._data.dtype.kind == "c" and p not in ("nuc", 2, -2, 2.0, -2.0):
        x = x.abs()  # the entrywise norms of a complex matrix are those of its magnitudes
    if p == "fro":
        return VectorNorm(2.0, axes, keepdim).apply(x)
    value = _p_value(p) if not isinstance(p, str) or p in ("inf", "-inf") else None
    if value in (1.0, -1.0, math.inf, -math.inf):
        # 1-norms take the extreme column sum, inf-norms the extreme row sum.
        rows, cols = axes
        summed, reduced = (rows, cols) if abs(value) == 1.0 else (cols, rows)
        sums = VectorNorm(1.0, (summed,), True).apply(x)
        extreme = sums.max if value > 0 else sums.min
        out = extreme(axis=reduced, keepdim=True)
        if keepdim:
            return out
        shape = tuple(n for i, n in enumerate(x._data.shape) if i not in axes)
        return Reshape(shape).apply(out)
    if p == "nuc" or value in (2.0, -2.0):
        # Spectral and nuclear norms come from the singular values of the moved-last dims.
        values = svdvals(moveaxis(x, list(axes), [-2, -1]))
        if p == "nuc":
            out = values.sum(axis=-1)
        else:
            out = values.max(axis=-1) if value > 0 else values.min(axis=-1)
        if keepdim:
            for axis in sorted(axes):
                out = out.unsqueeze(axis)
        return out
    raise ValueError(
        f"norm: matrix norm p={p!r} is not supported; use 'fro', 'nuc', 1, -1, 2, -2, inf or -inf"
    )


def norm(
    x: Tensor,
    p: float | str | None = None,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    dtype: object = None,
    name: str | None = None,
) -> Tensor:
    """Paddle's `norm`: a vector p-norm, or a matrix norm when `axis` names two dims (or `p`
    is a matrix-norm string).

    `p=None` and `p='fro'` give the 2-norm of the flattened tensor (or over an int `axis`), the
    Frobenius norm over a 2-element `axis`. Numbers (including `inf`, `-inf`, 0) are vector
    norms unless `axis` has two dims, where 1, -1, inf and -inf are the matrix norms.

        x = framework.to_tensor([[3.0, 4.0], [0.0, 0.0]])
        framework.linalg.norm(x)                 # 5.0
        framework.linalg.norm(x, p=1, axis=1)    # [7.0, 0.0]
    """
    if dtype is not None:
        x = cast(x, dtypes.convert_dtype(dtype))
    if isinstance(axis, list | tuple) and len(axis) == 1:
        axis = axis[0]
    two_axes = isinstance(axis, list | tuple) and len(axis) == 2
    if p is None or (p == "fro" and not two_axes):
        return vector_norm(x, 2.0, axis, keepdim)
    if isinstance(p, str) and p not in ("inf", "-inf"):
        axes = _axes(axis, x._data.ndim)
        if len(axes) != 2:
            raise ValueError(f"norm: p={p!r} is a matrix norm and needs two axes, got {axis}")
        return _matrix_norm(x, p, tuple(a % x._data.ndim for a in axis or axes), keepdim)
    if two_axes:
        ndim = x._data.ndim
        return _matrix_norm(x, p, tuple(int(a) % ndim for a in axis), keepdim)
    return vector_norm(x, p, axis, keepdim)


def matrix_norm(
    x: Tensor,
    p: float | str = "fro",
    axis: Sequence[int] = (-2, -1),
    keepdim: bool = False,
    name: str | None = None,
) -> Tensor:
    """A matrix norm over the two dims `axis` of `x` (float or complex, at least 2-D; the
    norm of a complex matrix is real).

    `p`: 'fro' (Frobenius), 'nuc' (nuclear: the sum of singular values), 1 / -1 (largest /
    smallest absolute column sum), inf / -inf (row sums), 2 / -2 (largest / smallest singular
    value). The two dims are removed unless `keepdim`. Differentiable.

        x = framework.to_tensor([[3.0, 0.0], [0.0, -4.0]])
        framework.linalg.matrix_norm(x, p="nuc")   # 7.0
    """
    if x._data.dtype.kind not in "fc":
        raise TypeError(f"matrix_norm: expects a floating point or complex tensor, got {x.dtype}")
    axes = tuple(int(a) for a in axis)
    if len(axes) != 2:
        raise ValueError(f"matrix_norm: axis must name two dims, got {axis}")
    ndim = x._data.ndim
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"matrix_norm: axis {a} is out of range for {ndim} dims")
    axes = (axes[0] % ndim, axes[1] % ndim)
    if axes[0] == axes[1]:
        raise ValueError(f"matrix_norm: axis must name two different dims, got {axis}")
    return _matrix_norm(x, p, axes, bool(keepdim))
