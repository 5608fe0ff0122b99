"""What every training run of a job shares, whatever its loop (`trainer.TrainingRun` on
Model.fit, `detection_trainer.DetectionRun` in its own): out-of-memory retries at half the
batch, and the start of each attempt (device, seed, network, optimizer, and the resume from the
job's last checkpoint)."""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from training import worker_messages as said
from training.models import TrainingJob
from workers.runtime.build import build_network, build_optimizer
from workers.runtime.callbacks import Position
from workers.runtime.checkpoints import load_checkpoint
from workers.runtime.failures import OutOfMemoryAtBatchOne, is_out_of_memory
from workers.runtime.recorder import JobRecorder


@dataclass
class Start:
    network: Any
    optimizer: Any
    position: Position
    progress: dict[str, Any]  # the checkpoint's progress; empty on a fresh start
    best_model: dict[str, Any] | None = None  # the checkpoint's best-epoch weights, if kept

    @property
    def finished(self) -> bool:
        """The checkpoint was written after the last epoch, or after early stopping."""
        stopping = self.progress.get("early_stopping") or {}
        return self.position.epoch >= self.position.total_epochs or bool(stopping.get("stopped"))


class ResumableRun:
    """Subclasses set `max_eval_batch` and write `_fit(batch)`, which starts with `_start`."""

    max_eval_batch: ClassVar[int]

    def __init__(self, job: TrainingJob, recorder: JobRecorder, splits: Any, device: str) -> None:
        self.job, self.recorder, self.splits, self.device = job, recorder, splits, device
        self.position: Position | None = None
        self.last_eval: dict[str, float] = {}
        self.best: dict[str, Any] = {}  # {"value", "epoch"} of the monitored metric
        self.eval_batch = min(2 * job.batch_size, self.max_eval_batch)

    def log(self, message: str, level: str = "INFO") -> None:
        self.recorder.log(message, level)

    def run(self) -> Any:
        """Trains to the last epoch and returns the network. Out of memory halves the batch
        and tries again from the last checkpoint, down to a batch of one."""
        batch = self.job.batch_size
        while True:
            try:
                return self._fit(batch)
            except Exception as error:
                if not is_out_of_memory(error):
                    raise
                if batch <= 1:
                    raise OutOfMemoryAtBatchOne() from error
                smaller = batch // 2
                self.log(said.OUT_OF_MEMORY_RETRY(batch=batch, smaller=smaller), "WARNING")
                batch = smaller
                self.eval_batch = min(2 * batch, self.max_eval_batch)
                self.recorder.update_progress(batch_size=batch)
                self.recorder.flush()
                self._free_memory()

    def _fit(self, batch: int) -> Any:
        raise NotImplementedError

    def _free_memory(self) -> None:
        gc.collect()
        if self.device.startswith("gpu"):
            from framework.core import backend

            backend.cupy.get_default_memory_pool().free_all_blocks()

    def _start(self, batch: int) -> Start:
        """Builds the network and optimizer on the job's device and seed, resumes them from
        the last checkpoint if there is one, and records where the attempt starts."""
        import framework

        job, config = self.job, self.job.config
        framework.set_device(self.device)
        framework.seed(int(config["seed"]))
        network = build_network(job, self.log)
        steps_per_epoch = self.steps_per_epoch(batch)
        optimizer = self.build_optimizer(network, steps_per_epoch)
        epoch, step, progress, best_model = 0, 0, {}, None
        checkpoint = load_checkpoint(job.pk)
        if checkpoint is not None:
            network.set_state_dict(checkpoint["model"])
            optimizer.set_state_dict(checkpoint["optimizer"])
            progress = checkpoint["progress"]
            best_model = checkpoint.get("best_model")
            epoch, step = int(progress["epoch"]), int(progress["step"])
            self.log(said.RESUMED(epoch=epoch, step=step))
        self.best = progress.get("best") or {}
        self.recorder.discard_after(step, epoch)
        self.position = position = Position(epoch, step, steps_per_epoch, int(config["epochs"]))
        self.recorder.update_progress(
            total_steps=position.total_steps, batch_size=batch, step=step, epoch=epoch
        )
        return Start(network, optimizer, position, progress, best_model)

    def steps_per_epoch(self, batch: int) -> int:
        return math.ceil(len(self.splits.train) / batch)

    def build_optimizer(self, network: Any, steps_per_epoch: int) -> Any:
        return build_optimizer(self.job.config, network, steps_per_epoch, self.job.arch.key)
