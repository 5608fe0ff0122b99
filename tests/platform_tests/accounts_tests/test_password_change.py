from __future__ import annotations

from core.testing import PASSWORD, BaseTestCase


class PasswordChangeTests(BaseTestCase):
    def test_it_changes_the_password(self) -> None:
        self.client.force_login(self.bob)
        form = {
            "old_password": PASSWORD,
            "new_password1": "a brand new passphrase",
            "new_password2": "a brand new passphrase",
        }
        response = self.client.post("/account/password/", form)
        self.assertRedirects(response, "/account/password/done/")
        self.bob.refresh_from_db()
        self.assertTrue(self.bob.check_password("a brand new passphrase"))

    def test_it_rejects_a_wrong_old_password(self) -> None:
        self.client.force_login(self.bob)
        form = {"old_password": "wrong", "new_password1": "x" * 12, "new_password2": "x" * 12}
        response = self.client.post("/account/password/", form)
        self.assertContains(response, "Your old password was entered incorrectly")
        self.bob.refresh_from_db()
        self.assertTrue(self.bob.check_password(PASSWORD))

    def test_it_requires_login(self) -> None:
        response = self.client.get("/account/password/")
        self.assertRedirects(response, "/login/?next=/account/password/")
