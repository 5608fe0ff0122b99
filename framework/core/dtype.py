"""dtypes, named as Paddle names them. A framework dtype is a `numpy.dtype`."""

from __future__ import annotations

import numpy as np

float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
int8 = np.dtype("int8")
uint8 = np.dtype("uint8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
bool_ = np.dtype("bool")

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
    "bool": bool_,
}

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
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"unknown dtype {dtype!r}") from None


def is_floating_point(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


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
