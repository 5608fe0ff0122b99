"""The deployments API: create, read, save a threshold, switch exports, delete, traffic; for
owner, member, viewer and outsider."""

from __future__ import annotations

from deploy.models import Deployment, ModelExport
from deploy.services import recent, serving
from tests.platform_tests.deploy_tests.base import DeployTestCase, b64, digit_pngs, export_now


class DeploymentApiTests(DeployTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.list_url = f"/api/workspaces/{self.workspace.slug}/deployments/"
        self.detail_url = f"/api/deployments/{self.deployment.pk}/"

    def test_members_create_a_deployment(self) -> None:
        for user, name in ((self.alice, "a"), (self.bob, "b")):
            response = self.api_client_for(user).post(
                self.list_url, {"name": name, "export": self.export.pk, "threshold": 0.4}
            )
            self.assertEqual(response.status_code, 201, response.content)
            body = response.json()
            self.assertEqual(body["threshold"], 0.4)
            self.assertEqual(body["predict_url"], f"/api/deployments/{body['id']}/predict")
            self.assertEqual(body["export_detail"]["version"], 1)

    def test_viewer_cannot_create_and_outsider_gets_404(self) -> None:
        data = {"name": "x", "export": self.export.pk}
        self.assertEqual(self.api_client_for(self.vera).post(self.list_url, data).status_code, 403)
        self.assertEqual(
            self.api_client_for(self.charlie).post(self.list_url, data).status_code, 404
        )

    def test_names_are_unique_per_workspace(self) -> None:
        response = self.api_client_for(self.alice).post(
            self.list_url, {"name": "digits", "export": self.export.pk}
        )
        self.assertEqual(response.status_code, 400)

    def test_only_finished_packages_of_the_workspace_can_be_served(self) -> None:
        onnx = export_now(self.job, "onnx")
        queued = ModelExport.objects.create(
            workspace=self.workspace, job=self.job, name="x", version=99, format="package"
        )
        client = self.api_client_for(self.alice)
        for export, message in ((onnx, "ONNX exports are for download"), (queued, "not finished")):
            response = client.post(self.list_url, {"name": "n", "export": export.pk})
            self.assertEqual(response.status_code, 400)
            self.assertIn(message, str(response.json()))
        theirs = ModelExport.objects.create(
            workspace=self.charlies_workspace, name="t", version=1, format="package"
        )
        response = client.post(self.list_url, {"name": "n", "export": theirs.pk})
        self.assertEqual(response.status_code, 400)
        self.assertNotIn("charlie", str(response.json()).lower())

    def test_everyone_in_the_workspace_reads_it(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            self.assertEqual(self.api_client_for(user).get(self.detail_url).status_code, 200)
            listed = self.api_client_for(user).get(self.list_url).json()
            self.assertEqual([d["id"] for d in listed["results"]], [self.deployment.pk])
        self.assertEqual(self.api_client_for(self.charlie).get(self.detail_url).status_code, 404)
        self.assertEqual(self.api_client_for(self.charlie).get(self.list_url).status_code, 404)

    def test_members_save_a_threshold(self) -> None:
        response = self.api_client_for(self.bob).patch(self.detail_url, {"threshold": 0.83})
        self.assertEqual(response.status_code, 200, response.content)
        self.deployment.refresh_from_db()
        self.assertEqual(self.deployment.threshold, 0.83)
        cleared = self.api_client_for(self.bob).patch(
            self.detail_url, {"threshold": None}, format="json"
        )
        self.assertIsNone(cleared.json()["threshold"])
        for bad in (1.5, -0.1):
            response = self.api_client_for(self.bob).patch(self.detail_url, {"threshold": bad})
            self.assertEqual(response.status_code, 400)

    def test_members_save_per_class_thresholds_of_the_models_classes(self) -> None:
        bob = self.api_client_for(self.bob)
        first, second = self.job.class_names[:2]
        body = {"class_thresholds": {first: 0.9, second: 0.25}}
        response = bob.patch(self.detail_url, body, format="json")
        self.assertEqual(response.status_code, 200, response.content)
        self.assertEqual(response.json()["class_thresholds"], {first: 0.9, second: 0.25})
        self.deployment.refresh_from_db()
        self.assertEqual(self.deployment.class_thresholds, {first: 0.9, second: 0.25})
        for bad, says in (
            ({"zebra": 0.5}, "no class 'zebra'"),
            ({first: 1.5}, "less than or equal to 1"),
            ({first: "high"}, "valid number"),
        ):
            refused = bob.patch(self.detail_url, {"class_thresholds": bad}, format="json")
            self.assertEqual(refused.status_code, 400)
            self.assertIn(says, str(refused.json()))
        self.deployment.refresh_from_db()
        self.assertEqual(self.deployment.class_thresholds, {first: 0.9, second: 0.25})
        cleared = bob.patch(self.detail_url, {"class_thresholds": {}}, format="json")
        self.assertEqual(cleared.json()["class_thresholds"], {})

    def test_switching_to_a_model_without_a_thresholded_class_is_refused(self) -> None:
        first = self.job.class_names[0]
        self.deployment.class_thresholds = {first: 0.9}
        self.deployment.save()
        other = export_now(self.job, "int8_package")
        other.meta = {**other.meta, "class_names": ["x", "y"]}
        other.save()
        bob = self.api_client_for(self.bob)
        refused = bob.patch(self.detail_url, {"export": other.pk}, format="json")
        self.assertEqual(refused.status_code, 400)
        self.assertIn(f"no class '{first}'", str(refused.json()))
        self.deployment.refresh_from_db()
        self.assertEqual(self.deployment.export_id, self.export.pk)
        both = bob.patch(
            self.detail_url, {"export": other.pk, "class_thresholds": {"y": 0.4}}, format="json"
        )
        self.assertEqual(both.status_code, 200, both.content)

    def test_viewer_cannot_change_it_and_outsider_gets_404(self) -> None:
        for data in ({"threshold": 0.5}, {"class_thresholds": {self.job.class_names[0]: 0.5}}):
            vera = self.api_client_for(self.vera).patch(self.detail_url, data, format="json")
            self.assertEqual(vera.status_code, 403)
            charlie = self.api_client_for(self.charlie).patch(self.detail_url, data, format="json")
            self.assertEqual(charlie.status_code, 404)
        self.deployment.refresh_from_db()
        self.assertIsNone(self.deployment.threshold)
        self.assertEqual(self.deployment.class_thresholds, {})

    def test_switching_serves_the_new_export_from_the_next_request(self) -> None:
        token_client, _ = self.token_client_for(self.bob)
        predict = f"/api/deployments/{self.deployment.pk}/predict"
        image = {"image": b64(digit_pngs(1)[0])}
        first = token_client.post(predict, image, format="json").json()
        self.assertEqual(first["model"]["version"], 1)
        newer = export_now(self.job, "int8_package")
        response = self.api_client_for(self.bob).patch(self.detail_url, {"export": newer.pk})
        self.assertEqual(response.status_code, 200, response.content)
        self.deployment.refresh_from_db()
        self.assertGreater(self.deployment.switched_at, self.deployment.created_at)
        second = token_client.post(predict, image, format="json").json()
        self.assertEqual(second["model"]["export"], newer.pk)
        self.assertEqual(second["model"]["precision"], "int8")

    def test_a_process_keeps_answering_with_the_old_export_while_another_loads_the_new(
        self,
    ) -> None:
        client, _ = self.token_client_for(self.bob)
        predict = f"/api/deployments/{self.deployment.pk}/predict"
        image = {"image": b64(digit_pngs(1)[0])}
        self.assertEqual(client.post(predict, image, format="json").status_code, 200)
        newer = export_now(self.job, "package")
        Deployment.objects.filter(pk=self.deployment.pk).update(export=newer)
        recent.clear()  # as another process would see it, once its memory of the row expires
        loading = serving._lock_for(newer.pk)
        loading.acquire()  # as if another request thread were loading it right now
        try:
            during = client.post(predict, image, format="json").json()
        finally:
            loading.release()
        after = client.post(predict, image, format="json").json()
        self.assertEqual(during["model"]["export"], self.export.pk)
        self.assertEqual(after["model"]["export"], newer.pk)

    def test_members_delete_it_viewers_and_outsiders_cannot(self) -> None:
        self.assertEqual(self.api_client_for(self.vera).delete(self.detail_url).status_code, 403)
        self.assertEqual(self.api_client_for(self.charlie).delete(self.detail_url).status_code, 404)
        self.assertEqual(self.api_client_for(self.bob).delete(self.detail_url).status_code, 204)

    def test_traffic_reports_counts_and_percentiles(self) -> None:
        client, _ = self.token_client_for(self.bob)
        predict = f"/api/deployments/{self.deployment.pk}/predict"
        for _ in range(5):
            client.post(predict, {"image": b64(digit_pngs(1)[0])}, format="json")
        url = f"/api/deployments/{self.deployment.pk}/traffic/?minutes=10"
        for user in (self.alice, self.bob):
            self.assertEqual(self.api_client_for(user).get(url).status_code, 200)
        body = self.api_client_for(self.vera).get(url).json()
        self.assertEqual(body["totals"]["requests"], 5)
        self.assertEqual(body["totals"]["errors"], 0)
        self.assertGreater(body["totals"]["p95_ms"], 0)
        self.assertGreaterEqual(body["totals"]["p99_ms"], body["totals"]["p50_ms"])
        self.assertEqual(sum(s["requests"] for s in body["series"]), 5)
        self.assertEqual(self.api_client_for(self.charlie).get(url).status_code, 404)
        bad = self.api_client_for(self.bob).get(url.replace("10", "ten"))
        self.assertEqual(bad.status_code, 400)

    def test_the_openapi_schema_documents_exports_and_deployments(self) -> None:
        response = self.api_client_for(self.alice).get("/api/schema/?format=json")
        paths = response.json()["paths"]
        for path in (
            "/api/jobs/{job_id}/model-exports/",
            "/api/model-exports/{id}/",
            "/api/model-exports/{id}/download/",
            "/api/workspaces/{workspace_slug}/deployments/",
            "/api/deployments/{id}/",
            "/api/deployments/{id}/predict",
            "/api/deployments/{id}/traffic/",
        ):
            self.assertIn(path, paths)
        predict = paths["/api/deployments/{id}/predict"]["post"]
        self.assertIn("multipart/form-data", predict["requestBody"]["content"])
        self.assertIn("application/json", predict["requestBody"]["content"])
