"""Import throughput: a zip of small PNGs, validated, hashed, thumbnailed and saved as rows.

    python benchmarks/dataset_import.py [--images 10000] [--side 64] [--threads 2] [--repeat 1]
                                        [--database sqlite|postgres|both]

Writes `--images` PNGs (scikit-learn's digits scaled to `--side` pixels with noise, in ten
class folders) and zips them, outside the timing. Then, in a throwaway database and media
folder, it times the whole import job as the worker runs it (uploading the zip too, a local
file copy): unpacking the zip safely,
detecting the format, opening and fully decoding every image, content and perceptual hashes,
the thumbnail, duplicate and balance checks, and the rows (samples and annotations) in one
transaction. Prints JSON. The target is 300 images/s or more on two cores.

This module is also the one home of the throwaway databases the other benchmarks use:
`django_sandbox()` configures Django on a fresh database, `throwaway_database()` makes one of
either kind (a SQLite file, or a PostgreSQL server of its own), and `compare_databases()` runs
a benchmark once per kind, each in a process of its own, and reports them side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
DATABASE_KINDS = ("sqlite", "postgres")


@dataclass(frozen=True)
class ThrowawayDatabase:
    kind: str
    url: str
    # PostgreSQL runs the queries in its own processes (this one's tree), where SQLite runs
    # them inside the Django process; None for SQLite.
    server_pid: int | None = None


def _platform_on_path() -> None:
    for path in (str(REPO), str(REPO / "platform")):
        if path not in sys.path:
            sys.path.insert(0, path)


@contextmanager
def throwaway_database(kind: str, folder: Path) -> Iterator[ThrowawayDatabase]:
    """A fresh, empty database of `kind`: a SQLite file in `folder`, or a PostgreSQL server of
    its own on a free port (core.localstack.start_postgres) with one database, stopped and
    deleted on exit, errors included."""
    if kind == "sqlite":
        yield ThrowawayDatabase(kind, f"sqlite:///{folder / 'bench.sqlite3'}")
        return
    if kind != "postgres":
        raise ValueError(f"unknown database kind {kind!r}")
    _platform_on_path()
    import psycopg

    from core import localstack

    # Directly under the temporary folder, not inside `folder`: as root the server runs as the
    # `postgres` user, which cannot enter a 0700 folder of root's.
    cluster = Path(tempfile.mkdtemp(prefix="sampan-bench-postgres-"))
    try:
        port = localstack.free_port()
        server = localstack.start_postgres(cluster, port)
        try:
            with psycopg.connect(
                host="127.0.0.1", port=port, user="sampan", dbname="postgres", autocommit=True
            ) as connection:
                connection.execute("CREATE DATABASE bench")
            yield ThrowawayDatabase(kind, f"postgres://sampan@127.0.0.1:{port}/bench", server.pid)
        finally:
            _close_django_connections()
            localstack.stop_postgres(server)
    finally:
        shutil.rmtree(cluster, ignore_errors=True)


def _close_django_connections() -> None:
    """Closes Django's connections before their server goes, so none fails later on exit."""
    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()


def django_sandbox(folder: Path, database_url: str | None = None) -> None:
    """Configures Django on a fresh database and media folder under `folder`: a SQLite file
    there, unless `database_url` names another (from throwaway_database())."""
    os.environ["VAR_DIR"] = str(folder)
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ["MEDIA_ROOT"] = str(folder / "media")
    os.environ["DJANGO_SETTINGS_MODULE"] = "studio.settings"
    _platform_on_path()
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def database_description() -> str:
    """What Django is connected to, for the JSON: engine and server version."""
    from django.db import connection

    if connection.vendor == "postgresql":
        version = connection.pg_version  # e.g. 150014
        return f"PostgreSQL {version // 10000}.{version % 100}"
    import sqlite3

    return f"SQLite {sqlite3.sqlite_version} (WAL)"


def add_database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        choices=(*DATABASE_KINDS, "both"),
        default="both",
        help="the database to run on; both: each in turn, side by side with their ratios",
    )


