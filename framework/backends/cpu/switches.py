"""The `SAMPAN_*` environment switches of the CPU runtime, read through one typed helper.

Each native library is loaded lazily, once; its loader asks here whether it may load. A value
that is not one of the allowed spellings is an error rather than a silent "on": a typo in a
deployment's environment must not leave a library running that the operator meant to turn off.
"""

from __future__ import annotations

import os

_ON = ("1", "on", "true", "yes")
_OFF = ("0", "off", "false", "no")

ONEDNN = "SAMPAN_ONEDNN"  # oneDNN convolutions and batch norm (`onednn`)
MKL = "SAMPAN_MKL"  # MKL's GEMMs (`gemm`) and, through them, its threaded scal/axpy
VECTOR_BLAS = "SAMPAN_VECTOR_BLAS"  # the optimizers' BLAS scal/axpy route (`vector_blas`)


def flag(name: str, default: bool = True) -> bool:
    """The on/off switch `name` from the environment: `default` when unset or empty.

    Accepts (case-insensitively, spaces stripped) 1/on/true/yes and 0/off/false/no; anything else
    raises a ValueError naming the variable and the allowed values."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    value = raw.strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    allowed = ", ".join(_ON + _OFF)
    raise ValueError(f"{name}={raw!r} is not a switch value; allowed: {allowed}")


def onednn_enabled() -> bool:
    return flag(ONEDNN)


def mkl_enabled() -> bool:
    return flag(MKL)


def vector_blas_enabled() -> bool:
    return flag(VECTOR_BLAS)
