"""Gallery server time on a 100,000-sample dataset: the HTML page and the JSON API.

    python benchmarks/gallery.py [--samples 100000] [--classes 10] [--requests 20]
                                 [--database sqlite|postgres|both] [--no-vacuum]

Fills a throwaway database (SQLite, PostgreSQL, or by default each in turn) with `--samples`
sample rows (10 classes, a third unlabeled, some in each split, some with problems) and their
class tags, then requests the gallery page in-process through Django's test client, so the
time is the server's alone: URL routing, the scoped dataset lookup, the filtered and sorted
keyset query, the count and the template. Each scenario runs `--requests` times; prints
median and p95 in ms as JSON. The target is under 300 ms. On PostgreSQL the queries run in
the server's processes, outside this one's CPU time: `database_cpu_ms_per_request` is theirs,
a mean over the scenario. There the fill ends with the VACUUM ANALYZE that autovacuum runs by
itself within about a minute; `--no-vacuum` times the state before it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dataset_import import (  # noqa: E402 (a sibling script, not a package)
    ThrowawayDatabase,
    add_database_argument,
    compare_databases,
    database_cpu_seconds,
    database_description,
    django_sandbox,
    throwaway_database,
)


def fill(samples: int, classes: int) -> tuple[object, object]:
    from accounts.models import Membership, User, Workspace
    from datastore.models import Annotation, Dataset, Sample

    user = User.objects.create_user("bench", password="not-used-here")
    workspace = Workspace.objects.create(name="Bench", slug="bench")
    workspace.add_member(user, Membership.Role.MEMBER)
    dataset = Dataset.objects.create(workspace=workspace, name="big", task_type="classification")
    labels = list(dataset.ensure_classes([f"class {i}" for i in range(classes)]).values())
    splits = ["train"] * 7 + ["val", "test", ""]
    batch = 5000
    for start in range(0, samples, batch):
        rows = [
            Sample(
                dataset=dataset,
                file=f"d/{i}.png",
                thumbnail=f"t/{i}.jpg",
                original_name=f"folder{i % 97}/image_{i:06d}.png",
                content_hash=f"{i:064x}",
                perceptual_hash=f"{i:032x}",
                width=64 + i % 50,
                height=64 + i % 30,
                size_bytes=1000 + (i * 7919) % 50000,
                split=splits[i % 10],
                labeled=i % 3 != 0,
                has_problems=i % 17 == 0,
                problems=["near_duplicate"] if i % 17 == 0 else [],
            )
            for i in range(start, min(start + batch, samples))
        ]
        Sample.objects.bulk_create(rows)
        Annotation.objects.bulk_create(
            Annotation(sample=s, label_class=labels[s.pk % classes]) for s in rows if s.labeled
        )
    return user, dataset


def vacuum_analyze() -> None:
    """What PostgreSQL's autovacuum does on its own within about a minute of a bulk insert: the
    planner's statistics, and the visibility map that lets a count read the index alone.
    Without it the numbers depend on whether autovacuum came first (SQLite has no such pass)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE datastore_sample, datastore_annotation")


def percentiles(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return round(statistics.median(values), 1), round(values[int(len(values) * 0.95)], 1)


def timed(
    client: object,
    url: str,
    params: dict[str, str],
    count: int,
    database: ThrowawayDatabase,
) -> dict[str, float]:
    """Wall time, and the CPU time of this process: on a machine shared with other work the
    CPU time is what the request itself costs, the wall time includes waiting for a core."""
    wall, cpu = [], []
    database_cpu = database_cpu_seconds(database)
    for _ in range(count):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, params)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, response.status_code
    database_cpu = database_cpu_seconds(database) - database_cpu
    (median, p95), (cpu_median, cpu_p95) = percentiles(wall), percentiles(cpu)
    return {
        "median_ms": median,
        "p95_ms": p95,
        "cpu_median_ms": cpu_median,
        "cpu_p95_ms": cpu_p95,
        "database_cpu_ms_per_request": round(1000 * database_cpu / count, 1),
    }


# The numbers whose postgres/sqlite ratios `--database both` reports.
RATIO_KEYS = {"fill_seconds", "worst_p95_ms", "median_ms", "p95_ms", "cpu_median_ms"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument(
        "--no-vacuum",
        action="store_true",
        help="on PostgreSQL, time right after the bulk insert, before autovacuum's pass",
    )
    add_database_argument(parser)
    args = parser.parse_args()
    if args.database == "both":
        report = compare_databases(__file__, RATIO_KEYS)
    else:
        report = run_on(args.database, args)
    print(json.dumps(report, indent=2))


def run_on(kind: str, args: argparse.Namespace) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory(prefix="sampan-bench-gallery-") as tmp,
        throwaway_database(kind, Path(tmp)) as database,
    ):
        django_sandbox(Path(tmp), database.url)
        description = database_description()
        from django.test import Client

        from datastore.gallery import encode_cursor

        start = time.perf_counter()
        user, dataset = fill(args.samples, args.classes)
        fill_seconds = time.perf_counter() - start
        if database.kind == "postgres" and not args.no_vacuum:
            vacuum_analyze()
        # The fill leaves its objects in this process's heap, where a web server has none of
        # them; without this, the cyclic collector's full passes over them (about 0.4 s each)
        # land in the timed requests.
        gc.collect()
        gc.freeze()
        client = Client(HTTP_HOST="localhost")
        client.force_login(user)
        page = f"/datasets/{dataset.pk}/"
        api = f"/api/datasets/{dataset.pk}/samples/"
        middle = dataset.samples.order_by("id")[args.samples // 2]
        some_class = dataset.classes.last()
        scenarios = {
            "first page": (page, {}),
            "page in the middle (keyset)": (page, {"after": encode_cursor([middle.pk, middle.pk])}),
            "one class": (page, {"class": str(some_class.pk)}),
            "unlabeled": (page, {"status": "unlabeled"}),
            "has problems, sorted by name": (page, {"problems": "1", "sort": "name"}),
            "validation split, largest first": (page, {"split": "val", "sort": "largest"}),
            "API first page": (api, {}),
            "API one class, 200 per page": (api, {"class": str(some_class.pk), "page_size": "200"}),
        }
        timed(client, page, {}, 2, database)  # warm the caches
        results = {
            name: timed(client, url, params, args.requests, database)
            for name, (url, params) in scenarios.items()
        }
    worst = max(r["p95_ms"] for r in results.values())
    worst_cpu = max(r["cpu_p95_ms"] for r in results.values())
    return {
        "benchmark": "gallery",
        "database": description,
        "samples": args.samples,
        "fill_seconds": round(fill_seconds, 1),
        "vacuum_analyze": database.kind == "postgres" and not args.no_vacuum,
        "worst_p95_ms": worst,
        "worst_cpu_p95_ms": worst_cpu,
        "target_ms": 300,
        "load_average_1m": round(os.getloadavg()[0], 2),  # other work on the machine
        "scenarios": results,
    }


if __name__ == "__main__":
    main()
