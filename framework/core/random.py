"""The global random state. `framework.seed(n)` makes CPU runs bit-for-bit repeatable."""

from __future__ import annotations

import numpy as np

from framework.core import backend

_DEFAULT_SEED = 0
_generator = np.random.Generator(np.random.PCG64(_DEFAULT_SEED))
_seed = _DEFAULT_SEED


def seed(value: int) -> np.random.Generator:
    """Reseed every generator the framework draws from (CPU, and the GPU when present)."""
    global _generator, _seed
    _seed = int(value)
    _generator = np.random.Generator(np.random.PCG64(_seed))
    if backend.is_compiled_with_cuda():
        backend.cupy.random.seed(_seed)
    return _generator


def get_rng() -> np.random.Generator:
    """The CPU generator. Draw on the CPU and move to the device, so results do not depend on
    the device; ops that need speed on the GPU may use `get_cuda_rng()` instead."""
    return _generator


def get_cuda_rng():
    return backend.cupy.random.get_random_state()


def get_rng_state() -> dict:
    return {"seed": _seed, "state": _generator.bit_generator.state}


def set_rng_state(state: dict) -> None:
    global _seed
    _seed = state["seed"]
    _generator.bit_generator.state = state["state"]
