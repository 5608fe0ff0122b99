"""The 1-d transforms of `paddle.fft`: fft, ifft, rfft, irfft, hfft, ihfft.

Each takes `x`, `n` (crop or zero-pad the transformed axis to `n` points; for irfft and hfft,
`n` is the output length), `axis` (default -1), `norm` and `name`. `norm` says which direction
is scaled: 'backward' (the default) scales the inverse by `1/n`, 'forward' the forward
transform, 'ortho' both by `1/sqrt(n)`. Every transform is differentiable.
"""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.fft import arguments, dispatch


def _one_axis(x: Tensor, n: int | None, axis: int, norm: str) -> tuple[list[int], list | None]:
    arguments.check_norm(norm)
    axes = [arguments.check_axis(x, -1 if axis is None else axis)]
    if n is not None:
        arguments.check_n(n)
    return axes, None if n is None else [n]


def fft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The 1-d discrete Fourier transform of `x` along `axis`.

    `x`: float32/float64/complex64/complex128, or an integer tensor (taken as the default
    float). Returns complex64 for float32/complex64 input, complex128 for float64/complex128;
    the shape of `x` with `n` points on `axis`.

        import numpy as np
        x = np.exp(3j * np.pi * np.arange(7) / 7)
        paddle.fft.fft(paddle.to_tensor(x)).numpy().round(3)
        # [1.+1.254j 1.+4.381j 1.-4.381j 1.-1.254j 1.-0.482j 1.+0.j 1.+0.482j]
    """
    if x._data.dtype.kind == "c":
        axes, sizes = _one_axis(x, n, axis, norm)
        return dispatch.c2c(x, sizes, axes, norm, True, "fft")
    x = arguments.as_real_input(x, "fft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.r2c(x, sizes, axes, norm, True, False, "fft")


def ifft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The 1-d inverse discrete Fourier transform of `x` along `axis`; dtypes as `fft`.

    import numpy as np
    x = np.exp(3j * np.pi * np.arange(7) / 7)
    paddle.fft.ifft(paddle.to_tensor(x)).numpy().round(3)
    # [0.143+0.179j 0.143+0.069j 0.143+0.j 0.143-0.069j 0.143-0.179j 0.143-0.626j
    #  0.143+0.626j]
    """
    if x._data.dtype.kind == "c":
        axes, sizes = _one_axis(x, n, axis, norm)
        return dispatch.c2c(x, sizes, axes, norm, False, "ifft")
    x = arguments.as_real_input(x, "ifft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.r2c(x, sizes, axes, norm, False, False, "ifft")


def rfft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The 1-d transform of a real `x`: the `n//2 + 1` non-negative frequency bins.

    `x`: float32/float64 or integer (taken as the default float); complex input is refused.
    Returns complex64 for float32, complex128 for float64; `n//2 + 1` bins on `axis`.

        x = paddle.to_tensor([0.0, 1.0, 0.0, 0.0])
        paddle.fft.rfft(x).numpy()   # [ 1.+0.j  0.-1.j -1.+0.j]
    """
    x = arguments.as_real_input(x, "rfft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.r2c(x, sizes, axes, norm, True, True, "rfft")


def irfft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The inverse of `rfft`: a half spectrum of `k` bins to a real signal of `n` points
    (default `2 * (k - 1)`; pass `n` for an odd length).

    `x`: complex64/complex128 or float32/float64 (taken as complex); integers are refused, as
    in Paddle. Returns float32 for complex64, float64 for complex128.

        x = paddle.to_tensor([1, -1j, -1])
        paddle.fft.irfft(x).numpy()   # [0. 1. 0. 0.]
    """
    x = arguments.as_hermitian_input(x, "irfft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.c2r(x, sizes, axes, norm, False, "irfft")


def hfft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The transform of a signal with Hermitian symmetry, given by its first `k` points: a real
    spectrum of `n` points (default `2 * (k - 1)`). Dtypes as `irfft`.

        x = paddle.to_tensor([1, -1j, -1])
        paddle.fft.hfft(x).numpy()   # [0. 0. 0. 4.]
    """
    x = arguments.as_hermitian_input(x, "hfft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.c2r(x, sizes, axes, norm, True, "hfft")


def ihfft(
    x: Tensor, n: int | None = None, axis: int = -1, norm: str = "backward", name=None
) -> Tensor:
    """The inverse of `hfft`: the first `n//2 + 1` bins of the inverse transform of a real `x`.
    Dtypes as `rfft`.

        x = paddle.to_tensor([0.0, 0.0, 0.0, 4.0])
        paddle.fft.ihfft(x).numpy()   # [ 1.-0.j  0.+1.j -1.-0.j]
    """
    x = arguments.as_real_input(x, "ihfft")
    axes, sizes = _one_axis(x, n, axis, norm)
    return dispatch.r2c(x, sizes, axes, norm, False, True, "ihfft")
