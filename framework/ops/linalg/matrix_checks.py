"""Input checks shared by the linear-algebra ops: one home for their error messages."""

from __future__ import annotations

from framework.core.tensor import Tensor


def check_float(x: Tensor, op: str) -> None:
    if x._data.dtype.kind != "f":
        raise TypeError(f"{op}: expects a float32 or float64 tensor, got {x.dtype}")


def check_matrix(x: Tensor, op: str) -> None:
    """A float tensor of shape `[*, m, n]`."""
    check_float(x, op)
    if x._data.ndim < 2:
        raise ValueError(f"{op}: expects a tensor of shape [*, m, n], got {x.shape}")


def check_square(x: Tensor, op: str) -> None:
    """A float tensor of shape `[*, n, n]`."""
    check_matrix(x, op)
    if x._data.shape[-1] != x._data.shape[-2]:
        raise ValueError(f"{op}: expects square matrices [*, n, n], got shape {x.shape}")


def check_same_dtype(x: Tensor, y: Tensor, op: str) -> None:
    if x._data.dtype != y._data.dtype:
        raise TypeError(f"{op}: x and y must have the same dtype, got {x.dtype} and {y.dtype}")
