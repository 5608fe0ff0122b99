from __future__ import annotations

from core.testing import BaseTestCase


class HomePageTests(BaseTestCase):
    def test_it_shows_the_landing_page_to_visitors(self) -> None:
        response = self.client.get("/")
        self.assertContains(response, "Create an account")
        self.assertContains(response, "/static/css/sampan.css")

    def test_it_takes_signed_in_users_to_their_workspaces(self) -> None:
        self.client.force_login(self.bob)
        self.assertRedirects(self.client.get("/"), "/workspaces/")

    def test_pages_load_nothing_from_other_hosts(self) -> None:
        # The platform works air-gapped: no CDN links in the pages.
        self.client.force_login(self.alice)
        for url in ("/", "/workspaces/", "/workspaces/alices-team/", "/api/docs/"):
            body = self.client.get(url, follow=True).content.decode()
            self.assertNotIn('src="http', body, url)
            self.assertNotIn('href="http', body, url)
