"""The base test case every app's tests build on (in the manner of healthchecks' BaseTestCase).

It sets up a workspace with one person per role, and an outsider who should have no access
to any of it::

    class DeleteDatasetTests(BaseTestCase):
        def test_it_rejects_outsider(self):
            self.client.force_login(self.charlie)
            self.assertEqual(self.client.post(url).status_code, 404)

- ``alice``: owner of ``self.workspace`` ("Alice's team")
- ``adam``: admin, ``bob``: member, ``vera``: viewer
- ``charlie``: outsider, owner of his own ``self.charlies_workspace``

``api_client_for(user)`` gives a DRF client with a session; ``token_client_for(user)`` gives
one authenticated by a fresh API token for ``self.workspace``.
"""

from __future__ import annotations

from django.test import TestCase, override_settings
from rest_framework.test import APIClient

from accounts.models import ApiToken, Membership, User, Workspace

Role = Membership.Role

# Real password hashing costs ~0.2 s per user; tests do not need the protection.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
PASSWORD = "correct horse battery staple"


@override_settings(PASSWORD_HASHERS=FAST_HASHERS)
class BaseTestCase(TestCase):
    alice: User
    adam: User
    bob: User
    vera: User
    charlie: User
    workspace: Workspace
    charlies_workspace: Workspace

    @classmethod
    def setUpTestData(cls) -> None:
        # The class-level override_settings is already active here (Django enables it in
        # setUpClass, before setUpTestData).
        cls.alice = cls.make_user("alice")
        cls.adam = cls.make_user("adam")
        cls.bob = cls.make_user("bob")
        cls.vera = cls.make_user("vera")
        cls.charlie = cls.make_user("charlie")
        cls.workspace = Workspace.objects.create(name="Alice's team", slug="alices-team")
        cls.workspace.add_member(cls.alice, Role.OWNER)
        cls.workspace.add_member(cls.adam, Role.ADMIN)
        cls.workspace.add_member(cls.bob, Role.MEMBER)
        cls.workspace.add_member(cls.vera, Role.VIEWER)
        cls.charlies_workspace = Workspace.objects.create(name="Charlie's", slug="charlies")
        cls.charlies_workspace.add_member(cls.charlie, Role.OWNER)

    @staticmethod
    def make_user(username: str) -> User:
        return User.objects.create_user(
            username=username, email=f"{username}@example.org", password=PASSWORD
        )

    def api_client_for(self, user: User) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    def token_client_for(
        self, user: User, workspace: Workspace | None = None
    ) -> tuple[APIClient, ApiToken]:
        token, secret = ApiToken.issue(
            workspace=workspace or self.workspace, user=user, name="test token"
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return client, token
