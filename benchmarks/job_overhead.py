"""A training job's wall time against the same training run straight on the framework.

    python benchmarks/job_overhead.py [--per-class 180] [--epochs 5] [--rounds 2]

In a throwaway database and media folder, with a real redis-server and a real Celery worker
process: the digits (`--per-class` of each, through the datastore's import) frozen as a
version, then, in alternating rounds,

- direct: LeNet built from the zoo, the optimizer the job config asks for, and
  `framework.Model.fit` over the same decoded images with an evaluation after every epoch,
  in this process;
- job: the same config created as a training job and run by the worker: queueing, the claim,
  loading the version, training with the metric writer, histograms, sample predictions and a
  checkpoint every epoch, then the final evaluation, the report and the saved weights. Its
  wall time is from creation to `finished_at`.

The worker first runs one small job, so both sides start warm (imports done, images decoded
and cached). Other load on the machine only ever adds time, so the best of `--rounds` runs of
each side is compared (medians are shown too). The target is job / direct <= 1.1. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from dataset_import import django_sandbox

CONFIG = {"epochs": 5, "batch_size": 32, "augment_crop": False, "optimizer": "adam"}


def start_services(folder: Path) -> tuple[Any, Any]:
    """redis-server and one worker, both on this benchmark's database and media folder."""
    from core import localstack
    from workers.celery import DEFAULT_QUEUE, GPU_QUEUE, app

    redis = localstack.start_redis(
        int(os.environ["REDIS_URL"].rsplit(":", 1)[1].split("/")[0]),
        folder / "redis",
        persistent=False,
    )
    hostname = f"bench-{os.getpid()}@localhost"
    command = localstack.worker_command(
        queues=[GPU_QUEUE, DEFAULT_QUEUE], hostname=hostname, pool="solo", loglevel="WARNING"
    )
    worker = localstack.start_worker(command, env={}, log_path=folder / "worker.log")
    localstack.wait_for_worker(app, hostname, worker, timeout=120)
    return redis, worker


def run_job(workspace: Any, user: Any, version: Any, config: dict[str, Any]) -> dict[str, float]:
    from training.models import TrainingJob
    from training.services.jobs import create_job

    job = create_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="lenet",
        preset="quick",
        overrides=config,
    )
    while True:
        job.refresh_from_db()
        if job.is_finished:
            break
        time.sleep(0.05)
    assert job.status == TrainingJob.Status.SUCCEEDED, job.error
    return {
        "wall_s": (job.finished_at - job.created_at).total_seconds(),
        "queue_s": (job.started_at - job.created_at).total_seconds(),
        "val_accuracy": job.val_accuracy,
    }


def run_direct(version: Any, config: dict[str, Any]) -> dict[str, float]:
    import framework
    from framework.io import DataLoader
    from modelzoo.catalog import get_architecture
    from modelzoo.presets import preset_config
    from training.services.version_data import evaluation_split, examples
    from workers.runtime.build import build_loss, build_optimizer
    from workers.runtime.data import ImageDataset, load_split

    arch = get_architecture("lenet")
    full = {**preset_config(arch, "quick"), **config}
    start = time.perf_counter()
    split = evaluation_split(version)
    train_items, eval_items = examples(version, "train"), examples(version, split)
    train = ImageDataset(train_items, load_split(version.pk, "train", train_items, 1, 28), 1, 28)
    evaluate = ImageDataset(eval_items, load_split(version.pk, split, eval_items, 1, 28), 1, 28)
    framework.seed(0)
    network = arch.build(10)
    loader = DataLoader(train, batch_size=full["batch_size"], shuffle=True)
    model = framework.Model(network)
    model.prepare(
        build_optimizer(full, network, len(loader)), build_loss(), framework.metric.Accuracy()
    )
    model.fit(
        loader,
        DataLoader(evaluate, batch_size=2 * full["batch_size"]),
        epochs=full["epochs"],
        verbose=0,
    )
    wall = time.perf_counter() - start
    return {
        "wall_s": wall,
        "val_accuracy": model.evaluate(evaluate, batch_size=256, verbose=0)["acc"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-class", type=int, default=180)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="sampan-bench-jobs-"))
    with socket.socket() as probe:  # a free port for this benchmark's own redis-server
        probe.bind(("127.0.0.1", 0))
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{probe.getsockname()[1]}/0"
    os.environ["DEBUG"] = "0"  # as deployed
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 40)
    django_sandbox(folder)
    from accounts.models import Membership, User, Workspace
    from core import localstack
    from training.demo.digits import digits_version

    redis, worker = start_services(folder)
    try:
        user = User.objects.create_user(username="bench", password="a long enough passphrase")
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        workspace.add_member(user, Membership.Role.OWNER)
        version = digits_version(workspace, user, per_class=args.per_class)
        config = {**CONFIG, "epochs": args.epochs}
        run_job(workspace, user, version, {**config, "epochs": 1})  # warm the worker up
        run_direct(version, {**config, "epochs": 1})  # and this process
        jobs, direct = [], []
        for _ in range(args.rounds):
            direct.append(run_direct(version, config))
            jobs.append(run_job(workspace, user, version, config))
    finally:
        localstack.stop(worker)
        localstack.stop(redis)
    job_wall = min(j["wall_s"] for j in jobs)
    direct_wall = min(d["wall_s"] for d in direct)
    job_median = statistics.median(j["wall_s"] for j in jobs)
    direct_median = statistics.median(d["wall_s"] for d in direct)
    report = {
        "benchmark": "job_overhead",
        "model": "lenet",
        "train_images": version.stats["per_split"]["train"],
        "eval_images": version.stats["per_split"]["val"],
        "config": config,
        "rounds": args.rounds,
        "direct_wall_s": round(direct_wall, 3),
        "job_wall_s": round(job_wall, 3),
        "job_queue_s": round(statistics.median(j["queue_s"] for j in jobs), 3),
        "ratio": round(job_wall / direct_wall, 4),
        "median_direct_wall_s": round(direct_median, 3),
        "median_job_wall_s": round(job_median, 3),
        "median_ratio": round(job_median / direct_median, 4),
        "val_accuracy": {"job": jobs[-1]["val_accuracy"], "direct": direct[-1]["val_accuracy"]},
        "target_ratio": 1.1,
        "meets_target": job_wall / direct_wall <= 1.1,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
