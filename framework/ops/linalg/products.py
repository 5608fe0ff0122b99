"""More products: multi_dot, matrix_power, mv, inner, tensordot, kron, cross, vecdot, addmm,
baddbmm, matrix_transpose.

All are compositions of matmul, elementwise ops and reshapes, so their gradients (of any
order) come from those ops' backwards.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.operands import as_operands
from framework.core.tensor import Tensor
from framework.ops.linalg.matmul import matmul
from framework.ops.linalg.matrix_checks import check_same_dtype, check_square
from framework.ops.linalg.solve import inv
from framework.ops.manipulation.join import stack
from framework.ops.manipulation.shape import Reshape
from framework.ops.manipulation.transpose import moveaxis, swapped_last_dims, transpose


def matrix_transpose(x: Tensor, name: str | None = None) -> Tensor:
    """`x` with its last two dims swapped: `[*, m, n]` gives `[*, n, m]`."""
    return swapped_last_dims(x)


def _chain_order(shapes: list[tuple[int, int]]) -> list[list[int]]:
    """The cheapest parenthesisation of a matrix chain (the classic O(n^3) table)."""
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(x: Sequence[Tensor], name: str | None = None) -> Tensor:
    """The product of a chain of matrices, multiplied in the cheapest order.

    The first tensor may be 1-D (a row vector) and the last 1-D (a column vector); the others
    are 2-D. Same dtype as the inputs.

        a, b, c = framework.randn([10, 100]), framework.randn([100, 5]), framework.randn([5])
        framework.linalg.multi_dot([a, b, c]).shape   # [10]
    """
    tensors = list(x)
    if len(tensors) < 2:
        raise ValueError(f"multi_dot: needs at least 2 tensors, got {len(tensors)}")
    first, last = tensors[0], tensors[-1]
    matrices = [Reshape((1, -1)).apply(first) if first._data.ndim == 1 else first]
    matrices += tensors[1:-1]
    matrices.append(Reshape((-1, 1)).apply(last) if last._data.ndim == 1 else last)
    for i, t in enumerate(matrices):
        check_same_dtype(matrices[0], t, "multi_dot")
        if t._data.ndim != 2:
            raise ValueError(f"multi_dot: tensor {i} must be 2-D (1-D only first or last)")
        if i and matrices[i - 1]._data.shape[1] != t._data.shape[0]:
            raise ValueError(
                f"multi_dot: shapes {matrices[i - 1].shape} and {t.shape} do not chain"
            )
    split = _chain_order([t._data.shape for t in matrices])

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return matrices[i]
        k = split[i][j]
        return matmul(product(i, k), product(k + 1, j))

    out = product(0, len(matrices) - 1)
    keep = (first._data.ndim > 1, last._data.ndim > 1)
    shape = [n for n, kept in zip(out._data.shape, keep, strict=True) if kept]
    return Reshape(tuple(shape)).apply(out)


def matrix_power(x: Tensor, n: int, name: str | None = None) -> Tensor:
    """`x` multiplied by itself `n` times, by repeated squaring: `[*, k, k]` gives `[*, k, k]`.
    `n = 0` gives identities and a negative `n` powers of the inverse.

        framework.linalg.matrix_power(framework.to_tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
        # [[1, 3], [0, 1]]
    """
    check_square(x, "matrix_power")
    n = int(n)
    if n == 0:
        xp = get_array_module(x._data)
        eye = Tensor._wrap(xp.eye(x._data.shape[-1], dtype=x._data.dtype))
        # Kept on the graph (a zero gradient), as Paddle keeps it.
        return x * 0.0 + eye
    base = inv(x) if n < 0 else x
    n = abs(n)
    result = None
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def mv(x: Tensor, vec: Tensor, name: str | None = None) -> Tensor:
    """Matrix-vector product: `x [m, n]` times `vec [n]` gives `[m]`."""
    if x._data.ndim != 2 or vec._data.ndim != 1:
        raise ValueError(f"mv: expects a matrix and a vector, got {x.shape} and {vec.shape}")
    return matmul(x, vec)


def inner(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Sums of products over the last dims: `[*a, k]` and `[*b, k]` give `[*a, *b]` (a 0-D
    input scales the other).

        framework.inner(framework.to_tensor([1.0, 2.0]), framework.to_tensor([3.0, 4.0]))   # 11.0
    """
    x, y = as_operands(x, y)
    if x._data.ndim == 0 or y._data.ndim == 0:
        return x * y
    k = x._data.shape[-1]
    if y._data.shape[-1] != k:
        raise ValueError(f"inner: the last dims of {x.shape} and {y.shape} differ")
    out = matmul(Reshape((-1, k)).apply(x), Reshape((-1, k)).apply(y), transpose_y=True)
    return Reshape(tuple(x._data.shape[:-1] + y._data.shape[:-1])).apply(out)


def _tensordot_axes(axes, x_ndim: int, y_ndim: int) -> tuple[list[int], list[int]]:
    if isinstance(axes, Tensor):
        axes = axes.tolist()
    if isinstance(axes, int):
        return list(range(x_ndim - axes, x_ndim)), list(range(axes))
    axes = list(axes)
    if axes and all(isinstance(a, int) for a in axes):
        return axes, list(axes)
    if len(axes) == 1:
        axes = [axes[0], axes[0]]
    x_axes, y_axes = list(axes[0]), list(axes[1])
    # Paddle pads the shorter list with the other's trailing entries.
    if len(x_axes) < len(y_axes):
        x_axes += y_axes[len(x_axes) :]
    elif len(y_axes) < len(x_axes):
        y_axes += x_axes[len(y_axes) :]
    return x_axes, y_axes


def tensordot(x: Tensor, y: Tensor, axes: int | Sequence = 2, name: str | None = None) -> Tensor:
    """Contract `x` and `y` over the given axes (NumPy's tensordot, with Paddle's forms of
    `axes`: an int `n` for the last `n` dims of `x` with the first `n` of `y`, one list for
    both, or two lists). The free dims of `x` then of `y` form the result.

        framework.tensordot(framework.ones([3, 4, 5]), framework.ones([4, 5, 2])).shape   # [3, 2]
    """
    x, y = as_operands(x, y)
    x_axes, y_axes = _tensordot_axes(axes, x._data.ndim, y._data.ndim)
    x_axes = [a % x._data.ndim for a in x_axes]
    y_axes = [a % y._data.ndim for a in y_axes]
    for a, b in zip(x_axes, y_axes, strict=True):
        if x._data.shape[a] != y._data.shape[b]:
            raise ValueError(f"tensordot: dim {a} of {x.shape} and {b} of {y.shape} differ")
    x_free = [i for i in range(x._data.ndim) if i not in x_axes]
    y_free = [i for i in range(y._data.ndim) if i not in y_axes]
    size = 1
    for a in x_axes:
        size *= x._data.shape[a]
    a = Reshape((-1, size)).apply(transpose(x, x_free + x_axes))
    b = Reshape((size, -1)).apply(transpose(y, y_axes + y_free))
    shape = [x._data.shape[i] for i in x_free] + [y._data.shape[i] for i in y_free]
    return Reshape(tuple(shape)).apply(matmul(a, b))


def kron(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """The Kronecker product: block `(i, j, ...)` of the result is `x[i, j, ...] * y`.
    Shapes are right-aligned; each result dim is the product of the two.

        framework.kron(framework.eye(2), framework.ones([2, 2])).shape   # [4, 4]
    """
    x, y = as_operands(x, y)
    ndim = max(x._data.ndim, y._data.ndim)
    xs = (1,) * (ndim - x._data.ndim) + tuple(x._data.shape)
    ys = (1,) * (ndim - y._data.ndim) + tuple(y._data.shape)
    # Interleave: x as [x0, 1, x1, 1, ...], y as [1, y0, 1, y1, ...]; the product broadcasts.
    xi = Reshape(tuple(d for n in xs for d in (n, 1))).apply(x)
    yi = Reshape(tuple(d for n in ys for d in (1, n))).apply(y)
    return Reshape(tuple(a * b for a, b in zip(xs, ys, strict=True))).apply(xi * yi)


def _cross_axis(x: Tensor, axis: int) -> int:
    ndim = x._data.ndim
    if axis == 9:  # Paddle's default: the first dim of size 3
        for i, n in enumerate(x._data.shape):
            if n == 3:
                return i
        raise ValueError(f"cross: no dim of size 3 in shape {x.shape}")
    if not -ndim <= axis < ndim or x._data.shape[axis] != 3:
        raise ValueError(f"cross: axis {axis} of shape {x.shape} must exist and have size 3")
    return axis % ndim


def cross(x: Tensor, y: Tensor, axis: int = 9, name: str | None = None) -> Tensor:
    """The cross product of 3-vectors along `axis` (by default the first dim of size 3).
    `x` and `y` have one shape; so has the result.

        framework.cross(framework.to_tensor([1.0, 0, 0]), framework.to_tensor([0.0, 1, 0]))
        # [0, 0, 1]
    """
    x, y = as_operands(x, y)
    if x._data.shape != y._data.shape:
        raise ValueError(f"cross: x and y must have one shape, got {x.shape} and {y.shape}")
    axis = _cross_axis(x, int(axis))
    a, b = moveaxis(x, axis, -1), moveaxis(y, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(out, -1, axis)


def vecdot(x: Tensor, y: Tensor, axis: int = -1, name: str | None = None) -> Tensor:
    """The dot product of vectors along `axis`, broadcasting the other dims.

    framework.linalg.vecdot(framework.ones([2, 3]), framework.ones([3]))   # [3., 3.]
    """
    x, y = as_operands(x, y)
    return (x * y).sum(axis=axis)


def addmm(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    x: Tensor,
    y: Tensor,
    beta: float = 1.0,
    alpha: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """`beta * input + alpha * (x @ y)` for matrices `x [m, k]`, `y [k, n]`; `input`
    broadcasts to `[m, n]`."""
    if x._data.ndim != 2 or y._data.ndim != 2:
        raise ValueError(f"addmm: x and y must be 2-D, got {x.shape} and {y.shape}")
    return input * beta + matmul(x, y) * alpha


def baddbmm(
    input: Tensor,  # noqa: A002 - Paddle's argument name
    x: Tensor,
    y: Tensor,
    beta: float = 1.0,
    alpha: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """`beta * input + alpha * (x @ y)` for batches `x [b, m, k]`, `y [b, k, n]`; `input`
    broadcasts to `[b, m, n]`."""
    if x._data.ndim != 3 or y._data.ndim != 3:
        raise ValueError(f"baddbmm: x and y must be 3-D, got {x.shape} and {y.shape}")
    return input * beta + matmul(x, y) * alpha
