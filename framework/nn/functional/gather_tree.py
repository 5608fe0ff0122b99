"""`gather_tree`, as in `paddle.nn.functional`: backtrace beam search's per-step choices into
full sequences."""

from __future__ import annotations

import numpy as np

from framework.core.backend import get_array_module, to_numpy
from framework.core.tensor import Tensor


def gather_tree(ids: Tensor, parents: Tensor) -> Tensor:
    """ids, parents `[max_time, batch, beam]` ints (the token chosen at each step and the beam
    it extended) -> `[max_time, batch, beam]` ids, each beam read back from its last step
    through its parents. Integer data, so no gradient.

        F.gather_tree(ids, parents)   # ids[t, b, k] of the path ending in beam k
    """
    if ids.ndim != 3 or list(ids.shape) != list(parents.shape):
        raise ValueError(
            f"gather_tree: ids and parents must share one [max_time, batch, beam] shape, got "
            f"{ids.shape} and {parents.shape}"
        )
    chosen, parent_of = to_numpy(ids._data), to_numpy(parents._data).astype(np.int64)
    steps = chosen.shape[0]
    out = np.empty_like(chosen)
    if steps:
        rows = np.arange(chosen.shape[1])[:, None]
        out[-1] = chosen[-1]
        beam = parent_of[-1]
        for t in range(steps - 2, -1, -1):
            out[t] = chosen[t][rows, beam]
            beam = parent_of[t][rows, beam]
    return Tensor._wrap(get_array_module(ids._data).asarray(out))
