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
            assert "inspect" in argv
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


def test_the_gpu_worker_reserves_nvidia_devices_and_installs_the_gpu_extra() -> None:
    worker = COMPOSE["services"]["worker"]
    assert option(argv_of(worker["command"]), "--queues") == "gpu"
    devices = worker["deploy"]["resources"]["reservations"]["devices"]
    assert devices == [{"driver": "nvidia", "count": "all", "capabilities": ["gpu"]}]
    assert worker["build"]["args"]["EXTRAS"] == "gpu"
    assert re.search(r"^ARG EXTRAS=", DOCKERFILE, re.MULTILINE)


def test_the_stack_has_its_services_volumes_and_health_checks() -> None:
    services = COMPOSE["services"]
    assert {"web", "worker", "redis", "postgres"} <= set(services)
    for name, service in services.items():
        if name != "migrate":
            assert "healthcheck" in service, f"{name} has no health check"
        for volume in service.get("volumes", []):
            assert volume.split(":")[0] in COMPOSE["volumes"], volume
    assert services["web"]["env_file"] == [{"path": ".env", "required": False}]
