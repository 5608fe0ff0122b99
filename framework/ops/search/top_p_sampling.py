"""`paddle.tensor.top_p_sampling`: nucleus sampling, one token per row of probabilities.

Paddle runs it on GPUs only (its CPU build has no kernel); this follows its documentation and
its GPU kernel's walk: sort a row descending, draw `u` uniform in [0, 1), and take the first
token whose running sum reaches `u * p`. So the tokens past the top-p mass are never drawn,
and the one that crosses `p` only with the share of it inside `p` ('truncated'); with
'non-truncated' the draw covers that token whole (`u` times the mass up to it). A `p` of zero
or less picks the most probable token, as Paddle's documented example shows.
"""

from __future__ import annotations

import numpy as np

from framework.core import backend
from framework.core.random import get_rng
from framework.core.tensor import Tensor

_MODES = ("truncated", "non-truncated")


def _per_row(t: Tensor | None, rows: int, name: str, dtype) -> np.ndarray | None:
    if t is None:
        return None
    values = np.asarray(backend.to_numpy(t._data), dtype=dtype).reshape(-1)
    if values.size != rows:
        raise ValueError(
            f"top_p_sampling: {name} must hold one value per row ({rows}), got {t.shape}"
        )
    return values


def _uniforms(rows: int, seed: int, topp_seed: np.ndarray | None) -> np.ndarray:
    if topp_seed is not None:
        return np.array([np.random.default_rng(int(s)).random() for s in topp_seed])
    rng = get_rng() if seed == -1 else np.random.default_rng(seed)
    return rng.random(rows)


def _draw(probs: np.ndarray, p: float, u: float, truncated: bool) -> int:
    """The position in `probs` (sorted descending) that a draw of `u` lands on."""
    running = np.cumsum(probs, dtype=np.float64)
    if p <= 0 or running[-1] <= 0:
        return 0
    crossing = min(int(np.searchsorted(running, p)), probs.size - 1)
    mass = min(p, running[-1]) if truncated else running[crossing]
    return min(int(np.searchsorted(running, u * mass, side="right")), crossing)


def top_p_sampling(
    x: Tensor,
    ps: Tensor,
    threshold: Tensor | None = None,
    topp_seed: Tensor | None = None,
    seed: int = -1,
    k: int = 0,
    mode: str = "truncated",
    return_top: bool = False,
    name: str | None = None,
) -> tuple[Tensor, ...]:
    """Draw one token id per row of probabilities `x` from its top-p nucleus.

    `x`: `[batch, vocab]` float16/float32/float64 probabilities; `ps`: `[batch]` top-p per
    row; `threshold`: `[batch]`, tokens below it are never drawn; `topp_seed`: `[batch]` int64
    seeds, one per row (else `seed`, else the global generator of `framework.seed`).
    Returns `(value, ids)`, both `[batch, 1]`: the drawn token's probability (dtype of `x`)
    and its id (int64); with `return_top`, also the `k` largest scores `[batch, k]` and their
    ids. Not differentiable.

        x = framework.to_tensor([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]])
        value, ids = framework.tensor.top_p_sampling(x, framework.to_tensor([0.0, 0.0]))
        # ids: [[1], [0]]  (p = 0 takes the most probable token)
    """
    if mode not in _MODES:
        raise ValueError(
            f"top_p_sampling: mode must be 'truncated' or 'non-truncated', got {mode!r}"
        )
    if x.ndim != 2 or x._data.dtype.kind != "f":
        raise ValueError(
            f"top_p_sampling: x must be a 2-D float tensor of probabilities, got {x.dtype} "
            f"of shape {x.shape}"
        )
    rows, vocab = x._data.shape
    probs = np.asarray(backend.to_numpy(x._data), dtype=np.float64)
    p = _per_row(ps, rows, "ps", np.float64)
    floor = _per_row(threshold, rows, "threshold", np.float64)
    seeds = _per_row(topp_seed, rows, "topp_seed", np.int64)
    u = _uniforms(rows, int(seed), seeds)
    order = np.argsort(-probs, axis=1, kind="stable")
    ids = np.empty((rows, 1), dtype=np.int64)
    for row in range(rows):
        ranked = probs[row, order[row]]
        if floor is not None:
            ranked = np.where(ranked >= floor[row], ranked, 0.0)
        ids[row, 0] = order[row, _draw(ranked, p[row], u[row], mode == "truncated")]
    xp = backend.get_array_module(x._data)
    device_ids = xp.asarray(ids)
    out = (
        Tensor._wrap(xp.take_along_axis(x._data, device_ids, axis=1)),
        Tensor._wrap(device_ids),
    )
    if not return_top:
        return out
    top = xp.asarray(order[:, : int(k)])
    return (*out, Tensor._wrap(xp.take_along_axis(x._data, top, axis=1)), Tensor._wrap(top))
