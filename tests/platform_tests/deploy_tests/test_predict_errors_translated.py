"""The predict endpoint's refusals are answered in the request's language: zh-Hans with
Accept-Language zh-Hans, English without it, for the owner's, a member's and a viewer's
token; an outsider's token gets 404 in either language."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from deploy.models import Deployment
from tests.platform_tests.deploy_tests.base import DeployTestCase, digit_pngs
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class PredictErrorsTranslatedTests(DeployTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.digit = digit_pngs(1)[0]

    def setUp(self) -> None:
        super().setUp()
        self.url = f"/api/deployments/{self.deployment.pk}/predict"

    def cases(self) -> list[tuple[dict, str, str, str]]:
        most = Deployment.MAX_TOP_K
        image = SimpleUploadedFile("d.png", self.digit, content_type="image/png")
        return [
            (
                {"image": "%%% not base64 %%%"},
                "json",
                "Image 0 is not valid base64.",
                "第 0 张图片不是有效的 base64。",
            ),
            ({"images": 5}, "json", "'images' must be a list of base64 strings", "'images' 必须是"),
            (
                {"image": image, "top_k": "x"},
                "multipart",
                "top_k must be a whole number.",
                "top_k 必须是整数。",
            ),
            (
                {"image": image, "top_k": "0"},
                "multipart",
                f"top_k must be from 1 to {most}.",
                f"top_k 必须在 1 到 {most} 之间。",
            ),
            (
                {"image": image, "threshold": "1.5"},
                "multipart",
                "threshold must be a number from 0 to 1.",
                "threshold 必须是 0 到 1 之间的数字。",
            ),
            ({}, "json", "No image: send files in 'image'", "没有图片："),
        ]

    def post(self, client: Any, data: dict, fmt: str, **headers: str) -> Any:
        for value in data.values():
            if isinstance(value, SimpleUploadedFile):
                value.seek(0)
        return client.post(self.url, data, format=fmt, **headers)

    def test_it_answers_each_refusal_in_chinese_and_in_english_for_every_role(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            client, _ = self.token_client_for(user)
            for data, fmt, english, chinese in self.cases():
                with self.subTest(user=user.username, english=english):
                    zh = self.post(client, data, fmt, **ZH)
                    self.assertEqual(zh.status_code, 400, zh.content)
                    self.assertIn(chinese, zh.json()["message"])
                    en = self.post(client, data, fmt, **EN)
                    self.assertEqual(en.status_code, 400, en.content)
                    self.assertIn(english, en.json()["message"])
                    self.assertEqual(zh.json()["code"], en.json()["code"])

    def test_a_too_large_request_states_its_sizes_in_chinese(self) -> None:
        client, _ = self.token_client_for(self.bob)
        with self.settings(DEPLOY_MAX_REQUEST_BYTES=10):
            answer = client.post(self.url, {"image": "AAAA" * 50}, format="json", **ZH)
        self.assertEqual(answer.status_code, 413, answer.content)
        self.assertRegex(answer.json()["message"], r"^请求大小为 [\d,]+ 字节，上限为 10 字节。")

    def test_an_outsider_gets_404_in_either_language(self) -> None:
        client, _ = self.token_client_for(self.charlie, self.charlies_workspace)
        for headers in (ZH, EN):
            image = SimpleUploadedFile("d.png", self.digit, content_type="image/png")
            answer = client.post(self.url, {"image": image, "top_k": "x"}, **headers)
            self.assertEqual(answer.status_code, 404)
