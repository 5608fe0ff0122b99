"""What `make run`'s web server costs a keep-alive client: Django's development server against
gunicorn (runstack's default), the same request over one connection.

    python benchmarks/keepalive.py [--requests 200]

Each server is started as runstack starts it (core.management.commands.runstack.web_command) on
a throwaway SQLite database, then one HTTP/1.1 connection sends `--requests` GETs of
`/healthz/live` (the cheapest page: no database, no template), one after another. It prints the
median and 95th percentile per request, and also the time to open a fresh connection per
request, which is what a client without keep-alive pays.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "platform"))


def main() -> None:
    args = parse_args()
    from core import localstack
    from core.management.commands.runstack import web_command

    results = {}
    with tempfile.TemporaryDirectory(prefix="sampan-keepalive-") as folder:
        env = {**os.environ, "VAR_DIR": folder, "DJANGO_SETTINGS_MODULE": "studio.settings"}
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        for name, reload in (("runserver", True), ("gunicorn", False)):
            port = localstack.free_port()
            command = web_command("127.0.0.1", port, reload=reload, workers=2)
            if reload:
                command.append("--noreload")  # the reloader's own process adds nothing here
            server = localstack.spawn(
                command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            try:
                _wait(port)
                results[name] = {
                    "keep_alive": _timed(port, args.requests, reuse=True),
                    "new_connection": _timed(port, args.requests, reuse=False),
                }
            finally:
                localstack.stop(server)
    keep = {name: r["keep_alive"]["median_ms"] for name, r in results.items()}
    print(
        json.dumps(
            {
                "date": time.strftime("%Y-%m-%d"),
                "requests": args.requests,
                "results": results,
                "keep_alive_extra_ms_runserver_vs_gunicorn": round(
                    keep["runserver"] - keep["gunicorn"], 2
                ),
            },
            indent=2,
        )
    )


def _wait(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz/live")
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no server answered on port {port}")


def _timed(port: int, count: int, *, reuse: bool) -> dict[str, float]:
    samples = []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _ in range(count):
        if not reuse:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start = time.perf_counter()
        connection.request("GET", "/healthz/live")
        response = connection.getresponse()
        response.read()
        samples.append(1000 * (time.perf_counter() - start))
        if not reuse:
            connection.close()
    connection.close()
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 2),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 2),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    return parser.parse_args()


if __name__ == "__main__":
    main()
