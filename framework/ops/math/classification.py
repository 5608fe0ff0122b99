"""Classifying floats: isnan, isinf, isfinite. Bool outputs, no gradient."""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor


def isnan(x: Tensor, name: str | None = None) -> Tensor:
    """True where `x` is NaN (bool tensor of `x`'s shape)."""
    return Tensor._wrap(get_array_module(x._data).isnan(x._data))


def isinf(x: Tensor, name: str | None = None) -> Tensor:
    """True where `x` is +inf or -inf (bool tensor of `x`'s shape)."""
    return Tensor._wrap(get_array_module(x._data).isinf(x._data))


def isfinite(x: Tensor, name: str | None = None) -> Tensor:
    """True where `x` is neither NaN nor infinite (bool tensor of `x`'s shape)."""
    return Tensor._wrap(get_array_module(x._data).isfinite(x._data))
