"""An import queued through the API runs on a real Celery worker (real redis-server too)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from datastore.models import Dataset, ExportJob, ImportJob
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.seeding import team

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def wait_for(job: ImportJob | ExportJob, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.is_finished:
            return
        time.sleep(0.2)
    raise AssertionError(f"{job} still {job.status} after {timeout} s")


def test_the_worker_imports_and_exports(celery_worker, tmp_path: Path, settings) -> None:
    from rest_framework.test import APIClient

    settings.MEDIA_ROOT = tmp_path / "worker-var" / "media"  # where the worker keeps files
    user, workspace = team()
    dataset = Dataset.objects.create(workspace=workspace, name="Digits", task_type="classification")
    folder = sample_images.class_folders(tmp_path / "src", labels=(2, 9), per_class=5)
    archive = sample_images.zip_folder(tmp_path / "src", tmp_path / "digits.zip")
    assert len(folder) == 10
    client = APIClient()
    client.force_login(user)
    upload = client.post(f"/api/datasets/{dataset.pk}/uploads/", {}, format="json").json()
    declared = client.post(
        f"/api/uploads/{upload['id']}/files/",
        {"files": [{"name": "digits.zip", "size": archive.stat().st_size}]},
        format="json",
    ).json()
    client.generic(
        "PUT",
        f"/api/uploads/{upload['id']}/files/{declared[0]['id']}/",
        archive.read_bytes(),
        "application/octet-stream",
    )
    started = client.post(f"/api/uploads/{upload['id']}/import/", {}, format="json")
    assert started.status_code == 202

    job = ImportJob.objects.get(pk=started.json()["id"])
    wait_for(job)
    assert (job.status, job.samples_added, job.detected_format) == (
        "succeeded",
        10,
        "class_folders",
    )
    assert dataset.class_names() == ["2", "9"]

    export = client.post(
        f"/api/datasets/{dataset.pk}/label-exports/", {"format": "imagenet"}, format="json"
    )
    job = ExportJob.objects.get(pk=export.json()["id"])
    wait_for(job)
    assert job.status == "succeeded", job.error
    download = client.get(f"/api/label-exports/{job.pk}/download/")
    assert download.status_code == 200
