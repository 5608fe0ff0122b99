"""Input checks shared by the linear-algebra ops: one home for their error messages."""

from __future__ import annotations

from framework.core.tensor import Tensor


def check_float(x: Tensor, op: str, complex_ok: bool = False) -> None:
    """A float tensor; with `complex_ok`, complex64/complex128 too (the ops Paddle runs on
    complex matrices: inv, det, svd, qr, eig)."""
    kind = x._data.dtype.kind
    if kind == "f" or (complex_ok and kind == "c"):
        return
    expected = "float32, float64, complex64 or complex128" if complex_ok else "float32 or float64"
    raise TypeError(f"{op}: expects a {expected} tensor, got {x.dtype}")


def check_matrix(x: Tensor, op: str, complex_ok: bool = False) -> None:
    """A float (or, with `complex_ok`, complex) tensor of shape `[*, m, n]`."""
    check_float(x, op, complex_ok)
    if x._data.ndim < 2:
        raise ValueError(f"{op}: expects a tensor of shape [*, m, n], got {x.shape}")


def check_square(x: Tensor, op: str, complex_ok: bool = False) -> None:
    """A float (or, with `complex_ok`, complex) tensor of shape `[*, n, n]`."""
    check_matrix(x, op, complex_ok)
    if x._data.shape[-1] != x._data.shape[-2]:
        raise ValueError(f"{op}: expects square matrices [*, n, n], got shape {x.shape}")


def check_same_dtype(x: Tensor, y: Tensor, op: str) -> None:
    if x._data.dtype != y._data.dtype:
        raise TypeError(f"{op}: x and y must have the same dtype, got {x.dtype} and {y.dtype}")
