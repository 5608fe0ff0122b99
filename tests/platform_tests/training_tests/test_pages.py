"""Training pages: every page renders for the workspace's people and answers 404 to outsiders;
the creation form validates every field and creates a job; cancel and re-run buttons work."""

from __future__ import annotations

from unittest import mock

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.models import TrainingJob


class PageTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=cls.version)
        cls.done = run_now(job)

    def pages(self) -> list[str]:
        slug, j = self.workspace.slug, self.done.pk
        return [
            f"/workspaces/{slug}/jobs/",
            f"/workspaces/{slug}/jobs/compare/?ids={j}",
            f"/jobs/{j}/",
            f"/jobs/{j}/report/",
        ]

    def form(self, **changes: str) -> dict[str, str]:
        data = {
            "dataset_version": str(self.version.pk),
            "architecture": "mlp",
            "weights": "scratch",
            "preset": "quick",
            "epochs": "2",
            "batch_size": "8",
            "learning_rate": "0.001",
            "optimizer": "adam",
            "schedule": "constant",
            "weight_decay": "0",
            "input_size": "28",
            "seed": "0",
            "device": "auto",
            "patience": "5",
        }
        data.update(changes)
        return data

    def test_every_page_renders_for_viewers(self) -> None:
        self.client.force_login(self.vera)
        for url in [*self.pages(), "/cluster/"]:
            self.assertEqual(self.client.get(url).status_code, 200, url)

    def test_every_page_is_404_for_outsiders(self) -> None:
        self.client.force_login(self.charlie)
        for url in [*self.pages(), f"/workspaces/{self.workspace.slug}/jobs/new/"]:
            self.assertEqual(self.client.get(url).status_code, 404, url)
        response = self.client.post(f"/jobs/{self.done.pk}/actions/", {"action": "rerun"})
        self.assertEqual(response.status_code, 404)

    def test_the_form_creates_a_job(self) -> None:
        self.client.force_login(self.bob)
        with mock.patch("training.services.jobs.enqueue"):
            response = self.client.post(
                f"/workspaces/{self.workspace.slug}/jobs/new/", self.form(name="From the form")
            )
        job = TrainingJob.objects.get(name="From the form")
        self.assertRedirects(response, f"/jobs/{job.pk}/")
        self.assertEqual((job.config["epochs"], job.config["batch_size"]), (2, 8))

    def test_the_form_shows_every_error_next_to_its_field(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.post(
            f"/workspaces/{self.workspace.slug}/jobs/new/",
            self.form(epochs="0", learning_rate="fast", input_size="32"),
        )
        self.assertContains(response, "Epochs must be from 1 to 1000.", status_code=400)
        self.assertContains(
            response, "Learning rate must be a number, not “fast”.", status_code=400
        )
        self.assertContains(response, "MLP takes 28×28 images only.", status_code=400)
        self.assertContains(response, 'id="advanced" open', status_code=400)

    def test_viewers_cannot_open_the_form(self) -> None:
        self.client.force_login(self.vera)
        response = self.client.get(f"/workspaces/{self.workspace.slug}/jobs/new/")
        self.assertEqual(response.status_code, 403)

    def test_cancel_and_rerun_buttons(self) -> None:
        queued = self.make_job()
        self.client.force_login(self.bob)
        self.client.post(f"/jobs/{queued.pk}/actions/", {"action": "cancel"})
        queued.refresh_from_db()
        self.assertEqual(queued.status, "cancelled")
        with mock.patch("training.services.jobs.enqueue"):
            response = self.client.post(f"/jobs/{self.done.pk}/actions/", {"action": "rerun"})
        clone = TrainingJob.objects.get(rerun_of=self.done)
        self.assertRedirects(response, f"/jobs/{clone.pk}/")

    def test_the_report_page_of_an_unfinished_job_says_so(self) -> None:
        self.client.force_login(self.bob)
        response = self.client.get(f"/jobs/{self.make_job().pk}/report/")
        self.assertContains(response, "reports are written when a job succeeds", status_code=404)
