from __future__ import annotations

from core.testing import BaseTestCase


class MeApiTests(BaseTestCase):
    def test_it_describes_the_session_user(self) -> None:
        response = self.api_client_for(self.charlie).get("/api/me/")
        self.assertEqual(
            response.json(),
            {"id": self.charlie.pk, "username": "charlie", "email": "charlie@example.org"},
        )
