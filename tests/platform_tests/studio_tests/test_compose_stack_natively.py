"""Every service of docker-compose.yml, started natively from the file itself.

There is no Docker engine on the build machines. This test does what `docker compose up` would:
it reads each service's command and environment from docker-compose.yml (interpolated from a
.env like .env.example's), adds the Dockerfile's ENV, writes the secrets as files, and runs the
Dockerfile's collectstatic, the one-shot migrate, then web, worker, worker-default and beat as
processes against a PostgreSQL server that requires the password from its secret and a
redis-server. Container names and paths are mapped onto the host (postgres:5432, redis:6379,
/data, /run/secrets, /app). Then it runs each service's own health check, and a dataset import
(queue default) and a training job (queue gpu, on the CPU worker) through the web server's API.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from core import localstack
from tests.platform_tests.datastore_tests import sample_images

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO_ROOT = Path(__file__).resolve().parents[3]
COMPOSE_TEXT = (REPO_ROOT / "docker-compose.yml").read_text()
DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text()
BIN = Path(sys.executable).parent
APP_SERVICES = ("web", "worker", "worker-default", "beat")

if os.environ.get("SAMPAN_TEST_POSTGRES") == "1":
    pytest.skip(
        "starts its own PostgreSQL: it runs once, in the SQLite run", allow_module_level=True
    )


def interpolate(text: str, variables: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error} substitution, and $$ for $."""

    def substitute(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, operator, argument = match.group(1), match.group(2), match.group(3) or ""
        value = variables.get(name, "")
        if operator == ":?" and not value:
            raise AssertionError(f"compose would stop: {argument}")
        if operator == ":-" and not value:
            return argument
        return value

    return re.sub(r"\$\$|\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", substitute, text)


def interpolated(node: Any, variables: dict[str, str]) -> Any:
    """The parsed file with its strings interpolated, as compose does: after parsing, so that
    `NAME: ${NAME:-}` is an empty string, not YAML's null."""
    if isinstance(node, dict):
        return {key: interpolated(value, variables) for key, value in node.items()}
    if isinstance(node, list):
        return [interpolated(item, variables) for item in node]
    return interpolate(node, variables) if isinstance(node, str) else node


def dockerfile_environment() -> dict[str, str]:
    block = re.search(r"^ENV (.*?)\n\n", DOCKERFILE, re.MULTILINE | re.DOTALL).group(1)
    return dict(re.findall(r"([A-Z_]+)=(\S+?)\s*(?:\\|$)", block, re.MULTILINE))


class Host:
    """Maps the containers' names and paths onto this machine."""

    def __init__(self, root: Path, postgres_port: int, redis_port: int, web_port: int) -> None:
        self.root = root
        self.web_port = web_port
        self.replacements = [
            ("postgres:5432", f"127.0.0.1:{postgres_port}"),
            ("redis:6379", f"127.0.0.1:{redis_port}"),
            ("0.0.0.0:8000", f"127.0.0.1:{web_port}"),
            ("127.0.0.1:8000", f"127.0.0.1:{web_port}"),
            ("/run/secrets/", f"{root}/secrets/"),
            ("/app/platform", str(REPO_ROOT / "platform")),
            ("/app/staticfiles", str(root / "staticfiles")),
            ("/data", str(root / "data")),
            ("/app", str(REPO_ROOT)),
        ]

    def path(self, value: str) -> str:
        for container, host in self.replacements:
            value = value.replace(container, host)
        return value

    def argv(self, command: Any) -> list[str]:
        argv = [
            self.path(arg)
            for arg in (shlex.split(command) if isinstance(command, str) else command)
        ]
        if argv[0] in ("python", "gunicorn", "celery"):
            argv[0] = sys.executable if argv[0] == "python" else str(BIN / argv[0])
        return argv


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    try:
        localstack.postgres_programs()
        localstack.redis_server_path()
    except localstack.StartupError as error:
        pytest.skip(str(error))
    root = tmp_path_factory.mktemp("compose")
    dotenv = {
        "SECRET_KEY": "native-compose-" + "k" * 40,
        "POSTGRES_PASSWORD": "native compose password",
        "ALLOWED_HOSTS": "sampan.example.com",  # the real domain; the health check must pass
    }
    compose = interpolated(yaml.safe_load(COMPOSE_TEXT), dotenv)
    host = Host(root, localstack.free_port(), localstack.free_port(), localstack.free_port())

    (root / "secrets").mkdir()
    for name, secret in compose["secrets"].items():
        (root / "secrets" / name).write_text(dotenv[secret["environment"]])
    (root / "data").mkdir()

    processes: list[tuple[str, subprocess.Popen[bytes]]] = []
    postgres_service = compose["services"]["postgres"]["environment"]
    assert postgres_service["POSTGRES_USER"] == "sampan"  # the user start_postgres creates
    # Under /tmp itself: as root the server runs as user postgres, who cannot enter pytest's
    # private folders.
    postgres_dir = Path(tempfile.mkdtemp(prefix="sampan-compose-postgres-"))
    postgres = localstack.start_postgres(
        postgres_dir,
        int(host.path("postgres:5432").rsplit(":")[-1]),
        password=dotenv["POSTGRES_PASSWORD"],
    )
    redis = localstack.start_redis(
        int(host.path("redis:6379").rsplit(":")[-1]), root / "redis", persistent=False
    )
    import psycopg

    with psycopg.connect(
        host="127.0.0.1",
        port=int(host.path("postgres:5432").rsplit(":")[-1]),
        user="sampan",
        password=dotenv["POSTGRES_PASSWORD"],
        dbname="postgres",
        autocommit=True,
    ) as connection:  # what the postgres image does with POSTGRES_DB
        connection.execute(f'CREATE DATABASE "{postgres_service["POSTGRES_DB"]}"')

    base_env = {
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", str(root)),
        "LANG": "C.UTF-8",
        "HOSTNAME": socket.gethostname(),  # what $HOSTNAME is in a container, and celery's %h
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
    }
    image_env = {name: host.path(value) for name, value in dockerfile_environment().items()}
    # The image converts the shipped weights at build time; here they are where make test put them.
    image_env["FRAMEWORK_HOME"] = os.environ.get("FRAMEWORK_HOME", "")

    def service_env(name: str) -> dict[str, str]:
        environment = compose["services"][name]["environment"]
        return {
            **base_env,
            **image_env,
            **{key: host.path(str(value)) for key, value in environment.items()},
        }

    def run_once(argv: list[str], env: dict[str, str], what: str) -> str:
        done = subprocess.run(
            argv, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{what} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    try:
        # The Dockerfile's build step: collectstatic, with its throwaway key.
        build = re.search(
            r"^RUN (SECRET_KEY=\S+) VAR_DIR=\S+ (python manage.py collectstatic .*?) \\$",
            DOCKERFILE,
            re.MULTILINE,
        )
        build_env = {**base_env, **image_env, "VAR_DIR": str(root / "build-var")}
        build_env.update([build.group(1).split("=", 1)])
        run_once(host.argv(build.group(2)), build_env, "collectstatic")
        run_once(
            host.argv(compose["services"]["migrate"]["command"]), service_env("migrate"), "migrate"
        )
        for name in APP_SERVICES:
            log = open(root / f"{name}.log", "ab")
            with log:
                processes.append(
                    (
                        name,
                        localstack.spawn(
                            host.argv(compose["services"][name]["command"]),
                            env=service_env(name),
                            stdout=log,
                            stderr=subprocess.STDOUT,
                        ),
                    )
                )
        yield {
            "compose": compose,
            "host": host,
            "root": root,
            "service_env": service_env,
            "run_once": run_once,
            "processes": dict(processes),
        }
    finally:
        for _, process in reversed(processes):
            localstack.stop(process)
        localstack.stop(redis)
        localstack.stop_postgres(postgres)
        shutil.rmtree(postgres_dir, ignore_errors=True)


def log_of(stack: dict[str, Any], name: str) -> str:
    return (stack["root"] / f"{name}.log").read_text(errors="replace")[-4000:]


def until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


def health_check(stack: dict[str, Any], name: str) -> bool:
    test = stack["compose"]["services"][name]["healthcheck"]["test"]
    argv = ["/bin/sh", "-c", test[1]] if test[0] == "CMD-SHELL" else test[1:]
    argv = stack["host"].argv(argv) if test[0] != "CMD-SHELL" else argv
    if test[0] == "CMD-SHELL":
        argv[2] = " ".join(stack["host"].argv(shlex.split(argv[2])))
    done = subprocess.run(
        argv, cwd=REPO_ROOT, env=stack["service_env"](name), capture_output=True, timeout=60
    )
    return done.returncode == 0


def api(
    stack: dict[str, Any],
    method: str,
    path: str,
    token: str,
    body: Any = None,
    data: bytes | None = None,
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}", "Host": "sampan.example.com"}
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    elif data is not None:
        headers["Content-Type"] = "application/octet-stream"
    request = urllib.request.Request(
        f"http://127.0.0.1:{stack['host'].web_port}{path}",
        data=data,
        method=method,
        headers=headers,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def test_every_service_starts_from_the_compose_file_and_passes_its_health_check(stack) -> None:
    for name in ("web", "worker", "worker-default"):
        until(
            lambda name=name: health_check(stack, name),
            90,
            f"{name}'s health check\n{log_of(stack, name)}",
        )
    for name, process in stack["processes"].items():
        assert process.poll() is None, f"{name} exited\n{log_of(stack, name)}"
    assert "beat: Starting" in until(
        lambda: "beat: Starting" in log_of(stack, "beat") and log_of(stack, "beat"), 30, "beat"
    )

    request = urllib.request.Request(
        f"http://127.0.0.1:{stack['host'].web_port}/healthz", headers={"Host": "sampan.example.com"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        health = json.loads(response.read())
    checks = health["checks"]
    assert health["status"] == "ok" and checks["database"]["ok"] and checks["redis"]["ok"], health
    assert checks["workers"]["count"] == 2, health  # worker and worker-default; beat is no worker


def test_an_import_and_a_training_job_run_through_the_stack(stack, tmp_path: Path) -> None:
    for name in ("web", "worker", "worker-default"):
        until(lambda name=name: health_check(stack, name), 90, f"{name}'s health check")
    # The first account and token, as `docker compose exec web python manage.py shell` would.
    script = (
        "from accounts.services import sign_up, create_workspace, issue_token\n"
        "user = sign_up(username='ops', email='ops@example.com',"
        " password='a long enough passphrase')\n"
        "workspace = create_workspace(owner=user, name='Ops lab')\n"
        "print(workspace.slug, issue_token(workspace, user=user, name='ci')[1])\n"
    )
    output = stack["run_once"](
        [sys.executable, "manage.py", "shell", "-c", script], stack["service_env"]("web"), "shell"
    )
    slug, token = output.split()[-2:]

    status, dataset = api(
        stack,
        "POST",
        f"/api/workspaces/{slug}/datasets/",
        token,
        {"name": "Digits", "task_type": "classification"},
    )
    assert status == 201, dataset
    sample_images.class_folders(tmp_path / "src", labels=(3, 8), per_class=10)
    archive = sample_images.zip_folder(tmp_path / "src", tmp_path / "digits.zip")
    status, upload = api(stack, "POST", f"/api/datasets/{dataset['id']}/uploads/", token, {})
    assert status == 201, upload
    status, declared = api(
        stack,
        "POST",
        f"/api/uploads/{upload['id']}/files/",
        token,
        {"files": [{"name": "digits.zip", "size": archive.stat().st_size}]},
    )
    assert status in (200, 201), declared
    files = declared["results"] if isinstance(declared, dict) else declared
    status, _ = api(
        stack,
        "PUT",
        f"/api/uploads/{upload['id']}/files/{files[0]['id']}/",
        token,
        data=archive.read_bytes(),
    )
    assert status in (200, 204), _
    status, job = api(stack, "POST", f"/api/uploads/{upload['id']}/import/", token, {})
    assert status == 202, job

    def imported() -> dict[str, Any] | None:
        status, body = api(stack, "GET", f"/api/imports/{job['id']}/", token)
        return body if status == 200 and body["status"] in ("succeeded", "failed") else None

    done = until(imported, 120, f"the import\n{log_of(stack, 'worker-default')}")
    assert (done["status"], done["samples_added"]) == ("succeeded", 20), done

    status, version = api(
        stack,
        "POST",
        f"/api/datasets/{dataset['id']}/versions/",
        token,
        {"split_method": "stratified", "ratios": {"train": 0.6, "val": 0.4, "test": 0.0}},
    )
    assert status == 201, version
    status, training = api(
        stack,
        "POST",
        f"/api/workspaces/{slug}/jobs/",
        token,
        {
            "dataset_version": version["id"],
            "architecture": "mlp",
            "preset": "balanced",
            "hyperparameters": {"epochs": 2, "batch_size": 8, "augment_crop": False},
        },
    )
    assert status == 201, training

    def trained() -> dict[str, Any] | None:
        status, body = api(stack, "GET", f"/api/jobs/{training['id']}/", token)
        return (
            body
            if status == 200 and body["status"] in ("succeeded", "failed", "cancelled")
            else None
        )

    done = until(trained, 240, f"the training job\n{log_of(stack, 'worker')}")
    assert done["status"] == "succeeded", (done, log_of(stack, "worker"))
    assert done["worker"].startswith("cpu@"), done  # the CPU worker took queue gpu
