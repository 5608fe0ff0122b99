"""Server time of the chart endpoint on a long series: 100,000 points of one scalar.

    python benchmarks/chart_endpoint.py [--points 100000] [--repeat 20] [--max-points 2000]

In a throwaway database, one job gets `--points` points of `train/loss` (plus as many of
`train/lr`, which the query must skip), in chunks of `--per-chunk` points as a worker's flushes
write them. Each request goes through Django's whole stack in
this process (URL routing, session authentication, scoping, the query, min/max-bucket
downsampling and JSON), timed from request to response: the server's time, without a network.
Also timed: an incremental poll (`?after=`, one new chunk per series) and the CSV of every
point.
The target is a median under 200 ms for the full series. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from dataset_import import django_sandbox


def fill(points: int, per_chunk: int) -> tuple[Any, Any]:
    from django.db import transaction

    from accounts.models import Membership, User, Workspace
    from training.models import ScalarChunk, TrainingJob

    user = User.objects.create_user(username="bench", password="a long enough passphrase")
    workspace = Workspace.objects.create(name="Bench", slug="bench")
    workspace.add_member(user, Membership.Role.OWNER)
    job = TrainingJob.objects.create(
        workspace=workspace,
        name="long run",
        dataset_label="none",
        architecture="resnet18",
        preset="thorough",
        config={},
    )
    rng = np.random.default_rng(0)
    loss = np.exp(-np.arange(points) / (points / 4)) + rng.normal(0, 0.05, points)
    chunks = []
    for first in range(0, points, per_chunk):  # as the worker's flushes write them
        steps = range(first, min(first + per_chunk, points))
        for tag, value in (("train/loss", lambda s: float(loss[s])), ("train/lr", lambda s: 0.1)):
            chunks.append(
                ScalarChunk.pack(job.pk, tag, [(s + 1, 1.7e9 + s * 0.1, value(s)) for s in steps])
            )
    with transaction.atomic():
        ScalarChunk.objects.bulk_create(chunks, batch_size=500)
    return user, job


def timed(client: Any, url: str, params: dict[str, Any], repeat: int) -> dict[str, Any]:
    samples, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url, params)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
        size = len(body)
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 2),
        "response_bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--max-points", type=int, default=2000)
    parser.add_argument(
        "--per-chunk", type=int, default=100, help="points per flush (steps per second)"
    )
    args = parser.parse_args()
    django_sandbox(Path(tempfile.mkdtemp(prefix="sampan-bench-charts-")))
    from django.test import Client

    from training.models import ScalarChunk

    user, job = fill(args.points, args.per_chunk)
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    url = f"/api/jobs/{job.pk}/scalars/"
    full = {"tags": "train/loss", "max_points": args.max_points}
    client.get(url, full)  # warm up: imports, query plans, page cache
    # A poll after the last flush but two: one new chunk per series.
    last = ScalarChunk.objects.filter(job=job).order_by("-id").values_list("id", flat=True)[2]
    kept = len(client.get(url, full).json()["series"]["train/loss"]["step"])
    report = {
        "benchmark": "chart_endpoint",
        "points_in_series": args.points,
        "points_returned": kept,
        "full_series": timed(client, url, full, args.repeat),
        "chunks_in_series": -(-args.points // args.per_chunk),
        "incremental_poll": timed(client, url, {"after": last}, args.repeat),
        "csv_all_points": timed(client, f"{url}csv/", {}, max(3, args.repeat // 5)),
        "target_ms": 200,
    }
    report["meets_target"] = report["full_series"]["median_ms"] < 200
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
