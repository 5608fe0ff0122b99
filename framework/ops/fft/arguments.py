"""Argument checks and normalisation for `paddle.fft`: Paddle's messages for bad `norm`, `n`,
`s`, `axis` and `axes`, the input dtype rules, and the axes/sizes a transform runs over.

Paddle 3.3 aborts the process on a repeated axis, an empty `axes`/`s` and a 0-d input to the
n-d transforms; here those are ValueErrors instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core import dtype as dtypes
from framework.core.tensor import Tensor
from framework.ops.manipulation.cast import cast

NORMS = ("forward", "backward", "ortho")


def check_norm(norm: object) -> None:
    if norm not in NORMS:
        raise ValueError(f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _is_int(value: object) -> bool:
    # Paddle takes Python ints only (not bool, not NumPy integers).
    return isinstance(value, int) and not isinstance(value, bool)


def check_n(n: object) -> None:
    if not _is_int(n):
        raise ValueError(f"Invalid FFT argument n({n}), it should be an integer.")
    if n <= 0:
        raise ValueError(f"Invalid FFT argument n({n}), it should be positive.")


def check_axis(x: Tensor, axis: object) -> int:
    """`axis` checked against the rank of `x`, returned non-negative."""
    ndim = x._data.ndim
    if not _is_int(axis):
        raise ValueError(f"Invalid FFT axis ({axis}), it should be an integer.")
    if axis < -ndim or axis >= ndim:
        raise ValueError(f"Invalid FFT axis ({axis}), it should be in range [-{ndim}, {ndim})")
    return axis % ndim


def _check_s(x: Tensor, s: object) -> None:
    ndim = x._data.ndim
    if not isinstance(s, Sequence):
        raise ValueError(f"Invalid FFT argument s({s}), it should be a sequence of integers.")
    if len(s) > ndim:
        raise ValueError(
            "Length of FFT argument s should not be larger than the rank of input. "
            f"Received s: {s}, rank of x: {ndim}"
        )
    for size in s:
        if not _is_int(size) or size <= 0:
            raise ValueError(f"FFT sizes {s} contains invalid value ({size})")


def _check_axes(x: Tensor, axes: object) -> list[int]:
    ndim = x._data.ndim
    if not isinstance(axes, Sequence):
        raise ValueError(f"Invalid FFT axes ({axes}), it should be a sequence of integers.")
    if len(axes) > ndim:
        raise ValueError(
            "Length of fft axes should not be larger than the rank of input. "
            f"Received, len of axes: {len(axes)}, rank of x: {ndim}"
        )
    for axis in axes:
        if not _is_int(axis) or axis < -ndim or axis >= ndim:
            raise ValueError(
                f"FFT axes {axes} contains invalid value ({axis}), "
                f"it should be in range [-{ndim}, {ndim})"
            )
    normalized = [axis % ndim for axis in axes]
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"FFT axes {axes} contains a repeated axis")
    return normalized


def axes_and_sizes(x: Tensor, s: object, axes: object) -> tuple[list[int], list[int] | None]:
    """The axes an n-d transform runs over (non-negative, in the caller's order: the last one is
    the half-spectrum axis of the real transforms) and `s` as a list, checked as Paddle does.
    Without `axes`, the last `len(s)` axes, or every axis without `s` either."""
    if s is not None:
        _check_s(x, s)
    ndim = x._data.ndim
    if axes is None:
        count = ndim if s is None else len(s)
        chosen = list(range(ndim - count, ndim))
    else:
        chosen = _check_axes(x, axes)
        if s is not None and len(s) != len(chosen):
            raise ValueError(
                f"Length of s ({len(s)}) and length of axes ({len(chosen)}) does not match."
            )
    if not chosen:
        raise ValueError(f"FFT needs at least one axis to transform; got a {ndim}-d input")
    return chosen, (None if s is None else list(s))


def check_pair(x: Tensor, s: object, axes: object) -> None:
    """The extra checks of the 2-d transforms: a rank of at least 2, two sizes, two axes."""
    if x._data.ndim < 2:
        raise ValueError(f"The rank of the input ({x._data.ndim}) should >= 2")
    if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
        raise ValueError(f"Invalid FFT argument s ({s}), it should be a sequence of 2 integers.")
    if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
        raise ValueError(
            f"Invalid FFT argument axes ({axes}), it should be a sequence of 2 integers."
        )


def _reject_unsupported(x: Tensor, op: str) -> None:
    kind = x._data.dtype.kind
    if kind == "b" or x._data.dtype == dtypes.float16:
        raise TypeError(
            f"{op}: {x._data.dtype.name} input is not supported; the FFT takes float32, float64, "
            "complex64, complex128 or integer tensors"
        )


def as_complex_input(x: Tensor, op: str) -> Tensor:
    """The input of a complex-to-complex transform: floats become the complex dtype of their
    precision, integers the default complex dtype (Paddle's rule)."""
    _reject_unsupported(x, op)
    kind = x._data.dtype.kind
    if kind in "iu":
        return cast(x, dtypes.default_complex_dtype())
    if kind == "f":
        return cast(x, dtypes.complex_dtype_of(x._data.dtype))
    return x


def as_real_input(x: Tensor, op: str) -> Tensor:
    """The input of a real-to-complex transform: integers become the default float dtype; a
    complex tensor is refused, as Paddle's `fft_r2c` kernel refuses it."""
    _reject_unsupported(x, op)
    kind = x._data.dtype.kind
    if kind == "c":
        raise TypeError(
            f"{op}: expects a real (float32, float64 or integer) tensor, got "
            f"{x._data.dtype.name}; use the complex transform (fft, fftn) for complex input"
        )
    if kind in "iu":
        return cast(x, dtypes.default_float_dtype())
    return x


def as_hermitian_input(x: Tensor, op: str) -> Tensor:
    """The input of a complex-to-real transform (irfft, hfft): floats become complex of their
    precision; integers are refused, as Paddle's `fft_c2r` kernel refuses them."""
    _reject_unsupported(x, op)
    kind = x._data.dtype.kind
    if kind in "iu":
        raise TypeError(
            f"{op}: expects a complex or float tensor, got {x._data.dtype.name}; cast it first"
        )
    if kind == "f":
        return cast(x, dtypes.complex_dtype_of(x._data.dtype))
    return x
