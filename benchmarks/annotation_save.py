"""Annotation save latency with concurrent labelers, over HTTP against a real server.

    python benchmarks/annotation_save.py [--clients 20] [--saves 50] [--interval 0.5]
                                         [--workers 2] [--threads 4]

Starts gunicorn (gthread: `--workers` processes x `--threads` threads) on a throwaway SQLite
database in WAL mode, then `--clients` labelers, each on its own keep-alive connection and
API token, save labels (`PUT /api/samples/<id>/labels/` with the revision they hold) on their
own samples, `--saves` each after a warm-up. Two loads:

- paced: each labeler saves every `--interval` seconds (with jitter), as autosave does while
  a fast person labels; 20 labelers at 0.5 s offer 40 saves/s;
- flat out: each labeler sends its next save as soon as the last one answered, which measures
  how many saves per second two cores sustain, and the queueing that costs.

Prints JSON with the p50/p95/p99 latency the clients saw, and the server CPU each save cost.
The target is p95 under 50 ms with 20 concurrent labelers.
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

from dataset_import import REPO, django_sandbox  # noqa: E402 (a sibling script, not a package)


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


def start_server(folder: Path, port: int, workers: int, threads: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "benchmark-only-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "VAR_DIR": str(folder),
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "MEDIA_ROOT": str(folder / "media"),
        "STATIC_ROOT": str(folder / "static"),
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "studio.wsgi:application",
        "--pythonpath",
        str(REPO / "platform"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--log-level",
        "warning",
    ]
    (folder / "static").mkdir(exist_ok=True)  # WhiteNoise warns on every request without it
    server = subprocess.Popen(command, cwd=REPO, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        try:
            probe.request("GET", "/healthz/live")
            if probe.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
        finally:
            probe.close()
    server.terminate()
    raise RuntimeError("gunicorn did not start")


def server_cpu_seconds(server: subprocess.Popen) -> float:
    """CPU time of the gunicorn master and its workers, from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [server.pid]
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return total


def run_load(
    server: subprocess.Popen,
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
    began, cpu_before = time.perf_counter(), server_cpu_seconds(server)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    server_cpu = server_cpu_seconds(server) - cpu_before
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
        # Server CPU per save (warm-up included): what a save costs on an otherwise idle machine.
        "server_cpu_ms_per_save": round(
            1000 * server_cpu / (len(tokens) * (args.saves + args.warmup)), 2
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--saves", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sampan-bench-save-") as tmp:
        folder = Path(tmp)
        django_sandbox(folder)
        from core.localstack import free_port

        tokens, owned, classes = fill(args.clients, 20)
        revisions = [dict.fromkeys(samples, 0) for samples in owned]  # what each client holds
        port = free_port()
        server = start_server(folder, port, args.workers, args.threads)
        try:
            paced = run_load(server, port, tokens, revisions, classes, args, args.interval)
            flat_out = run_load(server, port, tokens, revisions, classes, args, 0.0)
        finally:
            server.terminate()
            server.wait(timeout=30)
    report = {
        "benchmark": "annotation_save",
        "clients": args.clients,
        "server": f"gunicorn gthread {args.workers}x{args.threads}, SQLite WAL",
        "target_p95_ms": 50,
        "load_average_1m": round(os.getloadavg()[0], 2),  # other work on the machine
        "paced": paced,
        "flat_out": flat_out,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
