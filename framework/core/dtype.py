"""dtypes, named as Paddle names them. A framework dtype is a `numpy.dtype`.

This module is the one home of dtype rules that are not about a single op: names, the default
float dtype, and how real and complex precisions pair up (complex64 <-> float32, complex128 <->
float64). Binary-op promotion builds on it in `framework.ops.math.promotion`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
int8 = np.dtype("int8")
uint8 = np.dtype("uint8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
uint32 = np.dtype("uint32")
uint64 = np.dtype("uint64")
bool_ = np.dtype("bool")
complex64 = np.dtype("complex64")
complex128 = np.dtype("complex128")
half = float16
double = float64
dtype = np.dtype  # `paddle.dtype`: the type every framework dtype is an instance of

_BY_NAME = {
    "float16": float16,
    "half": float16,
    "float32": float32,
    "float": float32,
    "float64": float64,
    "double": float64,
    "int8": int8,
    "uint8": uint8,
    "int16": int16,
    "int32": int32,
    "int64": int64,
    "uint32": uint32,
    "uint64": uint64,
    "bool": bool_,
    "complex64": complex64,
    "complex128": complex128,
}

# The one pairing of real and complex precisions: complex64 holds two float32s.
_COMPLEX_OF = {float32: complex64, float64: complex128, float16: complex64}
_REAL_OF = {complex64: float32, complex128: float64}

_default_dtype = float32


def convert_dtype(dtype: object) -> np.dtype:
    """Accepts 'float32', framework.float32, numpy dtypes and Python types; returns a np.dtype."""
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, str):
        name = dtype.removeprefix("paddle.").removeprefix("framework.")
        if name in _BY_NAME:
            return _BY_NAME[name]
        raise TypeError(f"unknown dtype {dtype!r}; expected one of {sorted(set(_BY_NAME))}")
    if dtype is float:
        return _default_dtype
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    if dtype is complex:
        return default_complex_dtype()
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"unknown dtype {dtype!r}") from None


def is_floating_point(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


def is_complex(dtype: np.dtype) -> bool:
    return dtype.kind == "c"


class ComplexNotSupportedError(RuntimeError, TypeError):
    """An op that has no complex kernel in Paddle was given a complex tensor.

    Paddle raises RuntimeError ("The kernel ... of kernel `relu` is not registered"); the class
    is a TypeError too, since the input's dtype is what is wrong, so either `except` catches it.
    """


def reject_complex_arrays(arrays: Iterable, op: str) -> None:
    """Raise ComplexNotSupportedError naming `op` if any of `arrays` has a complex dtype.

    The one check behind `Function.real_only` and `framework.ops.math.reject_complex`: ops whose
    meaning rests on ordering (max, sort, relu, clip) or that Paddle computes only on reals.
    """
    for array in arrays:
        dtype = getattr(array, "dtype", None)
        if dtype is not None and dtype.kind == "c":
            raise ComplexNotSupportedError(
                f"{op} does not support {dtype.name} input: it is defined on real numbers "
                f"only. Take .real(), .imag(), .abs() or .angle() first to get a real tensor."
            )


def complex_dtype_of(dtype: np.dtype) -> np.dtype:
    """The complex dtype whose parts have `dtype`'s precision: float32 -> complex64, float64 ->
    complex128; a complex dtype is returned as is, and anything else gives the default's.

        complex_dtype_of(float64)   # complex128
    """
    if dtype.kind == "c":
        return dtype
    return _COMPLEX_OF.get(dtype, _COMPLEX_OF[_default_dtype])


def real_dtype_of(dtype: np.dtype) -> np.dtype:
    """The dtype of the real and imaginary parts: complex64 -> float32, complex128 -> float64;
    a real dtype is returned as is (what `abs`, `angle`, `real` and `imag` return).

        real_dtype_of(complex64)   # float32
    """
    return _REAL_OF.get(dtype, dtype)


def set_default_dtype(dtype: object) -> None:
    global _default_dtype
    d = convert_dtype(dtype)
    if not is_floating_point(d):
        raise TypeError(f"the default dtype must be a float type, got {d}")
    _default_dtype = d


def get_default_dtype() -> str:
    return _default_dtype.name


def default_float_dtype() -> np.dtype:
    return _default_dtype


def default_complex_dtype() -> np.dtype:
    """What Python complex numbers become: complex64 under the default float32, complex128 under
    float64 (Paddle's rule)."""
    return _COMPLEX_OF[_default_dtype]


class iinfo:  # noqa: N801 - Paddle's name
    """Machine limits of an integer dtype: `min`, `max`, `bits` and `dtype` (its name).

    framework.iinfo(framework.int32).max  # 2147483647
    """

    def __init__(self, dtype: object) -> None:
        info = np.iinfo(convert_dtype(dtype))
        self.min, self.max, self.bits, self.dtype = (
            int(info.min),
            int(info.max),
            info.bits,
            info.dtype.name,
        )

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


class finfo:  # noqa: N801 - Paddle's name
    """Machine limits of a float dtype: `min`, `max`, `eps`, `resolution`, `smallest_normal`,
    `tiny`, `bits` and `dtype` (its name).

    framework.finfo(framework.float32).eps  # 1.1920928955078125e-07
    """

    def __init__(self, dtype: object) -> None:
        info = np.finfo(convert_dtype(dtype))
        self.min, self.max, self.eps = float(info.min), float(info.max), float(info.eps)
        self.resolution = 10.0**-info.precision  # as Paddle gives it (NumPy: rounded float)
        self.smallest_normal = self.tiny = float(info.smallest_normal)
        self.bits, self.dtype = info.bits, info.dtype.name

    def __repr__(self) -> str:
        return (
            f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
            f"resolution={self.resolution:g}, smallest_normal={self.smallest_normal:g}, "
            f"tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})"
        )
