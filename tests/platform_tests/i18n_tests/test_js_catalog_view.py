"""/jsi18n/ serves the page scripts' catalog in the request's language, cheaply: a browser that
has it gets a 304, and a language switch gets the other catalog from the same URL."""

from __future__ import annotations

import re
from unittest import mock

from django.conf import settings
from django.test import TestCase

from core import js_catalog
from core.testing import BaseTestCase
from datastore.models import Dataset
from tests.platform_tests.i18n_tests.catalogs import catalog_of, compile_catalogs

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}


class CatalogTests(TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        compile_catalogs()

    def setUp(self) -> None:
        js_catalog._rendered.clear()

    def test_it_answers_chinese_to_a_chinese_browser(self) -> None:
        response = self.client.get("/jsi18n/", **ZH)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["Content-Type"], 'text/javascript; charset="utf-8"')
        catalog = catalog_of(response.content.decode())
        self.assertEqual(catalog["Connection lost, retrying…"], "连接已断开，正在重试…")
        self.assertEqual(catalog["Queued"], "排队中")
        self.assertEqual(catalog["Imported %(count)s image"], ["已导入 %(count)s 张图像"])
        self.assertIn("django.pluralidx", response.content.decode())

    def test_it_answers_english_as_it_is(self) -> None:
        response = self.client.get("/jsi18n/", **EN)
        self.assertEqual(response.status_code, 200)
        catalog = catalog_of(response.content.decode())
        self.assertNotIn("Queued", catalog)  # gettext("Queued") answers "Queued"
        self.assertNotIn("排队中", str(catalog))

    def test_the_language_cookie_chooses_too(self) -> None:
        self.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
        response = self.client.get("/jsi18n/", **EN)
        self.assertEqual(catalog_of(response.content.decode())["Queued"], "排队中")
        self.assertIn("Cookie", response["Vary"])
        self.assertIn("Accept-Language", response["Vary"])

    def test_a_browser_that_has_it_gets_a_304(self) -> None:
        first = self.client.get("/jsi18n/", **ZH)
        self.assertIn("no-cache", first["Cache-Control"])
        again = self.client.get("/jsi18n/", HTTP_IF_NONE_MATCH=first["ETag"], **ZH)
        self.assertEqual(again.status_code, 304)
        self.assertEqual(again.content, b"")

    def test_a_switched_language_gets_the_other_catalog(self) -> None:
        chinese = self.client.get("/jsi18n/", **ZH)
        english = self.client.get("/jsi18n/", HTTP_IF_NONE_MATCH=chinese["ETag"], **EN)
        self.assertEqual(english.status_code, 200)
        self.assertNotEqual(english["ETag"], chinese["ETag"])
        self.assertNotIn("Queued", catalog_of(english.content.decode()))

    def test_it_renders_once_per_language(self) -> None:
        with mock.patch.object(
            js_catalog, "JavaScriptCatalog", wraps=js_catalog.JavaScriptCatalog
        ) as view:
            bodies = {self.client.get("/jsi18n/", **ZH).content for _ in range(3)}
            bodies |= {self.client.get("/jsi18n/", **EN).content for _ in range(2)}
        self.assertEqual(view.as_view.call_count, 2)
        self.assertEqual(len(bodies), 2)


class PagesLoadTheCatalogTests(BaseTestCase):
    def test_it_comes_before_the_page_scripts(self) -> None:
        dataset = Dataset.objects.create(workspace=self.workspace, name="Photos")
        for user in (self.alice, self.bob, self.vera):
            self.client.force_login(user)
            page = self.client.get(f"/datasets/{dataset.pk}/report/").content.decode()
            scripts = re.findall(r'<script[^>]*src="([^"]+)"', page)
            self.assertEqual(scripts[0], "/jsi18n/", user)
            self.assertTrue(any(s.endswith("datastore/report.js") for s in scripts))

    def test_it_is_the_same_for_everyone_and_signed_out(self) -> None:
        # The catalog holds the interface's text, nothing of any workspace.
        signed_out = self.client.get("/jsi18n/", **ZH)
        self.client.force_login(self.charlie)
        outsider = self.client.get("/jsi18n/", **ZH)
        self.assertEqual(signed_out.status_code, 200)
        self.assertEqual(outsider.content, signed_out.content)

    def test_it_is_a_same_origin_script_under_the_policy(self) -> None:
        response = self.client.get("/login/")
        self.assertIn('<script src="/jsi18n/"></script>', response.content.decode())
        self.assertIn("script-src 'self'", response["Content-Security-Policy"])
