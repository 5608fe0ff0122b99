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


class Generator:
    """A random generator with Paddle's methods: `manual_seed`, `seed`, `initial_seed`,
    `get_state`, `set_state`. `Generator()` is a new, independent stream; the one
    `framework.manual_seed` returns is the global generator every random op draws from.

        g = framework.Generator().manual_seed(7)
        g.initial_seed()   # 7
    """

    def __init__(self, device: object = None) -> None:
        self._is_global = False
        self._seed = _DEFAULT_SEED
        self._rng = np.random.Generator(np.random.PCG64(self._seed))

    @classmethod
    def _global(cls) -> Generator:
        generator = cls.__new__(cls)
        generator._is_global = True
        return generator

    @property
    def rng(self) -> np.random.Generator:
        """The NumPy generator behind it."""
        return _generator if self._is_global else self._rng

    def manual_seed(self, value: int) -> Generator:
        if self._is_global:
            seed(value)
        else:
            self._seed = int(value)
            self._rng = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def seed(self) -> int:
        """Reseed from fresh OS entropy; returns the new seed."""
        value = int(np.random.SeedSequence().entropy % (2**63))
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        return _seed if self._is_global else self._seed

    def get_state(self) -> dict:
        if self._is_global:
            return get_rng_state()
        return {"seed": self._seed, "state": self._rng.bit_generator.state}

    def set_state(self, state: dict) -> Generator:
        if self._is_global:
            set_rng_state(state)
        else:
            self._seed = state["seed"]
            self._rng.bit_generator.state = state["state"]
        return self


def manual_seed(value: int) -> Generator:
    """Seed the global generator (as `framework.seed`) and return it as a `Generator`.

    framework.manual_seed(0).initial_seed()   # 0
    """
    return Generator._global().manual_seed(value)


def get_cuda_rng_state() -> list[dict]:
    """One random state per GPU (an empty list without one), as `paddle.get_cuda_rng_state`.

    Every random op draws from the one CPU generator and moves the draw to its device, so
    each GPU's state is that generator's: restoring it with `set_cuda_rng_state` repeats
    the GPU draws (dropout masks under recompute, say) exactly.

        states = framework.get_cuda_rng_state()   # [] on a machine without a GPU
    """
    return [get_rng_state() for _ in range(backend.device_count())]


def set_cuda_rng_state(state_list: list[dict]) -> None:
    """Restore the states `get_cuda_rng_state` returned (an empty list does nothing).

    framework.set_cuda_rng_state(framework.get_cuda_rng_state())
    """
    if len(state_list) != backend.device_count():
        raise ValueError(
            f"set_cuda_rng_state: got {len(state_list)} states for {backend.device_count()} GPUs"
        )
    if state_list:
        set_rng_state(state_list[0])
