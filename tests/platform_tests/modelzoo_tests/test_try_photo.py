"""Trying shipped weights on a photo: chelsea's top-5 holds a cat, for every signed-in role and
for an API token; anonymous callers are refused; bad or oversized files and architectures
without real weights get a clear refusal; a warm answer reuses the loaded network."""

from __future__ import annotations

import io
from typing import Any
from unittest import mock

from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from modelzoo.services import trying
from tests.framework_tests.vision_tests.shipped_store import CAT_CLASSES, COFFEE_CLASSES, photo
from tests.platform_tests.modelzoo_tests.base import ZooTestCase


def png(name: str) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    photo(name).save(buffer, format="PNG")
    return SimpleUploadedFile(f"{name}.png", buffer.getvalue(), content_type="image/png")


class TryPhotoTests(ZooTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.use_shipped_store()

    def try_as(self, client: APIClient, key: str = "mobilenet_v2", image: Any = None) -> Any:
        url = f"/api/modelzoo/architectures/{key}/try/"
        return client.post(url, {"image": image or png("chelsea")}, format="multipart")

    def test_chelseas_top5_holds_a_cat_for_every_role(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            response = self.try_as(self.api_client_for(user))
            self.assertEqual(response.status_code, 200, response.content)
            answer = response.json()
            top5 = answer["top5"]
            self.assertEqual(len(top5), 5)
            self.assertTrue({e["index"] for e in top5} & CAT_CLASSES, top5)
            self.assertIn("cat", top5[0]["name"])
            probabilities = [e["probability"] for e in top5]
            self.assertEqual(probabilities, sorted(probabilities, reverse=True))
            self.assertLessEqual(sum(probabilities), 1.0 + 1e-6)
            self.assertEqual(answer["preprocessing"]["resize"], 256)

    def test_efficientnet_lite0_sees_espresso_in_coffee(self) -> None:
        response = self.try_as(self.api_client_for(self.bob), "efficientnet_lite0", png("coffee"))
        top5 = response.json()["top5"]
        self.assertEqual(top5[0]["name"], "espresso")
        self.assertTrue({e["index"] for e in top5} & COFFEE_CLASSES)

    def test_an_api_token_can_try_and_an_anonymous_caller_cannot(self) -> None:
        client, _ = self.token_client_for(self.vera)
        self.assertEqual(self.try_as(client).status_code, 200)
        self.assertIn(self.try_as(APIClient()).status_code, (401, 403))

    def test_a_warm_answer_reuses_the_loaded_network(self) -> None:
        # How fast a warm answer is belongs to benchmarks; what makes it warm is tested here:
        # the network is loaded (and hash-checked) once per process and stored file.
        client = self.api_client_for(self.bob)
        trying._networks.pop("mobilenet_v2", None)
        with mock.patch.object(trying, "_load", wraps=trying._load) as load:
            first, second = self.try_as(client), self.try_as(client)
        self.assertEqual((first.status_code, second.status_code), (200, 200))
        self.assertEqual(load.call_count, 1)
        self.assertEqual(first.json()["top5"], second.json()["top5"])
        self.assertGreater(second.json()["elapsed_ms"], 0)

    def test_an_architecture_without_real_weights_says_so(self) -> None:
        response = self.try_as(self.api_client_for(self.bob), "resnet50")
        self.assertEqual(response.status_code, 409)
        self.assertIn("ResNet-50 has no shipped weights", response.json()["message"])
        self.assertEqual(self.try_as(self.api_client_for(self.bob), "no-such").status_code, 404)

    def test_a_file_that_is_not_an_image_is_refused(self) -> None:
        junk = SimpleUploadedFile("cat.png", b"not an image at all", content_type="image/png")
        response = self.try_as(self.api_client_for(self.bob), image=junk)
        self.assertEqual(response.status_code, 400)
        self.assertIn("cannot be tried", response.json()["message"])
        missing = self.api_client_for(self.bob).post(
            "/api/modelzoo/architectures/mobilenet_v2/try/", {}, format="multipart"
        )
        self.assertEqual(missing.status_code, 400)
        self.assertIn("image", missing.json()["fields"])

    def test_an_oversized_image_is_refused_before_it_is_read(self) -> None:
        big = SimpleUploadedFile("big.png", b"\0" * (10 * 1024 * 1024 + 1))
        response = self.try_as(self.api_client_for(self.bob), image=big)
        self.assertEqual(response.status_code, 413)
        self.assertIn("the limit is 10,485,760", response.json()["message"])
