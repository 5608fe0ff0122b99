"""The numbers an export page shows: parity with the trained model, latency, accuracy."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

# float32 [N, C, H, W] -> the graph's outputs: [logits [N, classes]] for a classifier,
# [boxes [N, A, 4], scores [N, C, A]] for a detector.
Runner = Callable[[np.ndarray], list[np.ndarray]]

# A float export matches when no output differs by more than this, relative to the outputs'
# scale (float32 arithmetic in another order differs by ~1e-6).
FLOAT_TOLERANCE = 1e-3
# An INT8 export passes when it picks the trained model's class (multi-label: its whole label
# set) this often.
INT8_MIN_AGREEMENT = 0.95
LATENCY_BATCHES = (1, 32)


@dataclass(frozen=True)
class Parity:
    max_abs_diff: float
    top1_agreement: float
    samples: int
    passed: bool
    label_set_agreement: float | None = None  # multi-label only


def as_outputs(value: Any) -> list[np.ndarray]:
    """A network's or runtime's result (a Tensor, an array, or a tuple of them) as arrays."""
    items = value if isinstance(value, list | tuple) else [value]
    return [np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in items]


def run_batched(run: Runner, inputs: np.ndarray, batch: int = 32) -> list[np.ndarray]:
    """Every output of `run` over `inputs` in batches, float64, concatenated along the batch."""
    parts = [run(inputs[i : i + batch]) for i in range(0, len(inputs), batch)]
    return [
        np.concatenate([np.asarray(p[k], np.float64) for p in parts]) for k in range(len(parts[0]))
    ]


def reference_outputs(network: object, inputs: np.ndarray) -> list[np.ndarray]:
    """The trained (eager) network's outputs."""
    import framework

    def run(batch: np.ndarray) -> list[np.ndarray]:
        with framework.no_grad():
            return as_outputs(network(framework.to_tensor(batch)))  # type: ignore[operator]

    return run_batched(run, inputs)


def label_set_agreement(
    reference: np.ndarray, exported: np.ndarray, thresholds: np.ndarray
) -> float:
    """Multi-label: the share of images given the same label set (every class whose sigmoid
    score reaches its threshold) by both models' logits."""
    if not len(reference):
        return 1.0
    from framework.inference.packaged_model import sigmoid

    same = (sigmoid(reference) >= thresholds) == (sigmoid(exported) >= thresholds)
    return float(same.all(axis=1).mean())


def parity(
    reference: np.ndarray,
    exported: np.ndarray,
    int8: bool,
    thresholds: np.ndarray | None = None,
) -> Parity:
    """`thresholds` (one per class) makes it a multi-label comparison: an INT8 export must
    then keep the label sets, not only the best class."""
    diff = float(np.abs(reference - exported).max()) if reference.size else 0.0
    agreement = float((reference.argmax(1) == exported.argmax(1)).mean()) if len(reference) else 1.0
    sets = None if thresholds is None else label_set_agreement(reference, exported, thresholds)
    if int8:
        passed = (agreement if sets is None else sets) >= INT8_MIN_AGREEMENT
    else:
        passed = diff <= FLOAT_TOLERANCE * max(1.0, float(np.abs(reference).max()))
    return Parity(diff, agreement, len(reference), passed, sets)


def accuracy(logits: np.ndarray, labels: np.ndarray) -> float:
    return float((logits.argmax(1) == labels).mean()) if len(labels) else 0.0


def latency_ms(run: Runner, images: np.ndarray, batch: int, budget_s: float = 6.0) -> float:
    """Median wall time of one run at `batch` (images repeated to fill it), after a warm-up;
    as many runs as fit in `budget_s`, at least three and at most fifteen."""
    reps = -(-batch // len(images))
    inputs = np.ascontiguousarray(np.concatenate([images] * reps)[:batch])
    run(inputs)
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < 3 or (len(times) < 15 and time.perf_counter() - started < budget_s):
        begin = time.perf_counter()
        run(inputs)
        times.append(time.perf_counter() - begin)
    return round(1000.0 * float(np.median(times)), 3)
