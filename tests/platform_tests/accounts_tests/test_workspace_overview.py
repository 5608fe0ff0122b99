"""A workspace opens on an overview of what is in it (datasets, jobs in flight, deployments,
each linked), not on its members; the members have their own page."""

from __future__ import annotations

from deploy.models import Deployment, ModelExport
from tests.platform_tests.training_tests.base import TrainingTestCase

URL = "/workspaces/alices-team/"


class WorkspaceOverviewTests(TrainingTestCase):
    def test_it_shows_datasets_running_jobs_and_deployments_with_links(self) -> None:
        job = self.make_job(name="Digits MLP")
        job.claim(worker="w@host", device="cpu")
        export = ModelExport.objects.create(
            workspace=self.workspace, job=job, name=job.name, version=1, format="package"
        )
        deployment = Deployment.objects.create(
            workspace=self.workspace, name="digits-live", export=export
        )
        dataset = self.version.dataset
        for user in (self.alice, self.vera):
            self.client.force_login(user)
            response = self.client.get(URL)
            self.assertContains(response, f'href="/datasets/{dataset.pk}/"')
            self.assertContains(response, f'href="/jobs/{job.pk}/"')
            self.assertContains(response, "Digits MLP")
            self.assertContains(response, f'href="/deployments/{deployment.pk}/"')
            self.assertContains(response, "digits-live")
            self.assertNotContains(response, "vera@example.org")  # members are one tab over
            self.assertContains(response, 'href="/workspaces/alices-team/members/"')

    def test_it_leaves_finished_jobs_to_the_jobs_page(self) -> None:
        job = self.make_job(name="Old run")
        job.request_cancel()
        self.client.force_login(self.alice)
        response = self.client.get(URL)
        self.assertNotContains(response, f'href="/jobs/{job.pk}/"')
        self.assertContains(response, "No job is queued or running.")

    def test_it_answers_404_to_an_outsider(self) -> None:
        self.client.force_login(self.charlie)
        self.assertEqual(self.client.get(URL).status_code, 404)
