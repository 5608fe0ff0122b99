"""Why a job stopped, in plain language, with what to do about it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from core.errors import describe_unexpected
from framework.vision.models.weight_store import WeightsIntegrityError


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
        what = "NaN (not a number)" if math.isnan(error.value) else "infinite"
        return Outcome(
            "not_finite",
            f"The training loss became {what} at step {error.step} (epoch {error.epoch + 1}), "
            "so the model could not learn any further.",
            f"Lower the learning rate: try {learning_rate / 10:g}, a tenth of {learning_rate:g}. "
            "A schedule with warm-up also helps.",
            {"step": error.step, "epoch": error.epoch},
        )
    if isinstance(error, OutOfMemoryAtBatchOne):
        return Outcome(
            "out_of_memory",
            "The device ran out of memory even with a batch of one image.",
            "Choose a smaller input size or a lighter architecture (MobileNetV3 Small, "
            "ShuffleNetV2 ×0.5), or run on a device with more memory.",
        )
    if isinstance(error, SampleError):
        return Outcome(
            "data",
            f"The image “{error.name}” (sample #{error.sample_id}) could not be read: "
            f"{error.cause}.",
            "Open the sample in the dataset, replace or delete it, freeze a new version and "
            "train on that.",
            {"sample_id": error.sample_id, "dataset_id": dataset_id, "name": error.name},
        )
    if isinstance(error, WeightsIntegrityError):
        return Outcome(
            "weights",
            f"The shipped weights this job starts from failed their check: {error}",
            "Ask your administrator to run `make weights` (it converts the weight packages "
            "again and checks every file's hash), or start the job from random weights.",
        )
    if isinstance(error, DeviceUnavailable):
        return Outcome(
            "device",
            str(error),
            "Choose device “auto” or “cpu”, or start a worker with a GPU.",
        )
    return Outcome(
        "internal",
        f"Training stopped on an unexpected error: {describe_unexpected(error)}",
        "The job log has the details. Re-run the job; if it fails the same way, report it "
        "with the log.",
    )
