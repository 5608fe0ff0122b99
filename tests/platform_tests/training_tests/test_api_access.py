"""Every training endpoint: viewers read, members write, outsiders (and tokens of other
workspaces) get 404 for everything of the workspace."""

from __future__ import annotations

from typing import Any
from unittest import mock

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now


class ApiAccessTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        job, _ = make_job(workspace=cls.workspace, user=cls.alice, version=cls.version)
        cls.done = run_now(job)

    def setUp(self) -> None:
        super().setUp()
        self.queued = self.make_job()

    def reads(self) -> list[str]:
        j, slug = self.done.pk, self.workspace.slug
        return [
            f"/api/workspaces/{slug}/jobs/",
            f"/api/workspaces/{slug}/jobs/compare/?ids={j}",
            f"/api/jobs/{j}/",
            f"/api/jobs/{j}/logs/",
            f"/api/jobs/{j}/scalars/",
            f"/api/jobs/{j}/scalars/tags/",
            f"/api/jobs/{j}/scalars/csv/",
            f"/api/jobs/{j}/records/?kind=predictions",
            f"/api/jobs/{j}/report/",
            f"/api/jobs/{j}/report/cell/?true=0&pred=0",
        ]

    def writes(self) -> list[tuple[str, dict[str, Any]]]:
        create = {
            "dataset_version": self.version.pk,
            "architecture": "mlp",
            "preset": "quick",
            "hyperparameters": {"epochs": 1},
        }
        return [
            (f"/api/workspaces/{self.workspace.slug}/jobs/", create),
            (f"/api/jobs/{self.queued.pk}/cancel/", {}),
            (f"/api/jobs/{self.done.pk}/rerun/", {}),
        ]

    def test_viewers_and_members_read_everything(self) -> None:
        for user in (self.vera, self.bob):
            client = self.api_client_for(user)
            for url in self.reads():
                self.assertEqual(client.get(url).status_code, 200, f"{user} {url}")

    def test_members_write(self) -> None:
        client = self.api_client_for(self.bob)
        with mock.patch("training.services.jobs.enqueue"):
            statuses = [
                client.post(url, data, format="json").status_code for url, data in self.writes()
            ]
        self.assertEqual(statuses, [201, 202, 201])

    def test_viewers_cannot_write(self) -> None:
        client = self.api_client_for(self.vera)
        for url, data in self.writes():
            self.assertEqual(client.post(url, data, format="json").status_code, 403, url)

    def test_outsiders_get_404_everywhere(self) -> None:
        session = self.api_client_for(self.charlie)
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (session, token):
            for url in self.reads():
                self.assertEqual(client.get(url).status_code, 404, url)
            for url, data in self.writes():
                self.assertEqual(client.post(url, data, format="json").status_code, 404, url)

    def test_a_token_of_this_workspace_works(self) -> None:
        client, _ = self.token_client_for(self.bob)
        self.assertEqual(client.get(f"/api/jobs/{self.done.pk}/").status_code, 200)

    def test_the_cluster_shows_workers_and_only_your_workspaces(self) -> None:
        data = self.api_client_for(self.charlie).get("/api/cluster/").json()
        self.assertEqual([w["slug"] for w in data["workspaces"]], ["charlies"])
        data = self.api_client_for(self.bob).get("/api/cluster/").json()
        self.assertEqual(
            data["workspaces"],
            [{"slug": self.workspace.slug, "name": self.workspace.name, "queued": 1, "running": 0}],
        )

    def test_create_reports_field_errors(self) -> None:
        url, data = self.writes()[0]
        data["hyperparameters"] = {"epochs": 0, "optimizer": "lbfgs"}
        response = self.api_client_for(self.bob).post(url, data, format="json")
        self.assertEqual(response.status_code, 400)
        self.assertEqual(set(response.json()["fields"]), {"epochs", "optimizer"})

    def test_create_refuses_a_version_of_another_workspace(self) -> None:
        url, data = self.writes()[0]
        response = self.api_client_for(self.charlie).post(
            f"/api/workspaces/{self.charlies_workspace.slug}/jobs/", data, format="json"
        )
        self.assertEqual(response.status_code, 400)
        self.assertIn("dataset_version", response.json()["fields"])

    def test_cancelling_a_finished_job_is_a_400(self) -> None:
        response = self.api_client_for(self.bob).post(f"/api/jobs/{self.done.pk}/cancel/")
        self.assertEqual(response.status_code, 400)
        self.assertIn("already succeeded", str(response.json()))

    def test_a_report_cell_lists_its_samples_with_relabel_links(self) -> None:
        report = self.done.report
        true, pred = next(
            (i, j) for i, row in enumerate(report.confusion) for j, n in enumerate(row) if n
        )
        url = f"/api/jobs/{self.done.pk}/report/cell/?true={true}&pred={pred}"
        data = self.api_client_for(self.vera).get(url).json()
        self.assertEqual(data["count"], report.confusion[true][pred])
        sample = data["samples"][0]
        self.assertEqual((sample["true"], sample["pred"]), (true, pred))
        self.assertEqual(
            sample["relabel"],
            f"/datasets/{self.version.dataset_id}/label/?sample={sample['sample']}",
        )
