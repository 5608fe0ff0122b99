"""What metric logging costs a training step: the job callbacks against a bare Model.fit.

    python benchmarks/metric_logging.py [--steps 200] [--rounds 3] [--batch-size 64]

LeNet on random 1x28x28 data (batch 64), in a throwaway database. Each round trains `--steps`
steps twice, bare and with what a job adds at every step: `ScalarReporter` (loss, accuracy,
learning rate, throughput and device memory), `JobControl` (the NaN check, and the flush:
every TRAINING_FLUSH_SECONDS the points, the job's progress and a read of its cancel flag in
one transaction) and the heartbeat thread. Two numbers:

- `callback_share`: the training thread's CPU time inside the logging callbacks over the bare
  step's CPU time, both on the thread's own CPU clock, which a busy machine's other processes
  do not inflate.
- `writer_share`: the CPU time of the recorder's writer thread, which does the database writes
  in the background, over the bare steps' CPU time.
- `total_share`: both, as if the writer ran on the training thread's core. The target is
  <= 0.02.
- `wall_ratio`: median logged step over median bare step in wall time, rounds interleaved
  (noisy where other processes share the cores).

Deployments run with DEBUG off, and so does this benchmark unless `--debug` is given: with
DEBUG on, Django records every query, which costs the flushes about three times as much.
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from dataset_import import django_sandbox


class Clock:
    """Times each step from one batch end to the next, after every other callback ran: wall
    time, and this thread's CPU time."""

    def __init__(self) -> None:
        from framework.hapi.callbacks import Callback

        outer = self

        class _Clock(Callback):
            def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
                now, cpu = time.perf_counter(), time.thread_time()
                if outer.last is not None:
                    outer.steps.append(now - outer.last)
                    outer.cpu.append(cpu - outer.last_cpu)
                outer.last, outer.last_cpu = now, cpu

        self.callback = _Clock()
        self.steps: list[float] = []
        self.cpu: list[float] = []
        self.last: float | None = None
        self.last_cpu = 0.0


def timed(callback: Any, spent: list[float]) -> Any:
    """The callback, with the CPU time inside its per-step and flush hooks added to `spent`."""
    for hook in ("on_train_batch_begin", "on_train_batch_end", "on_epoch_end"):
        inner = getattr(callback, hook)

        def wrapper(*args: Any, _inner: Any = inner, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return _inner(*args, **kwargs)
            finally:
                spent.append(time.thread_time() - start)

        setattr(callback, hook, wrapper)
    return callback


def make_job() -> Any:
    from accounts.models import Workspace
    from training.models import TrainingJob

    workspace, _ = Workspace.objects.get_or_create(name="Bench", slug="bench")
    job = TrainingJob.objects.create(
        workspace=workspace,
        name="metric logging",
        dataset_label="random data",
        class_names=[str(i) for i in range(10)],
        architecture="lenet",
        preset="quick",
        config={"epochs": 1, "learning_rate": 1e-3},
    )
    assert job.claim(worker="bench", device="cpu")
    return job


def measured_recorder(job: Any) -> Any:
    """A JobRecorder whose writer thread notes its own CPU time when it stops."""
    from workers.runtime.recorder import JobRecorder

    class MeasuredRecorder(JobRecorder):
        writer_cpu = 0.0

        def _run(self) -> None:
            try:
                super()._run()
            finally:
                self.writer_cpu = time.thread_time()

    return MeasuredRecorder(job)


def train(steps: int, batch: int, logged: bool) -> tuple[list[float], list[float], float, float]:
    import framework
    from framework.io import DataLoader, Dataset
    from framework.vision.models import LeNet
    from workers.runtime.callbacks import JobControl, Position, ScalarReporter

    rng = np.random.default_rng(0)
    images = rng.standard_normal((steps * batch, 1, 28, 28), dtype=np.float32)
    labels = rng.integers(0, 10, (steps * batch, 1)).astype(np.int64)

    class Arrays(Dataset):
        def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
            return images[index], labels[index]

        def __len__(self) -> int:
            return len(labels)

    framework.seed(0)
    network = LeNet()
    model = framework.Model(network)
    model.prepare(
        framework.optimizer.Adam(learning_rate=1e-3, parameters=network.parameters()),
        framework.nn.CrossEntropyLoss(),
        framework.metric.Accuracy(),
    )
    clock = Clock()
    callbacks: list[Any] = [clock.callback]
    spent: list[float] = []
    recorder = None
    if logged:
        job = make_job()
        recorder = measured_recorder(job).__enter__()  # starts its writer thread
        position = Position(0, 0, steps, 1)
        control = JobControl(job, recorder, position)
        reporter = ScalarReporter(recorder, position, "cpu")
        callbacks = [timed(control, spent), timed(reporter, spent), clock.callback]
    loader = DataLoader(Arrays(), batch_size=batch, shuffle=True)
    model.fit(loader, epochs=1, verbose=0, callbacks=callbacks)
    writer_cpu = 0.0
    if recorder is not None:
        recorder.__exit__(None, None, None)  # the thread's last write, then it stops
        writer_cpu = recorder.writer_cpu
    # The first steps warm caches up.
    return clock.steps[5:], clock.cpu[5:], sum(spent), writer_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--debug", action="store_true", help="run with Django's DEBUG on")
    args = parser.parse_args()
    if not args.debug:
        os.environ["DEBUG"] = "0"
        os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 40)
    django_sandbox(Path(tempfile.mkdtemp(prefix="sampan-bench-logging-")))
    from django.db.models import Sum

    from training.models import ScalarChunk

    bare_steps: list[float] = []
    logged_steps: list[float] = []
    bare_cpu: list[float] = []
    shares, totals = [], []
    for _ in range(args.rounds):
        bare, cpu, _, _ = train(args.steps, args.batch_size, logged=False)
        logged, _, spent, writer = train(args.steps, args.batch_size, logged=True)
        bare_steps += bare
        logged_steps += logged
        bare_cpu += cpu
        shares.append(spent / args.steps / statistics.median(cpu))
        totals.append(writer / args.steps / statistics.median(cpu))
    bare_ms = statistics.median(bare_steps) * 1000
    logged_ms = statistics.median(logged_steps) * 1000
    cpu_ms = statistics.median(bare_cpu) * 1000
    report = {
        "benchmark": "metric_logging",
        "model": "lenet",
        "batch_size": args.batch_size,
        "steps_per_round": args.steps,
        "rounds": args.rounds,
        "django_debug": args.debug,
        "points_written": ScalarChunk.objects.aggregate(n=Sum("count"))["n"],
        "chunks_written": ScalarChunk.objects.count(),
        "bare_step_ms": round(bare_ms, 3),
        "logged_step_ms": round(logged_ms, 3),
        "bare_step_cpu_ms": round(cpu_ms, 3),
        "logging_cpu_ms_per_step": round(statistics.median(shares) * cpu_ms, 4),
        "callback_share": round(statistics.median(shares), 5),
        "writer_share": round(statistics.median(totals), 5),
        "wall_ratio": round(logged_ms / bare_ms, 4),
        "total_share": round(statistics.median(shares) + statistics.median(totals), 5),
        "target_total_share": 0.02,
        "meets_target": statistics.median(shares) + statistics.median(totals) <= 0.02,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
