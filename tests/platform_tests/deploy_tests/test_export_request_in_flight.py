"""Asking again for an export that is still queued or running answers that export (200) and
queues nothing: a double click on Export costs the worker nothing (issue 23)."""

from __future__ import annotations

from unittest import mock

from deploy.models import ModelExport
from tests.platform_tests.deploy_tests.base import DeployTestCase


class ExportRequestInFlightTests(DeployTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/jobs/{self.job.pk}/model-exports/"

    def post(self, user, body: dict):
        with mock.patch("deploy.services.exports.enqueue") as enqueue:
            response = self.api_client_for(user).post(self.url, body, format="json")
        return response, enqueue

    def in_flight(self) -> list[ModelExport]:
        return list(ModelExport.objects.filter(job=self.job).exclude(pk=self.export.pk))

    def test_two_identical_posts_make_one_export(self) -> None:
        body = {"format": "onnx", "threshold": 0.5}
        first, first_enqueue = self.post(self.alice, body)
        second, second_enqueue = self.post(self.alice, body)
        self.assertEqual((first.status_code, second.status_code), (201, 200), second.content)
        self.assertEqual(second.json()["id"], first.json()["id"])
        self.assertEqual(len(self.in_flight()), 1)
        first_enqueue.assert_called_once()
        second_enqueue.assert_not_called()

    def test_a_member_asking_for_the_same_export_gets_the_one_in_flight(self) -> None:
        first, _ = self.post(self.alice, {"format": "package"})
        second, _ = self.post(self.bob, {"format": "package"})
        self.assertEqual(second.status_code, 200)
        self.assertEqual(second.json()["id"], first.json()["id"])

    def test_a_running_export_is_answered_too(self) -> None:
        first, _ = self.post(self.alice, {"format": "package"})
        export = ModelExport.objects.get(pk=first.json()["id"])
        self.assertTrue(export.claim(worker="w", device="cpu"))
        second, _ = self.post(self.alice, {"format": "package"})
        self.assertEqual((second.status_code, second.json()["status"]), (200, "running"))

    def test_other_settings_make_another_export(self) -> None:
        first_class = self.job.class_names[0]
        bodies = [
            {"format": "package"},
            {"format": "onnx"},
            {"format": "package", "threshold": 0.5},
            {"format": "package", "threshold": 0.6},
            {"format": "package", "threshold": 0.5, "class_thresholds": {first_class: 0.9}},
        ]
        codes = [self.post(self.alice, body)[0].status_code for body in bodies]
        self.assertEqual(codes, [201] * len(bodies))
        self.assertEqual(len(self.in_flight()), len(bodies))

    def test_a_finished_export_does_not_stop_a_new_one(self) -> None:
        # self.export (a package with no threshold) has succeeded.
        response, enqueue = self.post(self.alice, {"format": "package"})
        self.assertEqual(response.status_code, 201)
        self.assertNotEqual(response.json()["id"], self.export.pk)
        enqueue.assert_called_once()

    def test_a_viewer_cannot_join_an_export_in_flight(self) -> None:
        self.post(self.alice, {"format": "package"})
        response, _ = self.post(self.vera, {"format": "package"})
        self.assertEqual(response.status_code, 403)

    def test_an_outsider_gets_404_and_learns_nothing(self) -> None:
        self.post(self.alice, {"format": "package"})
        response, enqueue = self.post(self.charlie, {"format": "package"})
        self.assertEqual(response.status_code, 404)
        enqueue.assert_not_called()
        self.assertEqual(len(self.in_flight()), 1)

    def test_the_page_form_joins_the_export_in_flight_too(self) -> None:
        self.client.force_login(self.bob)
        with mock.patch("deploy.services.exports.enqueue"):
            for _ in range(2):
                self.client.post(f"/jobs/{self.job.pk}/exports/", {"format": "package"})
        self.assertEqual(len(self.in_flight()), 1)
