"""Files go with their rows: after each kind of delete, no file under MEDIA_ROOT is left that
no row references; a delete that is refused, or that fails inside its transaction, keeps them."""

from __future__ import annotations

from unittest import mock

from core import deletion
from datastore.models import ExportJob, Sample
from deploy.models import ModelExport
from modelzoo.models import Weights
from tests.platform_tests.core_tests.deletion_base import (
    DeletionTestCase,
    all_files,
    orphaned_files,
    write,
)
from training.models import TrainingJob


class DeletingLeavesNoOrphanedFilesTests(DeletionTestCase):
    def assert_no_orphans(self) -> None:
        self.assertEqual(orphaned_files(), set())

    def test_the_set_up_has_files_and_no_orphans(self) -> None:
        self.assertGreater(len(all_files()), 10)
        self.assert_no_orphans()

    def test_deleting_samples_removes_their_images_and_thumbnails(self) -> None:
        self.deployment.delete()
        self.execute(deletion.plan_job(self.job))
        self.execute(deletion.plan_version(self.version))  # versions hold samples
        sample = Sample.objects.filter(dataset=self.dataset).first()
        files = {sample.file.name, sample.thumbnail.name}
        response = self.delete(self.alice, f"/api/samples/{sample.pk}/")
        self.assertEqual(response.status_code, 204)
        self.assertFalse(files & all_files())
        ids = list(Sample.objects.filter(dataset=self.dataset).values_list("pk", flat=True)[:3])
        url = f"/api/datasets/{self.dataset.pk}/samples/bulk-delete/"
        self.assertEqual(self.post(self.bob, url, {"ids": ids}).status_code, 204)
        self.assertFalse(Sample.objects.filter(pk__in=ids).exists())
        self.assert_no_orphans()

    def test_deleting_a_version_removes_its_label_exports(self) -> None:
        self.deployment.delete()
        self.execute(deletion.plan_job(self.job))
        label_export = ExportJob.objects.create(
            dataset=self.dataset, version=self.version, format=ExportJob.Format.IMAGENET
        )
        label_export.file = f"datasets/{self.dataset.pk}/exports/label-export.zip"
        label_export.save()
        write(label_export.file.name)
        self.assertEqual(
            self.delete(self.bob, f"/api/versions/{self.version.pk}/").status_code, 204
        )
        self.assertNotIn(label_export.file.name, all_files())
        self.assert_no_orphans()

    def test_deleting_a_job_removes_checkpoints_weights_and_exports(self) -> None:
        self.deployment.delete()
        weights_file = self.job.output_weights.file.name
        self.assertEqual(self.delete(self.bob, f"/api/jobs/{self.job.pk}/").status_code, 204)
        self.assertFalse(ModelExport.objects.exists())
        self.assertFalse(Weights.objects.exists())
        self.assertNotIn(weights_file, all_files())
        self.assertFalse([name for name in all_files() if name.startswith("training/")])
        self.assertFalse([name for name in all_files() if name.startswith("deploy/")])
        self.assert_no_orphans()

    def test_deleting_an_export_removes_its_folder(self) -> None:
        spare = self.make_export(self.job)
        self.assertEqual(self.delete(self.bob, f"/api/model-exports/{spare.pk}/").status_code, 204)
        self.assertFalse([name for name in all_files() if name.startswith(f"{spare.folder}/")])
        self.assert_no_orphans()

    def test_deleting_a_dataset_removes_its_folder(self) -> None:
        self.assertEqual(
            self.delete(self.adam, f"/api/datasets/{self.dataset.pk}/").status_code, 204
        )
        self.assertFalse([name for name in all_files() if name.startswith("datasets/")])
        self.assert_no_orphans()

    def test_deleting_a_workspace_removes_every_file_of_it(self) -> None:
        url = f"/api/workspaces/{self.workspace.slug}/"
        self.assertEqual(self.delete(self.alice, url).status_code, 204)
        self.assertEqual(all_files(), set())

    def test_a_refused_delete_keeps_every_file(self) -> None:
        before = all_files()
        response = self.delete(self.bob, f"/api/versions/{self.version.pk}/")
        self.assertEqual(response.status_code, 409)
        response = self.delete(self.bob, f"/api/model-exports/{self.export.pk}/")
        self.assertEqual(response.status_code, 409)
        self.assertEqual(all_files(), before)

    def test_a_delete_that_fails_in_its_transaction_keeps_every_file(self) -> None:
        self.deployment.delete()
        before, job_id = all_files(), self.job.pk
        plan = deletion.plan_job(self.job)
        real = plan.delete_rows

        def fail_after_deleting() -> None:
            real()
            raise RuntimeError("the database went away")

        plan.delete_rows = fail_after_deleting
        with self.captureOnCommitCallbacks(execute=True), self.assertRaises(RuntimeError):
            deletion.execute(plan)
        self.assertTrue(TrainingJob.objects.filter(pk=job_id).exists())
        self.assertEqual(all_files(), before)

    def test_a_failing_api_delete_keeps_every_file(self) -> None:
        self.deployment.delete()
        before = all_files()
        with (
            mock.patch.object(TrainingJob, "delete", side_effect=RuntimeError("boom")),
            self.assertRaises(RuntimeError),
        ):
            self.delete(self.bob, f"/api/jobs/{self.job.pk}/")
        self.assertEqual(all_files(), before)
