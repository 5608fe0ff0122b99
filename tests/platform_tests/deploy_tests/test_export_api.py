"""The exports API: start, list, read, download and delete, for owner, member, viewer and
outsider (who gets 404 everywhere)."""

from __future__ import annotations

import io
import zipfile
from unittest import mock

from django.core.files.storage import default_storage

from deploy.models import ModelExport
from framework.inference.packaged_model import PackagedModel
from tests.platform_tests.deploy_tests.base import DeployTestCase, export_now
from tests.platform_tests.training_tests.base import make_job
from training.models import TrainingJob


class ExportApiTests(DeployTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.create_url = f"/api/jobs/{self.job.pk}/model-exports/"
        self.detail_url = f"/api/model-exports/{self.export.pk}/"
        self.download_url = f"/api/model-exports/{self.export.pk}/download/"

    def start(self, user, fmt: str = "onnx"):
        with mock.patch("deploy.services.exports.enqueue") as enqueue:
            response = self.api_client_for(user).post(self.create_url, {"format": fmt})
        return response, enqueue

    def test_owner_and_member_start_an_export_that_is_queued(self) -> None:
        for user, fmt in ((self.alice, "onnx"), (self.bob, "package")):
            response, enqueue = self.start(user, fmt)
            self.assertEqual(response.status_code, 201, response.content)
            body = response.json()
            self.assertEqual((body["status"], body["format"]), ("queued", fmt))
            enqueue.assert_called_once_with("deploy.export_model", body["id"])
        versions = list(ModelExport.objects.filter(job=self.job).values_list("version", flat=True))
        self.assertEqual(sorted(versions), [1, 2, 3])

    def test_a_token_starts_an_export(self) -> None:
        client, _ = self.token_client_for(self.bob)
        with mock.patch("deploy.services.exports.enqueue"):
            response = client.post(self.create_url, {"format": "package"}, format="json")
        self.assertEqual(response.status_code, 201)

    def test_viewer_cannot_start_an_export(self) -> None:
        self.assertEqual(self.start(self.vera)[0].status_code, 403)

    def test_outsider_gets_404_starting_an_export(self) -> None:
        response, enqueue = self.start(self.charlie)
        self.assertEqual(response.status_code, 404)
        enqueue.assert_not_called()

    def test_it_refuses_unknown_formats_and_unfinished_jobs(self) -> None:
        self.assertEqual(self.start(self.alice, "tflite")[0].status_code, 400)
        queued, _ = make_job(workspace=self.workspace, user=self.alice, version=self.version)
        with mock.patch("deploy.services.exports.enqueue"):
            response = self.api_client_for(self.alice).post(
                f"/api/jobs/{queued.pk}/model-exports/", {"format": "package"}
            )
        self.assertEqual(response.status_code, 400)
        self.assertIn("only a job that succeeded", str(response.json()))

    def test_per_class_thresholds_go_into_the_package(self) -> None:
        first, second = self.job.class_names[:2]
        body = {"format": "package", "threshold": 0.5, "class_thresholds": {first: 0.95}}
        with mock.patch("deploy.services.exports.enqueue"):
            created = self.api_client_for(self.bob).post(self.create_url, body, format="json")
        self.assertEqual(created.status_code, 201, created.content)
        self.assertEqual(created.json()["class_thresholds"], {first: 0.95})
        with mock.patch("deploy.services.exports.enqueue"):
            refused = self.api_client_for(self.bob).post(
                self.create_url, {**body, "class_thresholds": {"zebra": 0.9}}, format="json"
            )
        self.assertEqual(refused.status_code, 400)
        self.assertIn("no class 'zebra'", str(refused.json()))

        export = export_now(self.job, "package", self.bob, 0.5, {first: 0.95})
        self.assertEqual(export.meta["thresholds"], {"score": 0.5, "per_class": {first: 0.95}})
        model = PackagedModel.load(default_storage.path(export.file.name))
        self.assertEqual(
            (model.meta.score_threshold(first), model.meta.score_threshold(second)), (0.95, 0.5)
        )

    def test_everyone_in_the_workspace_lists_a_jobs_exports(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            response = self.api_client_for(user).get(self.create_url)
            self.assertEqual(response.status_code, 200)
            self.assertEqual([e["id"] for e in response.json()["results"]], [self.export.pk])
        self.assertEqual(self.api_client_for(self.charlie).get(self.create_url).status_code, 404)

    def test_the_workspace_list_is_scoped(self) -> None:
        url = f"/api/workspaces/{self.workspace.slug}/model-exports/"
        self.assertEqual(self.api_client_for(self.bob).get(url).json()["count"], 1)
        self.assertEqual(self.api_client_for(self.charlie).get(url).status_code, 404)
        other = f"/api/workspaces/{self.charlies_workspace.slug}/model-exports/"
        self.assertEqual(self.api_client_for(self.charlie).get(other).json()["count"], 0)

    def test_detail_shows_the_results(self) -> None:
        body = self.api_client_for(self.vera).get(self.detail_url).json()
        self.assertEqual(body["status"], "succeeded")
        self.assertTrue(body["parity"]["passed"])
        self.assertEqual(body["parity"]["source"], "validation images")
        self.assertGreater(body["latency_ms"]["batch_1"], 0)
        self.assertGreater(body["latency_ms"]["batch_32"], 0)
        self.assertEqual(body["size_bytes"], self.export.size_bytes)
        self.assertEqual(body["download_url"], self.download_url)
        self.assertEqual(self.api_client_for(self.charlie).get(self.detail_url).status_code, 404)

    def test_members_download_the_zip(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            response = self.api_client_for(user).get(self.download_url)
            self.assertEqual(response.status_code, 200)
            self.assertIn("attachment", response["Content-Disposition"])
            data = b"".join(response.streaming_content)
            self.assertEqual(len(data), self.export.size_bytes)
            self.assertIn("predict.py", zipfile.ZipFile(io.BytesIO(data)).namelist())
        self.assertEqual(self.api_client_for(self.charlie).get(self.download_url).status_code, 404)

    def test_a_token_scoped_elsewhere_sees_nothing(self) -> None:
        self.charlies_workspace.add_member(self.bob, self.workspace.role_of(self.bob))
        client, _ = self.token_client_for(self.bob, self.charlies_workspace)
        self.assertEqual(client.get(self.detail_url).status_code, 404)
        self.assertEqual(client.get(self.download_url).status_code, 404)

    def test_an_unfinished_export_has_no_download(self) -> None:
        response, _ = self.start(self.alice)
        url = f"/api/model-exports/{response.json()['id']}/download/"
        self.assertEqual(self.api_client_for(self.alice).get(url).status_code, 404)

    def test_a_served_export_cannot_be_deleted(self) -> None:
        response = self.api_client_for(self.bob).delete(self.detail_url)
        self.assertEqual(response.status_code, 409)
        self.assertEqual(response.json()["blockers"][0]["name"], self.deployment.name)

    def test_members_delete_unserved_exports_and_their_files(self) -> None:
        from django.core.files.storage import default_storage

        spare = export_now(self.job, "onnx")  # not the class's shared export: its files stay
        url = f"/api/model-exports/{spare.pk}/"
        self.assertEqual(self.api_client_for(self.vera).delete(url).status_code, 403)
        self.assertEqual(self.api_client_for(self.charlie).delete(url).status_code, 404)
        with self.captureOnCommitCallbacks(execute=True):  # files go once the delete commits
            self.assertEqual(self.api_client_for(self.bob).delete(url).status_code, 204)
        self.assertFalse(default_storage.exists(spare.file.name))
        self.assertTrue(default_storage.exists(self.export.file.name))

    def test_the_job_outlives_its_deleted_weights_with_a_clear_error(self) -> None:
        TrainingJob.objects.filter(pk=self.job.pk).update(output_weights=None)
        response, _ = self.start(self.alice, "package")
        self.assertEqual(response.status_code, 400)
        self.assertIn("has been deleted", str(response.json()))
