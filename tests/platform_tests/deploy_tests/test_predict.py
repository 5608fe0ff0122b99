"""POST /api/deployments/<id>/predict: single and batch, multipart and base64 JSON, tokens and
scoping, the saved threshold, and clear refusals for bad input."""

from __future__ import annotations

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from PIL import Image

from deploy.models import Deployment, DeploymentTraffic
from deploy.services import traffic
from framework.inference.packaged_model import PackagedModel
from tests.platform_tests.deploy_tests.base import DeployTestCase, b64, digit_pngs, png_bytes


def upload(data: bytes, name: str = "digit.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/png")


class PredictTests(DeployTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.digits = digit_pngs(6)

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"
        self.client_, _ = self.token_client_for(self.bob)

    def expected(self, images: list[bytes], threads: int | None = 1, **options) -> list[dict]:
        """The package's answers, run outside the platform with the server's thread count
        (another count may sum in another order and change the last rounded digit)."""
        from deploy.services.serving import package_folder

        model = PackagedModel.load(package_folder(self.export), threads=threads)
        return model.predict(images, **options)

    def test_it_predicts_one_multipart_image(self) -> None:
        response = self.client_.post(self.url, {"image": upload(self.digits[0])})
        self.assertEqual(response.status_code, 200, response.content)
        body = response.json()
        self.assertEqual(body["deployment"], self.deployment.pk)
        self.assertEqual(
            body["model"],
            {
                "export": self.export.pk,
                "version": 1,
                "name": self.job.name,
                "format": "package",
                "precision": "float32",
            },
        )
        (prediction,) = body["predictions"]
        self.assertEqual(prediction, self.expected(self.digits[:1], top_k=5)[0])
        self.assertEqual(len(prediction["classes"]), 5)
        self.assertIn(prediction["label"], self.job.class_names)

    def test_it_says_where_the_server_time_went(self) -> None:
        response = self.client_.post(self.url, {"image": upload(self.digits[0])})
        parts = dict(p.strip().split(";dur=") for p in response["Server-Timing"].split(","))
        self.assertEqual(set(parts), {"decode", "preprocess", "run", "postprocess", "total"})
        spent = {name: float(ms) for name, ms in parts.items()}
        self.assertGreater(spent["run"], 0)
        self.assertLess(sum(v for k, v in spent.items() if k != "total"), spent["total"])

    def test_a_prediction_uses_the_configured_cores(self) -> None:
        from deploy.services import serving

        for setting, threads in ((1, 1), (2, 2), (0, None)):
            with override_settings(DEPLOY_PREDICTOR_THREADS=setting):
                serving.clear_cache()
                self.assertEqual(serving.serve(self.deployment).model.threads, threads)
                response = self.client_.post(self.url, {"image": upload(self.digits[0])})
                (prediction,) = response.json()["predictions"]
                expected = self.expected(self.digits[:1], threads=threads, top_k=5)[0]
                self.assertEqual(prediction, expected)
        serving.clear_cache()

    def test_it_predicts_a_multipart_batch_in_order(self) -> None:
        files = [upload(d, f"{i}.png") for i, d in enumerate(self.digits)]
        response = self.client_.post(self.url, {"image": files, "top_k": "2"})
        self.assertEqual(response.status_code, 200, response.content)
        self.assertEqual(response.json()["predictions"], self.expected(self.digits, top_k=2))

    def test_it_predicts_base64_json_single_and_batch(self) -> None:
        one = self.client_.post(self.url, {"image": b64(self.digits[1])}, format="json")
        self.assertEqual(one.status_code, 200, one.content)
        self.assertEqual(one.json()["predictions"], self.expected(self.digits[1:2]))
        batch = self.client_.post(
            self.url, {"images": [b64(d) for d in self.digits[:3]]}, format="json"
        )
        self.assertEqual(batch.json()["predictions"], self.expected(self.digits[:3]))

    def test_it_accepts_a_data_url_and_the_trailing_slash(self) -> None:
        data_url = "data:image/png;base64," + b64(self.digits[2])
        response = self.client_.post(self.url + "/", {"image": data_url}, format="json")
        self.assertEqual(response.status_code, 200, response.content)

    def test_the_saved_threshold_is_in_effect(self) -> None:
        self.deployment.threshold = 0.999999
        self.deployment.save()
        response = self.client_.post(self.url, {"image": upload(self.digits[0])})
        body = response.json()
        self.assertEqual(body["threshold"], 0.999999)
        self.assertIsNone(body["predictions"][0]["label"])
        self.assertFalse(body["predictions"][0]["accepted"])
        override = self.client_.post(self.url, {"image": upload(self.digits[0]), "threshold": "0"})
        self.assertTrue(override.json()["predictions"][0]["accepted"])

    def test_per_class_thresholds_take_precedence(self) -> None:
        label = self.expected(self.digits[:1])[0]["label"]
        self.deployment.threshold = 0.0
        self.deployment.class_thresholds = {label: 0.999999}
        self.deployment.save()
        body = self.client_.post(self.url, {"image": upload(self.digits[0])}).json()
        self.assertEqual(body["class_thresholds"], {label: 0.999999})
        self.assertFalse(body["predictions"][0]["accepted"])
        # A request's own per-class thresholds go over the deployment's, in JSON or multipart.
        json_body = {"image": b64(self.digits[0]), "class_thresholds": {label: 0.0}}
        relaxed = self.client_.post(self.url, json_body, format="json").json()
        self.assertTrue(relaxed["predictions"][0]["accepted"])
        form = {"image": upload(self.digits[0]), "class_thresholds": f'{{"{label}": 0}}'}
        self.assertTrue(self.client_.post(self.url, form).json()["predictions"][0]["accepted"])

    def test_it_rejects_bad_per_class_thresholds(self) -> None:
        label = self.job.class_names[0]
        for bad, says in (
            ("{not json", "JSON object"),
            ("[0.5]", "JSON object"),
            (f'{{"{label}": 2}}', "from 0 to 1"),
            (f'{{"{label}": "high"}}', "must be a number"),
            ('{"zebra": 0.5}', "does not have"),
        ):
            response = self.client_.post(
                self.url, {"image": upload(self.digits[0]), "class_thresholds": bad}
            )
            self.assertEqual(response.status_code, 400, bad)
            self.assertIn(says, response.json()["message"])

    def test_a_viewers_token_may_predict(self) -> None:
        client, _ = self.token_client_for(self.vera)
        self.assertEqual(client.post(self.url, {"image": upload(self.digits[0])}).status_code, 200)

    def test_a_session_user_may_predict_with_csrf(self) -> None:
        client = self.api_client_for(self.alice)
        self.assertEqual(client.post(self.url, {"image": upload(self.digits[0])}).status_code, 200)

    def test_it_rejects_a_wrong_token(self) -> None:
        client = self.client_.__class__()
        client.credentials(HTTP_AUTHORIZATION="Bearer spn_not-a-real-token")
        response = client.post(self.url, {"image": upload(self.digits[0])})
        self.assertEqual(response.status_code, 401)
        self.assertEqual(self.client_.__class__().post(self.url, {}).status_code, 401)

    def test_it_rejects_a_revoked_token(self) -> None:
        client, token = self.token_client_for(self.bob)
        token.revoke()
        self.assertEqual(client.post(self.url, {"image": upload(self.digits[0])}).status_code, 401)

    def test_outsider_gets_404(self) -> None:
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        self.assertEqual(client.post(self.url, {"image": upload(self.digits[0])}).status_code, 404)
        session = self.api_client_for(self.charlie)
        self.assertEqual(session.post(self.url, {"image": upload(self.digits[0])}).status_code, 404)

    def test_a_token_for_another_workspace_gets_404(self) -> None:
        self.charlies_workspace.add_member(self.bob, self.workspace.role_of(self.bob))
        client, _ = self.token_client_for(self.bob, self.charlies_workspace)
        self.assertEqual(client.post(self.url, {"image": upload(self.digits[0])}).status_code, 404)

    def test_it_rejects_bad_images(self) -> None:
        truncated = png_bytes(Image.new("L", (64, 64), 200))[:60]
        cases = [
            ({"image": upload(b"this is not an image", "a.png")}, "multipart", "Image 0:"),
            ({"image": [upload(self.digits[0]), upload(truncated)]}, "multipart", "Image 1:"),
            ({"image": "%%% not base64 %%%"}, "json", "not valid base64"),
            ({"images": [b64(self.digits[0]), b64(b"GIF89a junk")]}, "json", "Image 1:"),
        ]
        for data, fmt, message in cases:
            with self.subTest(message=message):
                response = self.client_.post(self.url, data, format=fmt)
                self.assertEqual(response.status_code, 400, response.content)
                self.assertIn(message, response.json()["message"])
                self.assertEqual(response.json()["code"], "bad_image")

    def test_it_rejects_requests_without_images(self) -> None:
        for data, fmt in (({}, "json"), ({"top_k": "3"}, "multipart"), ({"images": 5}, "json")):
            response = self.client_.post(self.url, data, format=fmt)
            self.assertEqual(response.status_code, 400, response.content)

    def test_it_rejects_other_content_types(self) -> None:
        response = self.client_.post(self.url, b"raw", content_type="application/octet-stream")
        self.assertEqual(response.status_code, 415)

    def test_it_rejects_bad_options(self) -> None:
        for options in ({"top_k": "0"}, {"top_k": "x"}, {"threshold": "1.5"}):
            response = self.client_.post(self.url, {"image": upload(self.digits[0]), **options})
            self.assertEqual(response.status_code, 400, options)

    @override_settings(DEPLOY_MAX_REQUEST_BYTES=2000)
    def test_it_refuses_oversized_requests_with_413(self) -> None:
        big = io.BytesIO()
        Image.effect_noise((64, 64), 80).save(big, format="PNG")
        response = self.client_.post(self.url, {"image": upload(big.getvalue())})
        self.assertEqual(response.status_code, 413)
        self.assertIn("limit is 2,000", response.json()["message"])

    @override_settings(DEPLOY_MAX_BATCH=3)
    def test_it_refuses_too_many_images_with_413(self) -> None:
        response = self.client_.post(
            self.url, {"images": [b64(d) for d in self.digits[:4]]}, format="json"
        )
        self.assertEqual(response.status_code, 413)
        self.assertIn("limit is 3", response.json()["message"])

    @override_settings(DEPLOY_MAX_PIXELS=100 * 100)
    def test_it_refuses_images_with_too_many_pixels(self) -> None:
        huge = png_bytes(Image.new("L", (200, 200)))
        response = self.client_.post(self.url, {"image": upload(huge)})
        self.assertEqual(response.status_code, 400)
        self.assertIn("pixels", response.json()["message"])

    def test_requests_are_counted_with_their_latency(self) -> None:
        for _ in range(3):
            self.client_.post(self.url, {"image": upload(self.digits[0])})
        self.client_.post(self.url, {"image": upload(b"junk")})
        traffic.recorder.flush()
        row = DeploymentTraffic.objects.get(deployment=self.deployment)
        self.assertEqual((row.requests, row.images, row.errors), (4, 4, 1))
        self.assertEqual(sum(row.histogram), 4)


class RecentLookupTests(DeployTestCase):
    """Tokens and deployments are remembered for a moment; changes made here apply at once."""

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"
        self.client_, self.token = self.token_client_for(self.bob)
        self.image = {"image": b64(digit_pngs(1)[0])}

    def test_a_revoked_token_is_refused_at_once(self) -> None:
        self.assertEqual(self.client_.post(self.url, self.image, format="json").status_code, 200)
        self.token.revoke()
        self.assertEqual(self.client_.post(self.url, self.image, format="json").status_code, 401)

    def test_a_removed_member_is_refused_at_once(self) -> None:
        self.assertEqual(self.client_.post(self.url, self.image, format="json").status_code, 200)
        self.workspace.memberships.get(user=self.bob).remove()
        self.assertEqual(self.client_.post(self.url, self.image, format="json").status_code, 401)

    def test_a_saved_threshold_applies_to_the_next_request(self) -> None:
        self.client_.post(self.url, self.image, format="json")
        self.deployment.threshold = 0.42
        self.deployment.save()
        body = self.client_.post(self.url, self.image, format="json").json()
        self.assertEqual(body["threshold"], 0.42)

    def test_remembered_lookups_expire(self) -> None:
        from unittest import mock

        self.client_.post(self.url, self.image, format="json")
        Deployment.objects.filter(pk=self.deployment.pk).update(threshold=0.3)  # no signal
        with mock.patch("core.recent.time.monotonic", return_value=10**9):
            body = self.client_.post(self.url, self.image, format="json").json()
        self.assertEqual(body["threshold"], 0.3)

    @override_settings(DEPLOY_LOOKUP_SECONDS=0)
    def test_remembering_can_be_turned_off(self) -> None:
        self.client_.post(self.url, self.image, format="json")
        Deployment.objects.filter(pk=self.deployment.pk).update(threshold=0.3)
        body = self.client_.post(self.url, self.image, format="json").json()
        self.assertEqual(body["threshold"], 0.3)
