"""Fused CuPy elementwise kernels for the optimizers' GPU update paths.

Every optimizer's GPU update is one kernel launch per parameter that reads the gradient and
rewrites the parameter and its accumulators in place. In a kernel's parameter lists `P` is the
parameter's type (inferred by CuPy) and `A` the accumulator/compute type, fixed per build:
float32 for float16 and float32 parameters, float64 for float64 ones.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from framework.core.backend import elementwise_kernel

_C_TYPES = {"float32": "float", "float64": "double"}


def accumulator_dtype(param_dtype: np.dtype) -> np.dtype:
    """The dtype optimizers keep state and compute in: float32 for float16 parameters."""
    return np.dtype(np.float32) if param_dtype == np.float16 else np.dtype(param_dtype)


@cache
def fused_kernel(name: str, in_params: str, out_params: str, body: str, accumulator: str):
    """Build (once per signature) the kernel `name` with `A` bound to `accumulator`."""
    concrete = re.compile(r"\bA\b")
    return elementwise_kernel(
        concrete.sub(accumulator, in_params),
        concrete.sub(accumulator, out_params),
        f"typedef {_C_TYPES[accumulator]} A; {body}",
        f"framework_{name}_{accumulator}",
    )
