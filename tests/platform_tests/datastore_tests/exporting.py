"""Exporting through the API and importing the archive back, for export tests.

Not a test module: the helpers take the running test case for its clients and assertions.
"""

from __future__ import annotations

from pathlib import Path

from datastore.models import Dataset, DatasetVersion
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from workers.tasks.datastore import export_labels


def export_archive(
    case: DatastoreTestCase, dataset: Dataset, fmt: str, version: DatasetVersion | None = None
) -> Path:
    """Asks for the export as a member would, runs the task, and downloads the zip."""
    client = case.api_client_for(case.bob)
    response = client.post(
        f"/api/datasets/{dataset.pk}/label-exports/",
        {"format": fmt, "version": version.pk if version else None},
        format="json",
    )
    case.assertEqual(response.status_code, 201, response.content)
    export_labels(response.json()["id"])
    job = client.get(f"/api/label-exports/{response.json()['id']}/").json()
    case.assertEqual(job["status"], "succeeded", job["error"])
    download = client.get(job["download_url"])
    case.assertEqual(download.status_code, 200)
    case.assertIn("attachment", download["Content-Disposition"])
    target = case.folder("exports") / f"{fmt}-{job['id']}.zip"
    target.write_bytes(b"".join(download.streaming_content))
    return target


def round_trip(
    case: DatastoreTestCase, dataset: Dataset, fmt: str, version: DatasetVersion | None = None
) -> Dataset:
    """Exports, then imports the archive into a new dataset of the same task type."""
    archive = export_archive(case, dataset, fmt, version)
    copy = case.make_dataset(dataset.task_type, name=f"{dataset.name} via {fmt}")
    job = case.import_files(copy, [(archive.name, archive)])
    case.assertEqual(job.status, "succeeded", job.error)
    return copy
