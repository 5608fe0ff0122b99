"""A token's secret is never stored: not in its table, not in the session, nowhere."""

from __future__ import annotations

import re

from django.contrib.sessions.models import Session
from django.db import connection

from accounts.models import ApiToken
from core.testing import BaseTestCase


class TokenStorageTests(BaseTestCase):
    def database_text(self) -> str:
        """Every value of every table, as text, with session payloads decoded."""
        dump = [repr(session.get_decoded()) for session in Session.objects.all()]
        with connection.cursor() as cursor:
            for table in connection.introspection.table_names(cursor):
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
                dump.extend(repr(row) for row in cursor.fetchall())
        return "\n".join(dump)

    def test_it_never_stores_the_secret(self) -> None:
        self.client.force_login(self.bob)
        page = self.client.post("/workspaces/alices-team/tokens/", {"name": "web"})
        web_secret = re.search(r"spn_[\w-]+", page.content.decode()).group(0)
        api = self.api_client_for(self.bob)
        api_secret = api.post("/api/workspaces/alices-team/tokens/", {"name": "api"}).json()[
            "token"
        ]
        text = self.database_text()
        for secret in (web_secret, api_secret):
            self.assertNotIn(secret, text)
            self.assertNotIn(secret[len(ApiToken.SCHEME) :], text)
            self.assertIn(ApiToken.digest_of(secret), text)

    def test_the_stored_prefix_is_too_short_to_use(self) -> None:
        token, secret = ApiToken.issue(workspace=self.workspace, user=self.bob, name="t")
        self.assertEqual(token.prefix, secret[: ApiToken.PREFIX_LENGTH])
        self.assertGreaterEqual(len(secret) - len(token.prefix), 35)
        self.assertIsNone(ApiToken.find_active(token.prefix))
