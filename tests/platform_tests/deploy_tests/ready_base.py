"""A base test case for deploying the zoo's ready models: core.testing's owner/member/viewer/
outsider set-up, a private MEDIA_ROOT, and a helper that runs a queued export here, as the
worker's task does. Skips without the wheels that ship the models.

Not a test module.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from django.test import override_settings
from PIL import Image

from core.testing import BaseTestCase
from deploy.exporting.pipeline import run_export
from deploy.models import ModelExport
from deploy.services import recent, serving, traffic
from deploy.services.ready_exports import request_ready_export
from modelzoo.services.ready import get_ready_model, unavailable


def ready_or_skip(key: str) -> Any:
    ready = get_ready_model(key)
    reason = unavailable(ready)
    if reason is not None:
        pytest.skip(reason)
    return ready


def run_queued(export: ModelExport) -> ModelExport:
    assert export.claim(worker="test-worker@localhost", device="cpu")
    run_export(export, "cpu")
    export.refresh_from_db()
    assert export.status == ModelExport.Status.SUCCEEDED, export.error
    return export


def export_ready_now(
    workspace: Any, key: str, fmt: str = "package", user: Any = None, **options: Any
) -> ModelExport:
    with mock.patch("deploy.services.ready_exports.enqueue"):
        export, created = request_ready_export(workspace, ready_or_skip(key), fmt, user, **options)
    assert created
    return run_queued(export)


def png(image: Any) -> bytes:
    if isinstance(image, np.ndarray):
        image = Image.fromarray(image)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class ReadyTestCase(BaseTestCase):
    media_root: Path

    @classmethod
    def setUpClass(cls) -> None:
        cls.media_root = Path(tempfile.mkdtemp(prefix="sampan-ready-media-"))
        cls._media = override_settings(MEDIA_ROOT=cls.media_root)
        cls._media.enable()
        cls.addClassCleanup(cls._media.disable)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        shutil.rmtree(cls.media_root, ignore_errors=True)

    def setUp(self) -> None:
        super().setUp()
        serving.clear_cache()
        traffic.recorder.reset()
        recent.clear()
