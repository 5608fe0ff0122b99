"""Pages, flash messages and API errors follow the request's language: the browser's
Accept-Language, or the language picked with the header's switcher (set_language)."""

from __future__ import annotations

from django.conf import settings
from django.test import override_settings
from django.utils import translation

from core import throttling
from core.testing import PASSWORD, BaseTestCase
from tests.platform_tests.i18n_tests.catalogs import compile_catalogs
from training.hyperparameters import FIELDS


class RequestLanguageTests(BaseTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        compile_catalogs()
        super().setUpClass()

    def test_it_serves_english_by_default(self) -> None:
        response = self.client.get("/login/")
        self.assertContains(response, "<h1>Log in</h1>", html=True)
        self.assertContains(response, '<html lang="en')
        self.assertNotContains(response, "登录")

    def test_it_serves_chinese_to_a_browser_that_asks_for_it(self) -> None:
        for header in ("zh-CN,zh;q=0.9,en;q=0.8", "zh", "zh-Hans", "zh-hans-CN"):
            with self.subTest(header=header):
                response = self.client.get("/login/", headers={"accept-language": header})
                self.assertContains(response, "<h1>登录</h1>", html=True)
                self.assertContains(response, '<html lang="zh-hans">')
                # Django's own form labels come from Django's catalog.
                self.assertContains(response, "用户名")

    def test_it_keeps_english_for_a_language_it_does_not_have(self) -> None:
        response = self.client.get("/login/", headers={"accept-language": "fr-FR,fr;q=0.9"})
        self.assertContains(response, "<h1>Log in</h1>", html=True)

    def test_the_switcher_is_on_every_page_for_anonymous_visitors_too(self) -> None:
        for url in ("/", "/login/", "/signup/"):
            with self.subTest(url=url):
                response = self.client.get(url)
                self.assertContains(response, 'action="/i18n/setlang/"')
                self.assertContains(response, f'name="next" value="{url}"')
                self.assertContains(response, "简体中文")
                self.assertContains(response, "English")
                self.assertContains(response, "csrfmiddlewaretoken")

    def test_set_language_switches_and_the_choice_persists(self) -> None:
        response = self.client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/login/"})
        self.assertRedirects(response, "/login/", fetch_redirect_response=False)
        self.assertEqual(self.client.cookies[settings.LANGUAGE_COOKIE_NAME].value, "zh-hans")
        # The cookie beats the browser's own preference, on the next pages too.
        for url in ("/login/", "/"):
            page = self.client.get(url, headers={"accept-language": "en-US"})
            self.assertContains(page, "登录")
        self.client.post("/i18n/setlang/", {"language": "en", "next": "/"})
        self.assertContains(self.client.get("/login/"), "<h1>Log in</h1>", html=True)

    def test_set_language_refuses_a_next_on_another_host(self) -> None:
        response = self.client.post(
            "/i18n/setlang/", {"language": "zh-hans", "next": "https://evil.example/"}
        )
        self.assertEqual(response.status_code, 302)
        self.assertEqual(response["Location"], "/")

    def test_a_signed_in_members_pages_and_flash_messages_are_chinese(self) -> None:
        self.client.post("/login/", {"username": "bob", "password": PASSWORD})
        self.client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
        page = self.client.get("/workspaces/")
        self.assertContains(page, "工作空间")
        self.assertContains(page, "退出登录")
        response = self.client.post("/workspaces/", {"name": "视觉团队"}, follow=True)
        self.assertContains(response, "已创建工作空间“视觉团队”。")

    def test_a_chinese_form_error_comes_from_our_own_form(self) -> None:
        response = self.client.post(
            "/signup/",
            {
                "username": "newcomer",
                "email": "bob@example.org",
                "password1": "a-Long-pass-123",
                "password2": "a-Long-pass-123",
            },
            headers={"accept-language": "zh-CN"},
        )
        self.assertContains(response, "已有账号使用此电子邮箱。")

    @override_settings(LANGUAGE_CODE="en-us")
    def test_an_api_permission_error_follows_accept_language(self) -> None:
        client = self.api_client_for(self.vera)
        url = f"/api/workspaces/{self.workspace.slug}/datasets/"
        body = {"name": "New", "task_type": "detection"}
        english = client.post(url, body, format="json")
        self.assertEqual(english.status_code, 403)
        self.assertEqual(english.json()["message"], "This needs the member role.")
        chinese = client.post(url, body, format="json", headers={"accept-language": "zh-Hans"})
        self.assertEqual(chinese.status_code, 403)
        self.assertEqual(chinese.json()["code"], "permission_denied")
        self.assertEqual(chinese.json()["message"], "此操作需要成员角色。")

    def test_an_api_not_found_error_follows_accept_language(self) -> None:
        client = self.api_client_for(self.charlie)
        response = client.get(
            f"/api/workspaces/{self.workspace.slug}/datasets/", headers={"accept-language": "zh-CN"}
        )
        self.assertEqual(response.status_code, 404)
        self.assertEqual(
            response.json(), {"code": "not_found", "message": "未找到。", "fields": {}}
        )

    def test_an_api_validation_error_from_our_checks_is_chinese(self) -> None:
        with translation.override("zh-hans"):
            with self.assertRaisesMessage(ValueError, "训练轮数必须是整数。"):
                FIELDS["epochs"].clean("2.5")
        with translation.override("en"):
            with self.assertRaisesMessage(ValueError, "Epochs must be a whole number."):
                FIELDS["epochs"].clean("2.5")

    def test_an_api_validation_error_from_our_services_is_chinese(self) -> None:
        client = self.api_client_for(self.bob)
        url = f"/api/workspaces/{self.workspace.slug}/datasets/"
        body = {"name": "猫和狗", "task_type": "classification"}
        self.assertEqual(client.post(url, body, format="json").status_code, 201)
        again = client.post(url, body, format="json", headers={"accept-language": "zh-CN"})
        self.assertEqual(again.status_code, 400)
        self.assertIn("此工作空间已有名为“猫和狗”的数据集。", again.json()["message"])
        english = client.post(url, body, format="json")
        self.assertIn(
            "This workspace already has a dataset named '猫和狗'.", english.json()["message"]
        )

    def test_djangos_own_admin_speaks_chinese_too(self) -> None:
        response = self.client.get("/admin/login/", headers={"accept-language": "zh-CN"})
        self.assertContains(response, 'lang="zh-hans"')
        self.assertContains(response, "用户名")
        english = self.client.get("/admin/login/")
        self.assertContains(english, "Username")

    def test_the_wait_of_a_throttled_login_reads_in_the_requests_language(self) -> None:
        with translation.override("zh-hans"):
            self.assertEqual(throttling.wait_text(300), "5 分钟")
            self.assertEqual(throttling.wait_text(20), "20 秒")
        with translation.override("en"):
            self.assertEqual(throttling.wait_text(60 * 5), "5 minutes")
            self.assertEqual(throttling.wait_text(61), "2 minutes")
            self.assertEqual(throttling.wait_text(20), "20 s")
