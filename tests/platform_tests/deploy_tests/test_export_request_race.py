"""Two identical export requests at the same moment (a double click that reaches two web
processes) end with one export: the check for one in flight and the insert share a
transaction, and the loser of the version-number race answers the winner's (issue 23)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from deploy.models import ModelExport
from deploy.services.exports import request_export
from tests.platform_tests.deploy_tests.base import build_world


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_identical_requests_makes_one_export(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    world = build_world(settings.MEDIA_ROOT)
    start = threading.Barrier(4)
    answers: list[tuple[int, bool]] = []
    errors: list[BaseException] = []

    def ask() -> None:
        try:
            start.wait(10)
            export, created = request_export(world.job, "onnx", world.user, 0.5)
            answers.append((export.pk, created))
        except BaseException as error:  # reported below, on the test thread
            errors.append(error)
        finally:
            connection.close()

    with mock.patch("deploy.services.exports.enqueue") as enqueue:
        threads = [threading.Thread(target=ask) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert errors == []
    assert len({pk for pk, _ in answers}) == 1
    assert sorted(created for _, created in answers) == [False, False, False, True]
    assert ModelExport.objects.filter(job=world.job, format="onnx").count() == 1
    enqueue.assert_called_once()
