"""Failure reasons that people read never carry server paths: every job kind's final write
cuts them to their last part (the probe: error messages carried absolute server paths)."""

from __future__ import annotations

import pytest

from core.errors import describe_unexpected, without_paths
from core.testing import BaseTestCase
from datastore.models import Dataset, ExportJob
from deploy.models import ModelExport

LEAK = "[Errno 2] No such file or directory: '/srv/sampan/var/media/datasets/7/blobs/00000001'"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (LEAK, "[Errno 2] No such file or directory: '…/00000001'"),
        ("cannot identify image file /tmp/x/y.png", "cannot identify image file …/y.png"),
        (
            "see http://example.org/a/b and 3/4 and a/b/c",
            "see http://example.org/a/b and 3/4 and a/b/c",
        ),
    ],
)
def test_paths_are_cut_to_their_last_part(text: str, shown: str) -> None:
    assert without_paths(text) == shown


def test_an_unexpected_error_is_described_without_its_path() -> None:
    assert describe_unexpected(FileNotFoundError(2, "missing", "/srv/a/b.zip")) == (
        "FileNotFoundError: [Errno 2] missing: '…/b.zip'"
    )


class FailureReasonTests(BaseTestCase):
    def test_a_dataset_job_keeps_no_path_in_its_reason(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="d", created_by=self.bob)
        job = ExportJob.objects.create(dataset=dataset, format=ExportJob.Format.CSV)
        self.assertTrue(job.claim())
        self.assertTrue(job.mark_failed(f"The export failed ({LEAK}).", "Look in /srv/sampan."))
        job.refresh_from_db()
        self.assertNotIn("/srv", job.error + job.error_fix)
        self.assertIn("00000001", job.error)

    def test_a_model_export_keeps_no_path_in_its_reason(self) -> None:
        export = ModelExport.objects.create(
            workspace=self.workspace, name="m", version=1, format="onnx"
        )
        self.assertTrue(export.claim(worker="w", device="cpu"))
        self.assertTrue(export.mark_failed(f"onnxruntime: {LEAK}"))
        export.refresh_from_db()
        self.assertNotIn("/srv", export.error)
