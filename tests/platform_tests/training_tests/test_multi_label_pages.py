"""Multi-label pages: the form offers multi-label versions and their threshold and creates the
job; the job page lists the threshold; the report page shows mAP, F1 and the per-class table,
never accuracy, top-5 or a confusion matrix; viewers see them all and outsiders get 404."""

from __future__ import annotations

from unittest import mock

from tests.platform_tests.training_tests.base import TrainingTestCase
from tests.platform_tests.training_tests.multi_label_data import (
    CLASSES,
    multi_label_version,
    train_multi_label,
)
from training.models import TrainingJob


class MultiLabelPageTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.pairs = multi_label_version(cls.workspace, cls.alice, count=48)
        cls.done = train_multi_label(cls.workspace, cls.alice, cls.pairs, epochs=1)

    def pages(self) -> list[str]:
        return [f"/jobs/{self.done.pk}/", f"/jobs/{self.done.pk}/report/"]

    def form(self, **changes: str) -> dict[str, str]:
        data = {
            "dataset_version": str(self.pairs.pk),
            "architecture": "mlp",
            "weights": "scratch",
            "preset": "quick",
            "epochs": "1",
            "batch_size": "8",
            "learning_rate": "0.001",
            "optimizer": "adam",
            "schedule": "constant",
            "weight_decay": "0",
            "input_size": "28",
            "seed": "0",
            "device": "auto",
            "patience": "5",
            "threshold": "0.4",
        }
        return data | changes

    def test_the_form_offers_multi_label_versions_with_their_threshold(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/")
        # Offered (and chosen: the form opens on the newest version).
        self.assertContains(response, f'<option value="{self.pairs.pk}" selected>')
        self.assertContains(response, "classes, multi-label")
        self.assertContains(response, 'id="multi-label-settings"')
        self.assertContains(response, 'name="threshold"')
        form_data = response.context["form_data"]
        self.assertEqual(form_data["multi_label_versions"], [self.pairs.pk])

    def test_the_form_creates_a_multi_label_job_with_its_threshold(self) -> None:
        self.client.force_login(self.bob)
        with mock.patch("training.services.jobs.enqueue"):
            response = self.client.post(
                f"/workspaces/{self.workspace.slug}/jobs/new/", self.form(name="Pairs")
            )
        job = TrainingJob.objects.get(name="Pairs")
        self.assertRedirects(response, f"/jobs/{job.pk}/")
        self.assertEqual((job.task, job.config["threshold"]), ("multi_label", 0.4))

    def test_the_form_shows_a_bad_threshold_next_to_its_field(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.post(
            f"/workspaces/{self.workspace.slug}/jobs/new/", self.form(threshold="2")
        )
        self.assertContains(
            response, "Decision threshold must be from 0.01 to 0.99.", status_code=400
        )

    def test_the_job_page_lists_the_threshold(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/jobs/{self.done.pk}/")
        self.assertContains(response, "<td>Decision threshold</td><td>0.5</td>", html=False)

    def test_the_export_panel_keeps_the_per_class_thresholds_unless_told(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/jobs/{self.done.pk}/")
        self.assertContains(response, 'placeholder="per class"')

    def test_the_report_page_shows_multi_label_scores_and_no_confusion_matrix(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/jobs/{self.done.pk}/report/")
        self.assertContains(response, 'id="multi-label-report"')
        self.assertContains(response, 'id="per-class"')
        self.assertContains(response, 'id="pr-chart"')
        self.assertContains(response, "training/report_multi_label.js")
        for name in CLASSES:
            self.assertContains(response, f"<td>{name}</td>")
        for absent in ('id="confusion"', "Top-5", 'id="accuracy"', "training/report.js"):
            self.assertNotContains(response, absent)

    def test_the_job_list_shows_the_map(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/")
        self.assertContains(response, f"{self.done.val_map:.4f}")
        images = self.done.dataset_version.stats["per_split"]["val"]
        self.assertContains(
            response, f'<span class="muted small">mAP · on {images} validation images</span>'
        )

    def test_owner_member_and_viewer_see_the_pages_and_outsiders_get_404(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.client.force_login(user)
            for url in self.pages():
                self.assertEqual(self.client.get(url).status_code, 200, f"{user} {url}")
        self.client.force_login(self.charlie)
        for url in self.pages():
            self.assertEqual(self.client.get(url).status_code, 404, url)
