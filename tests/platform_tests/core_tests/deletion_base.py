"""A base test case for deleting: a private MEDIA_ROOT per test, and a workspace holding one
of everything with real files (a digits dataset with a frozen version, a finished job with its
checkpoint and trained weights, a package export of it, a deployment), without training.

`orphaned_files()` walks MEDIA_ROOT for files that no row references. Not a test module.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage
from django.test import override_settings

from core import deletion
from core.deletion import job_storage_folder
from core.testing import BaseTestCase
from datastore.models import Dataset, DatasetVersion, ExportJob, Sample, UploadFile
from deploy.models import Deployment, ModelExport
from modelzoo.models import Weights
from tests.platform_tests.training_tests.base import make_job
from training.demo.digits import digits_version
from training.models import TrainingJob


def write(name: str, data: bytes = b"bytes on disk") -> str:
    path = Path(default_storage.path(name))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return name


def referenced_names() -> tuple[set[str], set[str]]:
    """(files rows name, folders rows own) as storage names."""
    files: set[str] = set()
    for pair in Sample.objects.values_list("file", "thumbnail"):
        files.update(pair)
    files.update(ExportJob.objects.values_list("file", flat=True))
    files.update(Weights.objects.values_list("file", flat=True))
    files.update(ModelExport.objects.values_list("file", flat=True))
    folders = {f"deploy/exports/{pk}" for pk in ModelExport.objects.values_list("pk", flat=True)}
    folders |= {job_storage_folder(job) for job in TrainingJob.objects.all()}
    for upload_file in UploadFile.objects.select_related("session__dataset"):
        folders.add(str(upload_file.session.folder().relative_to(default_storage.path(""))))
    return files - {""}, folders


def all_files() -> set[str]:
    root = Path(default_storage.path(""))
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def orphaned_files() -> set[str]:
    files, folders = referenced_names()
    return {
        name
        for name in all_files()
        if name not in files and not any(name.startswith(f"{folder}/") for folder in folders)
    }


class DeletionTestCase(BaseTestCase):
    media_root: Path
    version: DatasetVersion
    dataset: Dataset
    job: TrainingJob
    export: ModelExport
    deployment: Deployment

    def setUp(self) -> None:
        super().setUp()
        self.media_root = Path(tempfile.mkdtemp(prefix="sampan-delete-media-"))
        self.enterContext(override_settings(MEDIA_ROOT=self.media_root))
        self.addCleanup(shutil.rmtree, self.media_root, ignore_errors=True)
        with self.captureOnCommitCallbacks(execute=True):  # the import's clean-up
            self.version = digits_version(self.workspace, self.alice, per_class=2)
        self.dataset = self.version.dataset
        self.job = self.finished_job()
        self.export = self.make_export(self.job)
        self.deployment = Deployment.objects.create(
            workspace=self.workspace, name="digits", export=self.export, created_by=self.alice
        )

    def finished_job(self, **options: Any) -> TrainingJob:
        """A succeeded job with a checkpoint and trained weights on disk (not trained)."""
        options.setdefault("version", self.version)
        job, _ = make_job(workspace=self.workspace, user=self.alice, **options)
        write(f"{job_storage_folder(job)}/checkpoint.safetensors")
        weights = Weights.objects.create(
            workspace=self.workspace,
            name=f"weights of job {job.pk}",
            architecture=job.architecture,
            source=Weights.Source.JOB,
            original_format=Weights.Format.FRAMEWORK,
            file=write(f"modelzoo/weights/job-{job.pk}.safetensors"),
            sha256="0" * 64,
            num_classes=len(job.class_names),
        )
        TrainingJob.objects.filter(pk=job.pk).update(
            status=TrainingJob.Status.SUCCEEDED, output_weights=weights
        )
        job.refresh_from_db()
        return job

    def make_export(self, job: TrainingJob) -> ModelExport:
        export = ModelExport.objects.create(
            workspace=self.workspace,
            job=job,
            weights=job.output_weights,
            name=f"{job.name} package",
            version=job.exports.count() + 1,
            format=ModelExport.Format.PACKAGE,
            status=ModelExport.Status.SUCCEEDED,
        )
        export.file = write(f"{export.folder}/model.zip")
        export.save(update_fields=["file"])
        write(f"{export.folder}/package/model.json")  # the unpacked package serving reads
        return export

    def loose_sample(self, dataset: Dataset | None = None, name: str = "extra.png") -> Sample:
        """A sample no version holds, with an image and a thumbnail on disk."""
        dataset = dataset or self.dataset
        count = Sample.objects.count()
        return Sample.objects.create(
            dataset=dataset,
            file=write(f"{dataset.storage_prefix}/images/loose-{count}.png"),
            thumbnail=write(f"{dataset.storage_prefix}/thumbnails/loose-{count}.jpg"),
            original_name=name,
            content_hash=f"{count:064d}",
            perceptual_hash="0" * 16,
            width=28,
            height=28,
            size_bytes=13,
        )

    def execute(self, plan: deletion.DeletionPlan) -> None:
        with self.captureOnCommitCallbacks(execute=True):
            deletion.execute(plan)

    def delete(self, user: Any, url: str) -> Any:
        with self.captureOnCommitCallbacks(execute=True):
            return self.api_client_for(user).delete(url)

    def post(self, user: Any, url: str, data: dict) -> Any:
        with self.captureOnCommitCallbacks(execute=True):
            return self.api_client_for(user).post(url, data, format="json")