def process_tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process and all its live descendants (gunicorn's
    workers, PostgreSQL's backends), from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, pending = 0.0, [pid]
    while pending:
        each = pending.pop()
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            for task in Path(f"/proc/{each}/task").iterdir():
                pending += map(int, (task / "children").read_text().split())
        except (FileNotFoundError, ProcessLookupError):
            continue  # it exited meanwhile
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def compare_databases(script: str, ratio_keys: Collection[str]) -> dict[str, object]:
    """Runs `script` with this process's arguments once per database kind, one after the
    other, each in a process of its own (Django is configured once per process), and returns
    both reports with postgres/sqlite ratios of the numbers named in `ratio_keys`."""
    reports: dict[str, dict] = {}
    for kind in DATABASE_KINDS:
        # argparse keeps the last --database given, so this one wins.
        command = [sys.executable, script, *sys.argv[1:], "--database", kind]
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        if done.returncode == 0:
            reports[kind] = json.loads(done.stdout)
        else:  # its traceback went to stderr; the other kind still runs
            reports[kind] = {"error": f"{Path(script).name} exited with {done.returncode}"}
    sqlite, postgres = reports["sqlite"], reports["postgres"]
    failed = "error" in sqlite or "error" in postgres
    return {
        "benchmark": Path(script).stem,
        "databases": reports,
        "postgres_over_sqlite": None if failed else _ratios(postgres, sqlite, ratio_keys),
    }


def _ratios(over: object, under: object, keys: Collection[str]) -> object:
    """The ratios over/under of the numbers under `keys`, in the two reports' shape."""
    if isinstance(over, dict) and isinstance(under, dict):
        found = {}
        for key in over.keys() & under.keys():
            a, b = over[key], under[key]
            if key in keys and isinstance(a, int | float) and isinstance(b, int | float):
                found[key] = round(a / b, 2) if b else None
            elif isinstance(a, dict | list):
                nested = _ratios(a, b, keys)
                if nested:
                    found[key] = nested
        return {key: found[key] for key in over if key in found}  # the report's order
    if isinstance(over, list) and isinstance(under, list) and len(over) == len(under):
        return [_ratios(a, b, keys) for a, b in zip(over, under, strict=True)]
    return None


def write_pngs(folder: Path, count: int, side: int, seed: int = 0) -> None:
    from sklearn.datasets import load_digits

    digits = load_digits()
    rng = np.random.default_rng(seed)
    scale = side // 8
    for i in range(count):
        index = i % len(digits.images)
        pixels = np.kron(digits.images[index] * 15, np.ones((scale, scale)))
        pixels = np.clip(pixels + rng.normal(0, 12, pixels.shape), 0, 255).astype(np.uint8)
        path = folder / str(digits.target[index]) / f"{i:05d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(pixels).save(path)


def zip_folder(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path in sorted(folder.rglob("*.png")):
            archive.write(path, path.relative_to(folder).as_posix())
    return target


def run_once(archive: Path, threads: int, database: ThrowawayDatabase) -> dict[str, object]:
    from accounts.models import Workspace
    from datastore.models import Dataset
    from datastore.services.imports import import_local_files

    workspace, _ = Workspace.objects.get_or_create(name="Bench", slug="bench")
    dataset = Dataset.objects.create(
        workspace=workspace, name=f"digits {Dataset.objects.count()}", task_type="classification"
    )
    database_cpu = database_cpu_seconds(database)
    start, start_cpu = time.perf_counter(), time.process_time()
    job = import_local_files(dataset, None, [(archive.name, archive)], threads=threads)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    database_cpu = database_cpu_seconds(database) - database_cpu
    return {
        "status": job.status,
        "seconds": round(seconds, 2),
        "images_per_s": round(job.samples_added / seconds, 1),
        # CPU time of all threads: on a machine busy with other work, wall time also counts
        # the waits for a free core.
        "cpu_seconds": round(cpu_seconds, 2),
        "images_per_cpu_second": round(job.samples_added / cpu_seconds, 1),
        # PostgreSQL's own processes (0 for SQLite, whose work is in cpu_seconds above).
        "database_cpu_seconds": round(database_cpu, 2),
        "samples_added": job.samples_added,
        "problems": job.report.get("counts", {}),
    }


def database_cpu_seconds(database: ThrowawayDatabase) -> float:
    """CPU seconds PostgreSQL's processes have spent so far; 0 for SQLite."""
    return process_tree_cpu_seconds(database.server_pid) if database.server_pid else 0.0


# The numbers whose postgres/sqlite ratios `--database both` reports.
RATIO_KEYS = {"best_images_per_s", "seconds", "images_per_s", "cpu_seconds"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--side", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    add_database_argument(parser)
    args = parser.parse_args()
    if args.database == "both":
        report = compare_databases(__file__, RATIO_KEYS)
    else:
        report = run_on(args.database, args)
    print(json.dumps(report, indent=2))


def run_on(kind: str, args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="sampan-bench-import-") as tmp:
        root = Path(tmp)
        write_pngs(root / "src", args.images, args.side)
        archive = zip_folder(root / "src", root / "digits.zip")
        zip_mb = round(archive.stat().st_size / 1e6, 1)
        with throwaway_database(kind, root / "var") as database:
            django_sandbox(root / "var", database.url)
            runs = [run_once(archive, args.threads, database) for _ in range(args.repeat)]
            description = database_description()
    best = max(runs, key=lambda r: r["images_per_s"])
    return {
        "benchmark": "dataset_import",
        "database": description,
        "images": args.images,
        "side_px": args.side,
        "threads": args.threads,
        "zip_mb": zip_mb,
        "best_images_per_s": best["images_per_s"],
        "target_images_per_s": 300,
        "load_average_1m": round(os.getloadavg()[0], 2),  # other work on the machine
        "runs": runs,
    }


if __name__ == "__main__":
    main()
