"""Why a job stopped, in plain language, with what to do about it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from core.errors import describe_unexpected
from framework.vision.models.weight_store import WeightsIntegrityError
from training import worker_messages as said


class JobCancelled(Exception):
    """Someone cancelled the job; raised at the next step boundary."""


class JobLost(Exception):
    """Another worker owns the job now (the reconciler re-queued it): stop without writing."""


class LossNotFinite(Exception):
    def __init__(self, value: float, step: int, epoch: int) -> None:
        super().__init__(f"loss {value} at step {step}")
        self.value, self.step, self.epoch = value, step, epoch


class SampleError(Exception):
    """One image of the dataset version could not be read or decoded."""

    def __init__(self, sample_id: int, name: str, cause: BaseException) -> None:
        super().__init__(f"sample {sample_id} ({name}): {cause}")
        self.sample_id, self.name, self.cause = sample_id, name, cause


class OutOfMemoryAtBatchOne(Exception):
    pass


class DeviceUnavailable(Exception):
    pass


@dataclass
class Outcome:
    kind: str
    reason: str
    suggestion: str
    detail: dict[str, Any] = field(default_factory=dict)


def is_out_of_memory(error: BaseException) -> bool:
    """MemoryError on the CPU, CuPy's OutOfMemoryError (or a CUDA allocation error) on a GPU."""
    if isinstance(error, MemoryError):
        return True
    name = type(error).__name__
    return name == "OutOfMemoryError" or ("CUDA" in name and "out of memory" in str(error).lower())


def describe(error: BaseException, *, learning_rate: float, dataset_id: int | None) -> Outcome:
    """The failure a person reads on the job page."""
    if isinstance(error, LossNotFinite):
        what = said.NAN() if math.isnan(error.value) else said.INFINITE()
        return Outcome(
            "not_finite",
            said.LOSS_NOT_FINITE(what=what, step=error.step, epoch=error.epoch + 1),
            said.LOWER_LEARNING_RATE(
                lower=f"{learning_rate / 10:g}", learning_rate=f"{learning_rate:g}"
            ),
            {"step": error.step, "epoch": error.epoch},
        )
    if isinstance(error, OutOfMemoryAtBatchOne):
        return Outcome("out_of_memory", said.OUT_OF_MEMORY(), said.OUT_OF_MEMORY_FIX())
    if isinstance(error, SampleError):
        return Outcome(
            "data",
            said.UNREADABLE_SAMPLE(name=error.name, sample=error.sample_id, cause=error.cause),
            said.UNREADABLE_SAMPLE_FIX(),
            {"sample_id": error.sample_id, "dataset_id": dataset_id, "name": error.name},
        )
    if isinstance(error, WeightsIntegrityError):
        return Outcome("weights", said.WEIGHTS_CHECK(error=str(error)), said.WEIGHTS_CHECK_FIX())
    if isinstance(error, DeviceUnavailable):
        return Outcome("device", str(error), said.DEVICE_FIX())
    return Outcome(
        "internal", said.UNEXPECTED(error=describe_unexpected(error)), said.UNEXPECTED_FIX()
    )
