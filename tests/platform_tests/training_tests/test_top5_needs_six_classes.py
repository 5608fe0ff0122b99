"""Top-5 accuracy only where it means something: with 5 classes every image's true class is
among the 5 best, so a 5-class job's report, API and pages leave it out and say why (a report
stored before that rule included); a 6-class job has it, and it counts the images whose true
class is among their 5 best."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from datastore.models import Dataset, DatasetVersion
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version
from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from tests.platform_tests.training_tests.openapi import assert_matches_schema
from training.demo.digits import write_class_folders
from training.models import EvaluationReport, JobLogLine, TrainingJob
from training.models.report import TOP_K_OMITTED


def first_digits(workspace: Any, user: Any, classes: int) -> DatasetVersion:
    """A version of the digits 0 to `classes` - 1, six of each, a third held out."""
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=f"{classes} digits",
        task_type=Dataset.TaskType.CLASSIFICATION,
        created_by=user,
    )
    with tempfile.TemporaryDirectory(prefix="sampan-digits-") as folder:
        files = write_class_folders(Path(folder), per_class=6)
        kept = [(name, path) for name, path in files if int(name.split("/")[0]) < classes]
        import_local_files(dataset, user, kept)
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": 0.67, "val": 0.33, "test": 0.0},
        seed=0,
    )


class TopFiveTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.jobs: dict[int, TrainingJob] = {}
        for classes in (5, 6):
            version = first_digits(cls.workspace, cls.alice, classes)
            job, _ = make_job(
                workspace=cls.workspace, user=cls.alice, version=version, overrides={"epochs": 1}
            )
            cls.jobs[classes] = run_now(job)

    def report_body(self, classes: int) -> dict[str, Any]:
        job = self.jobs[classes]
        body = self.api_client_for(self.vera).get(f"/api/jobs/{job.pk}/report/").json()
        assert_matches_schema(body, "/api/jobs/{id}/report/")
        return body

    def test_five_classes_have_no_top5_and_say_why(self) -> None:
        job = self.jobs[5]
        self.assertEqual(len(job.class_names), 5)
        self.assertIsNone(job.report.top5_accuracy)
        body = self.report_body(5)
        self.assertEqual((body["top5_accuracy"], body["top5_omitted"]), (None, TOP_K_OMITTED))
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{job.pk}/report/")
        self.assertNotContains(page, 'id="top5"')
        self.assertContains(page, "Top-5 accuracy is left out for 5 classes or fewer")
        log = "\n".join(JobLogLine.objects.filter(job=job).values_list("message", flat=True))
        self.assertNotIn("top-5", log)

    def test_six_classes_have_top5_counted_from_each_images_five_best(self) -> None:
        job = self.jobs[6]
        body = self.report_body(6)
        rows = body["predictions"]
        among_best = sum(p["true"] in [k for k, _ in p["top"]] for p in rows) / len(rows)
        self.assertAlmostEqual(body["top5_accuracy"], among_best)
        self.assertIsNone(body["top5_omitted"])
        self.client.force_login(self.vera)
        page = self.client.get(f"/jobs/{job.pk}/report/")
        self.assertContains(page, 'id="top5"')
        self.assertNotContains(page, "Top-5 accuracy is left out")

    def test_a_report_stored_before_the_rule_shows_no_top5_either(self) -> None:
        job = self.jobs[5]
        EvaluationReport.objects.filter(job=job).update(top5_accuracy=1.0)
        self.assertIsNone(self.report_body(5)["top5_accuracy"])
        self.client.force_login(self.bob)
        self.assertNotContains(self.client.get(f"/jobs/{job.pk}/report/"), 'id="top5"')
