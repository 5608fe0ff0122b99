"""docker-compose.yml names real entry points and only variables the settings read.

There is no Docker engine on the build machines, so this is the check that the compose stack
and the Dockerfile still match the code they run.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery
from django.core.management import get_commands
from django.urls import resolve

REPO_ROOT = Path(__file__).resolve().parents[3]
COMPOSE = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text()
OUR_SERVICES = {name: spec for name, spec in COMPOSE["services"].items() if "build" in spec}


def console_scripts() -> set[str]:
    return {entry.name for entry in importlib.metadata.entry_points(group="console_scripts")}


def option(argv: list[str], name: str) -> str:
    for index, arg in enumerate(argv):
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
        if arg == name:
            return argv[index + 1]
    raise AssertionError(f"{name} missing from {argv}")


def check_command(argv: list[str]) -> None:
    """Fails unless ``argv`` runs something that exists in this codebase."""
    program = argv[0]
    if program == "python" and argv[1] == "manage.py":
        assert (REPO_ROOT / "manage.py").exists()
        assert argv[2] in get_commands(), f"no management command {argv[2]!r}"
    elif program == "python" and argv[1] == "-c":
        for path in re.findall(r"http://127\.0\.0\.1:8000(/[^'\"]*)", argv[2]):
            resolve(path)
    elif program == "gunicorn":
        assert "gunicorn" in console_scripts()
        target = next(arg for arg in argv[1:] if not arg.startswith("-"))
        module, attribute = target.split(":")
        assert callable(getattr(importlib.import_module(module), attribute))
    elif program == "celery":
        assert "celery" in console_scripts()
        module = option(argv, "--app")
        app = importlib.import_module(module).app
        assert isinstance(app, Celery)
        if "worker" in argv:
            known = {queue.name for queue in app.conf.task_queues}
            assert set(option(argv, "--queues").split(",")) <= known
        else:
            assert "inspect" in argv or "beat" in argv
    else:
        raise AssertionError(f"unexpected program {program!r} in {argv}")


def argv_of(command: Any) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


@pytest.mark.parametrize("name", sorted(OUR_SERVICES))
def test_each_command_names_a_real_entry_point(name: str) -> None:
    service = OUR_SERVICES[name]
    check_command(argv_of(service["command"]))
    if "healthcheck" in service:
        test = service["healthcheck"]["test"]
        check_command(argv_of(test[1]) if test[0] == "CMD-SHELL" else test[1:])


def test_the_image_default_command_is_real() -> None:
    command = re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.MULTILINE)
    check_command(json.loads(command.group(1)))


@pytest.mark.parametrize("name", sorted(OUR_SERVICES))
def test_every_variable_it_sets_is_read_by_the_settings(
    name: str, settings_variables: set[str]
) -> None:
    assert set(OUR_SERVICES[name]["environment"]) <= settings_variables


def test_the_image_sets_only_variables_the_settings_read(settings_variables: set[str]) -> None:
    env_block = re.search(r"^ENV (.*?)\n\n", DOCKERFILE, re.MULTILINE | re.DOTALL).group(1)
    names = set(re.findall(r"([A-Z_]+)=", env_block))
    python_own = {
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PYTHONPATH",
        "PIP_NO_CACHE_DIR",
        "PIP_DISABLE_PIP_VERSION_CHECK",
        "DJANGO_SETTINGS_MODULE",
    }
    framework_own = {"FRAMEWORK_HOME"}  # the weight store's folder (framework.core.home)
    assert names - python_own - framework_own <= settings_variables


def test_the_gpu_worker_reserves_nvidia_devices_behind_a_profile() -> None:
    worker = COMPOSE["services"]["worker-gpu"]
    assert worker["profiles"] == ["gpu"]  # a host without the NVIDIA runtime never starts it
    assert option(argv_of(worker["command"]), "--queues") == "gpu"
    devices = worker["deploy"]["resources"]["reservations"]["devices"]
    assert devices == [{"driver": "nvidia", "count": "all", "capabilities": ["gpu"]}]
    assert worker["build"]["args"]["EXTRAS"] == "gpu"
    assert re.search(r"^ARG EXTRAS=", DOCKERFILE, re.MULTILINE)


def test_a_cpu_only_host_trains_and_exports() -> None:
    """Training and exports go to queue gpu; a service without a profile consumes it."""
    consumers = [
        name
        for name, service in COMPOSE["services"].items()
        if "profiles" not in service
        and "worker" in argv_of(service.get("command", []))
        and "gpu" in option(argv_of(service["command"]), "--queues").split(",")
    ]
    assert consumers == ["worker"]
    assert (
        "deploy" not in COMPOSE["services"]["worker"]
        or "reservations" not in (COMPOSE["services"]["worker"]["deploy"]["resources"])
    )


def test_the_schedule_runs_once_in_its_own_service() -> None:
    services = COMPOSE["services"]
    beats = [n for n, s in services.items() if "beat" in argv_of(s.get("command", []))]
    assert beats == ["beat"]
    for name, service in services.items():
        assert "--beat" not in argv_of(service.get("command", [])), name


def test_secrets_are_required_and_reach_the_containers_as_files() -> None:
    text = (REPO_ROOT / "docker-compose.yml").read_text()
    assert "${SECRET_KEY:?" in text and "${POSTGRES_PASSWORD:?" in text
    assert set(COMPOSE["secrets"]) == {"secret_key", "postgres_password"}
    for name, service in OUR_SERVICES.items():
        environment = service["environment"]
        assert environment["SECRET_KEY_FILE"] == "/run/secrets/secret_key", name
        assert environment["DATABASE_PASSWORD_FILE"] == "/run/secrets/postgres_password", name
        assert "SECRET_KEY" not in environment and "PASSWORD" not in environment["DATABASE_URL"]
    assert COMPOSE["services"]["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"]


def test_every_service_has_limits_and_the_workers_an_init() -> None:
    for name, service in COMPOSE["services"].items():
        if name != "migrate":
            assert service["deploy"]["resources"]["limits"]["memory"], name
        if "celery" in argv_of(service.get("command", [])):
            assert service["init"] is True, name


def test_the_web_port_is_bound_to_the_loopback_by_default() -> None:
    (port,) = COMPOSE["services"]["web"]["ports"]
    assert port.startswith("${WEB_BIND:-127.0.0.1}:")


def test_the_stack_has_its_services_volumes_and_health_checks() -> None:
    services = COMPOSE["services"]
    assert {"web", "worker", "worker-default", "beat", "redis", "postgres"} <= set(services)
    for name, service in services.items():
        if name not in ("migrate", "beat"):
            assert "healthcheck" in service, f"{name} has no health check"
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in COMPOSE["volumes"], volume


def test_the_operators_settings_pass_through_and_nothing_else() -> None:
    """No env_file: it would hand the containers .env's secrets as environment values, and
    its blanks would override the image's settings. Every setting an operator may put in .env
    is passed on by name instead, except those the stack itself fixes."""
    example = (REPO_ROOT / ".env.example").read_text()
    settings_part = example.split("Read by docker-compose.yml only")[0]
    operators = set(re.findall(r"^([A-Z][A-Z0-9_]*)=", settings_part, re.MULTILINE))
    fixed_by_the_stack = {
        "DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "DATABASE_URL", "DATABASE_PASSWORD",
        "DATABASE_PASSWORD_FILE", "REDIS_URL", "VAR_DIR", "MEDIA_ROOT", "STATIC_ROOT",
        "COLLECTED_STATIC", "PROMETHEUS_MULTIPROC_DIR", "METRICS_TOKEN_FILE",
    }  # fmt: skip
    text = (REPO_ROOT / "docker-compose.yml").read_text()
    for name, service in OUR_SERVICES.items():
        assert "env_file" not in service, name
        environment = service["environment"]
        for variable in operators - fixed_by_the_stack:
            assert variable in environment, f"{name} does not pass {variable} on"
            assert f"${{{variable}:-" in text, variable  # from .env, with the stack's default


def test_the_image_installs_pinned_versions_of_every_runtime_dependency() -> None:
    """constraints.txt (`make constraints`) pins each of pyproject's runtime dependencies, to a
    version its range allows: a dependency added or re-ranged without rewriting it fails."""
    from packaging.requirements import Requirement

    assert "--constraint constraints.txt" in DOCKERFILE
    pins: dict[str, str] = {}
    for line in (REPO_ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    for text in project["dependencies"]:
        requirement = Requirement(text)
        if requirement.marker and not requirement.marker.evaluate():
            continue
        key = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert key in pins, f"{requirement.name} is not in constraints.txt: run make constraints"
        assert requirement.specifier.contains(pins[key], prereleases=True), (key, pins[key])
    # Extras count: the slim image has no libpq, and psycopg[binary] brings its own.
    assert "psycopg-binary" in pins


def test_the_image_leaves_out_tests_and_benchmarks() -> None:
    ignored = (REPO_ROOT / ".dockerignore").read_text().split()
    assert {"tests", "benchmarks", "test-results", ".git", ".env"} <= set(ignored)
