"""Non-finite floats: isnan, isinf, isfinite (bool outputs, no gradient) and nan_to_num."""

from __future__ import annotations

from framework.core.autograd import Function
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


class NanToNum(Function):
    def __init__(self, nan: float, posinf: float | None, neginf: float | None) -> None:
        self.nan = nan
        self.posinf = posinf
        self.neginf = neginf

    def forward(self, x):
        self.retain_inputs(0)
        xp = get_array_module(x)
        return xp.nan_to_num(x, nan=self.nan, posinf=self.posinf, neginf=self.neginf)

    def backward(self, gy: Tensor) -> Tensor:
        (x,) = self.saved_inputs()
        finite = get_array_module(x._data).isfinite(x._data)
        return gy * Tensor._wrap(finite.astype(gy._data.dtype))


def nan_to_num(
    x: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    name: str | None = None,
) -> Tensor:
    """Replace nan by `nan`, +inf by `posinf` and -inf by `neginf` (by default the largest and
    lowest finite values of the dtype). The gradient is 1 at finite elements and 0 elsewhere.

        framework.nan_to_num(framework.to_tensor([np.nan, np.inf, 1.0]))  # [0., 3.4e38, 1.]
    """
    if x._data.dtype.kind != "f":
        return Tensor._wrap(x._data.copy())
    return NanToNum(nan, posinf, neginf).apply(x)
