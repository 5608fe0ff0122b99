"""Who may evaluate a job's model on its test split: the owner and members start one, viewers
read them but cannot start one, and outsiders (or tokens of another workspace) get 404 for
all of it. A job with nothing to evaluate is refused with the reason."""

from __future__ import annotations

from unittest import mock

from tests.platform_tests.training_tests.base import TrainingTestCase, make_job, run_now
from training.demo.digits import digits_version
from training.models import SplitEvaluation


class EvaluationApiAccessTests(TrainingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.held = digits_version(
            cls.workspace, cls.alice, per_class=5, name="With test", val=0.2, test=0.2
        )
        job, _ = make_job(
            workspace=cls.workspace, user=cls.alice, version=cls.held, overrides={"epochs": 1}
        )
        cls.done = run_now(job)
        cls.evaluation = SplitEvaluation.objects.create(job=cls.done, split="test")

    def urls(self) -> list[str]:
        base = f"/api/jobs/{self.done.pk}/evaluations/"
        return [base, f"{base}{self.evaluation.pk}/"]

    def post(self, client, job=None, split: str = "test"):
        url = f"/api/jobs/{(job or self.done).pk}/evaluations/"
        with mock.patch("training.services.evaluations.enqueue"):
            return client.post(url, {"split": split}, format="json")

    def test_the_owner_and_members_start_one(self) -> None:
        for user in (self.alice, self.bob):
            SplitEvaluation.objects.filter(job=self.done).update(status="succeeded")
            response = self.post(self.api_client_for(user))
            self.assertEqual(response.status_code, 202, user)
            self.assertEqual(response.json()["status"], "queued")

    def test_viewers_read_but_cannot_start_one(self) -> None:
        client = self.api_client_for(self.vera)
        for url in self.urls():
            self.assertEqual(client.get(url).status_code, 200, url)
        self.assertEqual(self.post(client).status_code, 403)

    def test_outsiders_get_404_for_all_of_it(self) -> None:
        session = self.api_client_for(self.charlie)
        token, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for client in (session, token):
            for url in self.urls():
                self.assertEqual(client.get(url).status_code, 404, url)
            self.assertEqual(self.post(client).status_code, 404)

    def test_an_evaluation_of_another_job_is_404(self) -> None:
        other = run_now(self.make_job(overrides={"epochs": 1}))
        url = f"/api/jobs/{other.pk}/evaluations/{self.evaluation.pk}/"
        self.assertEqual(self.api_client_for(self.bob).get(url).status_code, 404)

    def test_a_version_without_test_images_is_refused(self) -> None:
        job = run_now(self.make_job(overrides={"epochs": 1}))  # the class version: no test split
        response = self.post(self.api_client_for(self.bob), job)
        self.assertEqual(response.status_code, 400)
        self.assertIn("This version has no test images", response.json()["fields"]["split"][0])

    def test_a_job_that_did_not_succeed_is_refused(self) -> None:
        queued = self.make_job(version=self.held)
        response = self.post(self.api_client_for(self.bob), queued)
        self.assertEqual(response.status_code, 400)
        self.assertIn("only a job that succeeded has a model", str(response.json()))

    def test_only_the_test_split_is_evaluated_this_way(self) -> None:
        response = self.post(self.api_client_for(self.bob), split="val")
        self.assertEqual(response.status_code, 400)
        self.assertIn("in the job's report already", response.json()["fields"]["split"][0])
