"""Annotation save latency with concurrent labelers, over HTTP against a real server.

    python benchmarks/annotation_save.py [--clients 20] [--saves 50] [--interval 0.5]
                                         [--database sqlite|postgres|both]
                                         [--server runstack|custom [--workers 2] [--threads 4]]

Starts the web server on a throwaway database (SQLite in WAL mode, PostgreSQL, or by default
each in turn): by default exactly as `make run` starts it (runstack's `web_command`: gunicorn
gthread, its workers and threads, keep-alive and access log), or with `--server custom` a
gunicorn gthread of `--workers` processes x `--threads` threads. Then `--clients` labelers,
each on its own keep-alive connection and API token, save labels
(`PUT /api/samples/<id>/labels/` with the revision they hold) on their own samples, `--saves`
each after a warm-up. Two loads:

- paced: each labeler saves every `--interval` seconds (with jitter), as autosave does while
  a fast person labels; 20 labelers at 0.5 s offer 40 saves/s;
- flat out: each labeler sends its next save as soon as the last one answered, which measures
  how many saves per second two cores sustain, and the queueing that costs.

The labelers are Python threads (http.client) in this process: each must send the revision
its last save returned, which a fixed-request load tool such as wrk cannot. Prints JSON with
the p50/p95/p99 latency the clients saw, and the server CPU each save cost (PostgreSQL's own
processes apart, as `database_cpu_ms_per_save`). The target is p95 under 50 ms with 20
concurrent labelers.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
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
    process_tree_cpu_seconds,
    throwaway_database,
)

CLIENT = "python http.client, one thread and keep-alive connection per client"


def fill(clients: int, per_client: int) -> tuple[list[str], list[list[int]], list[int]]:
    from accounts.models import ApiToken, Membership, User, Workspace
    from datastore.models import Dataset, Sample

    workspace = Workspace.objects.create(name="Bench", slug="bench")
    dataset = Dataset.objects.create(workspace=workspace, name="d", task_type="multi_label")
    classes = [c.pk for c in dataset.ensure_classes(["cat", "dog", "bird", "fish"]).values()]
    rows = Sample.objects.bulk_create(
        Sample(
            dataset=dataset,
            file=f"{i}.png",
            thumbnail=f"{i}.jpg",
            original_name=f"{i}.png",
            content_hash=f"{i:064x}",
            perceptual_hash="0" * 32,
            width=64,
            height=64,
            size_bytes=100,
        )
        for i in range(clients * per_client)
    )
    tokens, owned = [], []
    for n in range(clients):
        user = User.objects.create_user(f"labeler{n}", password="unused-password-123")
        workspace.add_member(user, Membership.Role.MEMBER)
        tokens.append(ApiToken.issue(workspace=workspace, user=user, name="bench")[1])
        owned.append([s.pk for s in rows[n * per_client : (n + 1) * per_client]])
    return tokens, owned, classes


def labeler(
    port: int,
    token: str,
    revisions: dict[int, int],
    classes: list[int],
    saves: int,
    warmup: int,
    interval: float,
    start: threading.Barrier,
    out: list[float],
) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    samples = list(revisions)
    rng = random.Random(token)
    start.wait()
    time.sleep(rng.uniform(0, interval))  # labelers do not all start on the same tick
    for n in range(warmup + saves):
        due = time.perf_counter() + rng.uniform(0.5 * interval, 1.5 * interval)
        sample = rng.choice(samples)
        body = json.dumps({"revision": revisions[sample], "class_ids": rng.sample(classes, 2)})
        began = time.perf_counter()
        connection.request("PUT", f"/api/samples/{sample}/labels/", body, headers)
        response = connection.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - began) * 1000
        if response.status != 200:
            raise RuntimeError(f"{response.status}: {data[:200]!r}")
        revisions[sample] = json.loads(data)["revision"]
        if n >= warmup:
            out.append(elapsed)
        time.sleep(max(0.0, due - time.perf_counter()))
    connection.close()


def add_server_arguments(parser: argparse.ArgumentParser, workers: int, threads: int) -> None:
    parser.add_argument(
        "--server",
        choices=("runstack", "custom"),
        default="runstack",
        help="runstack: exactly `make run`'s web server; custom: --workers x --threads",
    )
    parser.add_argument("--workers", type=int, default=workers, help="with --server custom")
    parser.add_argument("--threads", type=int, default=threads, help="with --server custom")


def server_command(server: str, port: int, workers: int, threads: int) -> list[str]:
    """The web server's command line: runstack's own (`make run`), or gunicorn gthread with
    `workers` x `threads`."""
    if server == "runstack":
        from core.management.commands.runstack import Command, web_command

        default_workers = (
            Command().create_parser("manage.py", "runstack").get_default("web_workers")
        )
        return web_command("127.0.0.1", port, reload=False, workers=default_workers)
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "studio.wsgi:application",
        "--pythonpath=platform",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        "--worker-class=gthread",
        f"--threads={threads}",
        "--log-level=warning",
    ]


def start_server(
    folder: Path,
    port: int,
    workers: int = 2,
    threads: int = 4,
    *,
    server: str = "custom",
) -> subprocess.Popen[bytes]:
    """Starts the web server (server_command) on the database and media folder that
    django_sandbox(folder) configured, and waits until it answers; its output (the access log
    too) goes to `folder/server.log`. Stop it with core.localstack.stop()."""
    from core import localstack

    # django_sandbox() put VAR_DIR, DATABASE_URL and MEDIA_ROOT in this environment; the rest
    # is `make run`'s defaults (DEBUG off, whatever the shell says).
    env = {**os.environ, "DEBUG": "0"}
    log = folder / "server.log"
    with open(log, "ab") as output:  # the child keeps its own descriptor
        process = localstack.spawn(
            server_command(server, port, workers, threads),
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            probe.request("GET", "/healthz/live")
            if probe.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.2)
        finally:
            probe.close()
    localstack.stop(process)
    raise RuntimeError(f"the web server did not start: {log.read_text(errors='replace')[-2000:]}")


def run_load(
    server: subprocess.Popen,
    database: ThrowawayDatabase,
    port: int,
    tokens: list[str],
    revisions: list[dict[int, int]],
    classes: list[int],
    args: argparse.Namespace,
    interval: float,
) -> dict[str, object]:
    latencies: list[float] = []
    barrier = threading.Barrier(len(tokens))
    threads = [
        threading.Thread(
            target=labeler,
            args=(
                port,
                token,
                samples,
                classes,
                args.saves,
                args.warmup,
                interval,
                barrier,
                latencies,
            ),
        )
        for token, samples in zip(tokens, revisions, strict=True)
    ]
    began = time.perf_counter()
    cpu_before = process_tree_cpu_seconds(server.pid), database_cpu_seconds(database)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    server_cpu = process_tree_cpu_seconds(server.pid) - cpu_before[0]
    database_cpu = database_cpu_seconds(database) - cpu_before[1]
    sent = len(tokens) * (args.saves + args.warmup)
    latencies.sort()

    def pick(q: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * q))], 1)

    return {
        "interval_s": interval,
        "saves": len(latencies),
        "saves_per_s": round(len(latencies) / seconds, 1),
        "p50_ms": pick(0.5),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
        "mean_ms": round(statistics.mean(latencies), 1),
        # Server CPU per save (warm-up included): what a save costs on an otherwise idle machine;
        # PostgreSQL's processes apart (0 on SQLite, whose work is in the server's).
        "server_cpu_ms_per_save": round(1000 * server_cpu / sent, 2),
        "database_cpu_ms_per_save": round(1000 * database_cpu / sent, 2),
    }


# The numbers whose postgres/sqlite ratios `--database both` reports.
RATIO_KEYS = {"saves_per_s", "p50_ms", "p95_ms", "p99_ms", "server_cpu_ms_per_save"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.5)
    add_database_argument(parser)
    add_server_arguments(parser, workers=2, threads=4)
    args = parser.parse_args()
    if args.database == "both":
        report = compare_databases(__file__, RATIO_KEYS)
    else:
        report = run_on(args.database, args)
    print(json.dumps(report, indent=2))


def run_on(kind: str, args: argparse.Namespace) -> dict[str, object]:
    with (
        tempfile.TemporaryDirectory(prefix="sampan-bench-save-") as tmp,
        throwaway_database(kind, Path(tmp)) as database,
    ):
        folder = Path(tmp)
        django_sandbox(folder, database.url)
        from core import localstack

        tokens, owned, classes = fill(args.clients, 20)
        revisions = [dict.fromkeys(samples, 0) for samples in owned]  # what each client holds
        port = localstack.free_port()
        server = start_server(folder, port, args.workers, args.threads, server=args.server)
        try:
            loads = {
                "paced": run_load(
                    server, database, port, tokens, revisions, classes, args, args.interval
                ),
                "flat_out": run_load(server, database, port, tokens, revisions, classes, args, 0),
            }
        finally:
            localstack.stop(server)
        description = database_description()
    return {
        "benchmark": "annotation_save",
        "database": description,
        "clients": args.clients,
        "client": CLIENT,
        "server": args.server,
        "server_command": " ".join(server.args[1:]),  # after the Python interpreter
        "target_p95_ms": 50,
        "load_average_1m": round(os.getloadavg()[0], 2),  # other work on the machine
        **loads,
    }


if __name__ == "__main__":
    main()
