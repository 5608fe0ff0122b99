"""`make run`: migrate, ensure the demo login, then run redis-server, a Celery worker and the
web server together until Ctrl-C, which stops all of them."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core import localstack


class Command(BaseCommand):
    help = "Run the whole local stack: redis-server, one Celery worker and the web server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
        parser.add_argument("--no-demo", action="store_true", help="Skip the demo login")
        parser.add_argument(
            "--reload",
            action="store_true",
            help="Serve with Django's development server, restarting it on code edits",
        )
        parser.add_argument("--web-workers", type=int, default=2, help="gunicorn processes")

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = options["host"], options["port"]
        if _port_in_use(host, port):
            raise CommandError(f"{host}:{port} is already in use; stop that server or set PORT")
        call_command("migrate", interactive=False, verbosity=0)
        demo = io.StringIO()
        if not options["no_demo"]:
            call_command("ensure_demo", stdout=demo)
            call_command("seed_demo_training", stdout=self.stdout)

        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.stopping = False
        signal.signal(signal.SIGINT, self._request_stop)
        signal.signal(signal.SIGTERM, self._request_stop)
        try:
            self._start_redis()
            # The worker and the web server boot side by side; both must be up for the banner.
            wait_for_worker = self._start_worker(options["concurrency"])
            self._start_web(host, port, reload=options["reload"], workers=options["web_workers"])
            wait_for_worker()
            self._print_banner(host, port, demo.getvalue().strip())
            self._supervise()
        except localstack.StartupError as error:
            raise CommandError(str(error)) from None
        finally:
            self._stop_all()

    def _request_stop(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def _start_redis(self) -> None:
        url = settings.REDIS_URL
        if localstack.redis_answers(url):
            self.stdout.write(f"Using the Redis already answering at {url}")
            return
        if not localstack.is_local_redis_url(url):
            raise CommandError(f"REDIS_URL={url} does not answer; start that server first")
        port = urlsplit(url).port or 6379
        self.stdout.write(f"Starting redis-server on 127.0.0.1:{port}")
        redis_dir = settings.VAR_DIR / "redis"
        self.processes.append(("redis", localstack.start_redis(port, redis_dir, persistent=True)))

    def _start_worker(self, concurrency: int) -> Callable[[], None]:
        """Starts the worker and returns the function that waits until it answers."""
        from workers.celery import DEFAULT_QUEUE, GPU_QUEUE, app

        hostname = f"sampan-{socket.gethostname()}-{int(time.time())}@localhost"
        command = localstack.worker_command(
            queues=[GPU_QUEUE, DEFAULT_QUEUE],
            hostname=hostname,
            concurrency=concurrency,
            beat=True,  # one worker in development, so it also runs the periodic tasks
        )
        self.stdout.write("Starting the Celery worker (queues gpu, default)")
        worker = localstack.start_worker(command, env={})
        self.processes.append(("worker", worker))
        return lambda: localstack.wait_for_worker(app, hostname, worker)

    def _start_web(self, host: str, port: int, *, reload: bool, workers: int) -> None:
        command = web_command(host, port, reload=reload, workers=workers)
        self.stdout.write(f"Starting the web server on {host}:{port}")
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(fresh_metrics_folder())}
        web = localstack.spawn(command, env=env)
        self.processes.append(("web", web))
        deadline = time.monotonic() + 30
        while not _answers(f"http://{host}:{port}/healthz/live"):
            if web.poll() is not None or time.monotonic() > deadline:
                raise localstack.StartupError("the web server did not start; see its output")
            time.sleep(0.2)

    def _print_banner(self, host: str, port: int, demo: str) -> None:
        base = f"http://{host}:{port}/"
        health = _health(base + "healthz")
        lines = ["", "=" * 64, f"  Sampan is running at {base}"]
        if demo:
            lines.append(f"  {demo}")
        lines += [
            f"  Health: {health}",
            f"  API docs: {base}api/docs/",
            "  Press Ctrl-C to stop the web server, the worker and redis-server.",
            "=" * 64,
            "",
        ]
        self.stdout.write("\n".join(lines))

    def _supervise(self) -> None:
        while not self.stopping:
            for name, process in self.processes:
                if process.poll() is not None:
                    raise CommandError(f"{name} exited with code {process.returncode}")
            time.sleep(0.5)

    def _stop_all(self) -> None:
        # Web first, so no request enqueues work while the worker and Redis go away.
        for name, process in reversed(self.processes):
            if process.poll() is None:
                self.stdout.write(f"Stopping {name}")
            localstack.stop(process)
        self.processes.clear()


def web_command(host: str, port: int, *, reload: bool, workers: int) -> list[str]:
    """gunicorn, as in compose: threads keep connections alive between requests, where
    Django's development server costs a keep-alive client about 45 ms a request
    (benchmarks/keepalive.py). `--reload` is for developers: runserver, restarting on edits."""
    if reload:
        return [sys.executable, "manage.py", "runserver", f"{host}:{port}"]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "studio.wsgi:application",
        "--pythonpath=platform",  # the source root, as manage.py sets it
        f"--bind={host}:{port}",
        f"--workers={workers}",
        "--worker-class=gthread",
        "--threads=4",
        "--keep-alive=5",
        "--timeout=120",
        "--access-logfile=-",
        "--logger-class=core.gunicorn_logging.Logger",  # LOG_FORMAT for gunicorn's lines too
    ]


def fresh_metrics_folder() -> Path:
    """Where the web processes keep their /metrics counters (core.metrics), emptied: counts of
    the previous run's processes would otherwise be added to this run's."""
    folder = Path(settings.PROMETHEUS_MULTIPROC_DIR or settings.VAR_DIR / "metrics")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink()
    return folder


def _port_in_use(host: str, port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex((host, port)) == 0


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except (urllib.error.URLError, OSError):
        return False


def _health(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            body = json.load(response)
    except urllib.error.HTTPError as error:
        body = json.load(error)
    except (urllib.error.URLError, OSError) as error:
        return f"unknown ({error})"
    checks = ", ".join(
        f"{name} {'ok' if check['ok'] else 'DOWN'}" for name, check in body["checks"].items()
    )
    return f"{body['status']} ({checks})"
