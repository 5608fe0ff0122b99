"""dtype rules for elementwise math: mixed-dtype operands and integer inputs to float math.

Paddle promotes only between float dtypes (float32 + float64 -> float64), from real to
complex dtypes (float64 + complex64 -> complex128), and raises for int + float tensors. We
accept a superset that never surprises: the result is the wider float when both are floats,
the float when one is a float (an int64 tensor meeting a float32 tensor computes in float32,
not NumPy's float64), a complex one when either is complex, and NumPy's promotion between
integers and bools.
"""

from __future__ import annotations

import numpy as np

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor


def result_dtype(a: np.dtype, b: np.dtype) -> np.dtype:
    """The dtype a binary op on tensors of dtypes `a` and `b` computes in.

    With a complex operand the result is complex, with parts as wide as the widest float of
    either side (Paddle's rule): float32 + complex64 -> complex64, float64 + complex64 ->
    complex128, int64 + complex64 -> complex64.
    """
    if a.kind == "c" or b.kind == "c":
        parts = [dtypes.real_dtype_of(d) for d in (a, b) if d.kind in "fc"]
        return dtypes.complex_dtype_of(parts[0] if len(parts) == 1 else max(parts))
    a_float, b_float = a.kind == "f", b.kind == "f"
    if a_float != b_float:
        return a if a_float else b
    return np.promote_types(a, b)


def promote(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """Cast whichever operand differs from the common dtype (differentiably for floats)."""
    target = result_dtype(x._data.dtype, y._data.dtype)
    return cast_to(x, target), cast_to(y, target)


def as_float(x: Tensor) -> Tensor:
    """Integer and bool tensors enter float math (exp, sqrt, ...) in the default float dtype,
    as Paddle's autocast does. Such tensors carry no gradient, so no graph is needed."""
    if x._data.dtype.kind in "biu":
        return Tensor._wrap(x._data.astype(dtypes.default_float_dtype()))
    return x


def as_float_pair(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """Both operands of true division and friends: ints become the default float."""
    if x._data.dtype.kind in "biu" and y._data.dtype.kind in "biu":
        return as_float(x), as_float(y)
    return x, y


def cast_to(x: Tensor, target: np.dtype) -> Tensor:
    """`x` in dtype `target`; a float tensor that needs a gradient is cast differentiably."""
    if x._data.dtype == target:
        return x
    # Always through `cast` (owned there): differentiable for floats, and seen by jit traces.
    from framework.ops.manipulation import cast

    return cast(x, target)
