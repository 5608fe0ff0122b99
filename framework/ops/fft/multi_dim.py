"""The n-d and 2-d transforms of `paddle.fft`: fftn, ifftn, rfftn, irfftn, hfftn, ihfftn and
their 2-d forms fft2 ... ihfft2.

Each takes `x`, `s` (the sizes to crop or zero-pad the transformed axes to; for irfftn and
hfftn, the output sizes), `axes` (default: all axes, or the last `len(s)`; the 2-d forms
default to `(-2, -1)`), `norm` ('backward', 'forward' or 'ortho', scaled by the product of the
transformed sizes) and `name`. For the real transforms, the last axis in `axes` is the one
that holds the half spectrum. Every transform is differentiable.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.ops.fft import arguments, dispatch


def _checked(x: Tensor, s, axes, norm: str):
    arguments.check_norm(norm)
    return arguments.axes_and_sizes(x, s, axes)


def _full(x: Tensor, s, axes, norm: str, forward: bool, op: str) -> Tensor:
    """fftn / ifftn: complex input goes complex to complex, real input real to complex."""
    if x._data.dtype.kind == "c":
        chosen, sizes = _checked(x, s, axes, norm)
        return dispatch.c2c(x, sizes, chosen, norm, forward, op)
    x = arguments.as_real_input(x, op)
    chosen, sizes = _checked(x, s, axes, norm)
    return dispatch.r2c(x, sizes, chosen, norm, forward, False, op)


def _half(x: Tensor, s, axes, norm: str, forward: bool, op: str) -> Tensor:
    """rfftn / ihfftn: a real input's half spectrum."""
    x = arguments.as_real_input(x, op)
    chosen, sizes = _checked(x, s, axes, norm)
    return dispatch.r2c(x, sizes, chosen, norm, forward, True, op)


def _from_half(x: Tensor, s, axes, norm: str, forward: bool, op: str) -> Tensor:
    """irfftn / hfftn: a half spectrum to a real output."""
    x = arguments.as_hermitian_input(x, op)
    chosen, sizes = _checked(x, s, axes, norm)
    return dispatch.c2r(x, sizes, chosen, norm, forward, op)


def fftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The n-d discrete Fourier transform over `axes`.

    `x`: float32/float64/complex64/complex128 or integer (taken as the default float).
    Returns complex64 for float32/complex64 input, complex128 otherwise; the shape of `x` with
    `s` points on `axes`.

        x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        paddle.fft.fftn(x).numpy()   # [[10.+0.j -2.+0.j] [-4.+0.j  0.+0.j]]
    """
    return _full(x, s, axes, norm, True, "fftn")


def ifftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The n-d inverse discrete Fourier transform over `axes`; dtypes as `fftn`.

    x = paddle.to_tensor([[10.0, -2.0], [-4.0, 0.0]])
    paddle.fft.ifftn(x).numpy()   # [[1.+0.j 2.+0.j] [3.+0.j 4.+0.j]]
    """
    return _full(x, s, axes, norm, False, "ifftn")


def rfftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The n-d transform of a real `x`, keeping `n//2 + 1` bins on the last axis in `axes`.

    `x`: float32/float64 or integer; complex input is refused. Returns complex64 for
    float32, complex128 for float64.

        x = paddle.ones([2, 4])
        paddle.fft.rfftn(x).numpy()   # [[8.+0.j 0.+0.j 0.+0.j] [0.+0.j 0.+0.j 0.+0.j]]
    """
    return _half(x, s, axes, norm, True, "rfftn")


def irfftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The inverse of `rfftn`: real output with `s` points on `axes` (by default the input's
    sizes, and `2 * (k - 1)` on the last axis of `k` bins).

    `x`: complex64/complex128 or float32/float64 (taken as complex); integers are refused.
    Returns float32 for complex64, float64 for complex128.

        x = paddle.to_tensor([[8 + 0j, 0, 0], [0, 0, 0]])
        paddle.fft.irfftn(x).numpy()   # [[1. 1. 1. 1.] [1. 1. 1. 1.]]
    """
    return _from_half(x, s, axes, norm, False, "irfftn")


def hfftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The n-d transform of a Hermitian-symmetric signal given by its half: a real spectrum.
    Sizes and dtypes as `irfftn`; `hfftn(x) == irfftn(conj(x))` scaled the other way.

        x = paddle.to_tensor([[1 + 0j, 0, 0], [0, 0, 0]])
        paddle.fft.hfftn(x).numpy()   # [[1. 1. 1. 1.] [1. 1. 1. 1.]]
    """
    return _from_half(x, s, axes, norm, True, "hfftn")


def ihfftn(
    x: Tensor, s: Sequence[int] | None = None, axes=None, norm: str = "backward", name=None
) -> Tensor:
    """The inverse of `hfftn`: the inverse transform of a real `x`, keeping `n//2 + 1` bins on
    the last axis in `axes`. Dtypes as `rfftn`.

        x = paddle.ones([2, 4])
        paddle.fft.ihfftn(x).numpy()   # [[1.-0.j 0.-0.j 0.-0.j] [0.-0.j 0.-0.j 0.-0.j]]
    """
    return _half(x, s, axes, norm, False, "ihfftn")


def fft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`fftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float64")
    paddle.fft.fft2(x).numpy()   # [[10.+0.j -2.+0.j] [-4.+0.j  0.+0.j]] complex128
    """
    arguments.check_pair(x, s, axes)
    return _full(x, s, axes, norm, True, "fft2")


def ifft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`ifftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.to_tensor([[10.0, -2.0], [-4.0, 0.0]])
    paddle.fft.ifft2(x).numpy()   # [[1.+0.j 2.+0.j] [3.+0.j 4.+0.j]]
    """
    arguments.check_pair(x, s, axes)
    return _full(x, s, axes, norm, False, "ifft2")


def rfft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`rfftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.ones([2, 4])
    paddle.fft.rfft2(x).shape   # [2, 3]
    """
    arguments.check_pair(x, s, axes)
    return _half(x, s, axes, norm, True, "rfft2")


def irfft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`irfftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.to_tensor([[8 + 0j, 0, 0], [0, 0, 0]])
    paddle.fft.irfft2(x).shape   # [2, 4] float32
    """
    arguments.check_pair(x, s, axes)
    return _from_half(x, s, axes, norm, False, "irfft2")


def hfft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`hfftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.to_tensor([[1 + 0j, 0, 0], [0, 0, 0]])
    paddle.fft.hfft2(x).shape   # [2, 4] float32
    """
    arguments.check_pair(x, s, axes)
    return _from_half(x, s, axes, norm, True, "hfft2")


def ihfft2(x: Tensor, s=None, axes=(-2, -1), norm: str = "backward", name=None) -> Tensor:
    """`ihfftn` over two axes (default the last two); `x` needs at least 2 dims.

    x = paddle.ones([2, 4])
    paddle.fft.ihfft2(x).shape   # [2, 3] complex64
    """
    arguments.check_pair(x, s, axes)
    return _half(x, s, axes, norm, False, "ihfft2")
