"""Greedy CTC decoding of a recognizer's per-step class probabilities."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def ctc_greedy_decode(
    probs: np.ndarray, characters: Sequence[str], blank: int = 0
) -> list[tuple[str, float]]:
    """Best class per time step, repeats merged, blanks dropped.

    Args:
        probs: `[N, T, C]` float probabilities (or scores: only argmax and max are used).
        characters: the `C` class names, `characters[blank]` being the blank.

    Returns `[(text, score), ...]`, the score being the mean probability of the kept steps
    (0 for an empty line).

        ctc_greedy_decode(np.eye(3)[None, [1, 1, 0, 2]], ["-", "a", "b"])  # [("ab", 1.0)]
    """
    probs = np.asarray(probs)
    if probs.ndim != 3 or probs.shape[2] != len(characters):
        raise ValueError(
            f"probs must be [N, T, {len(characters)}] for {len(characters)} characters, "
            f"got {probs.shape}"
        )
    best = probs.argmax(axis=2)
    best_prob = probs.max(axis=2)
    keep = np.ones(best.shape, dtype=bool)
    keep[:, 1:] = best[:, 1:] != best[:, :-1]
    keep &= best != blank
    results = []
    for row, row_prob, row_keep in zip(best, best_prob, keep, strict=True):
        text = "".join(characters[i] for i in row[row_keep])
        score = float(np.mean(row_prob[row_keep])) if row_keep.any() else 0.0
        results.append((text, score))
    return results
