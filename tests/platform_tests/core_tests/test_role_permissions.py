"""core.permissions: viewers read, the named role writes, outsiders are refused."""

from __future__ import annotations

from types import SimpleNamespace

from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from core.permissions import (
    IsWorkspaceAdmin,
    IsWorkspaceMember,
    IsWorkspaceOwner,
    IsWorkspaceViewer,
)
from core.testing import BaseTestCase


class RolePermissionTests(BaseTestCase):
    def allowed(self, permission: type, user: object, method: str) -> bool:
        django_request = getattr(APIRequestFactory(), method.lower())("/")
        force_authenticate(django_request, user=user)
        request = APIView().initialize_request(django_request)
        view = SimpleNamespace(get_workspace=lambda: self.workspace)
        return permission().has_permission(request, view)

    def test_viewers_read_everywhere(self) -> None:
        for permission in (IsWorkspaceViewer, IsWorkspaceMember, IsWorkspaceAdmin):
            self.assertTrue(self.allowed(permission, self.vera, "GET"))

    def test_writes_need_the_named_role(self) -> None:
        expectations = {
            IsWorkspaceViewer: {self.vera: True},
            IsWorkspaceMember: {self.vera: False, self.bob: True},
            IsWorkspaceAdmin: {self.bob: False, self.adam: True},
            IsWorkspaceOwner: {self.adam: False, self.alice: True},
        }
        for permission, by_user in expectations.items():
            for user, allowed in by_user.items():
                with self.subTest(permission=permission.__name__, user=user.username):
                    self.assertEqual(self.allowed(permission, user, "POST"), allowed)

    def test_it_refuses_outsiders(self) -> None:
        for method in ("GET", "POST"):
            self.assertFalse(self.allowed(IsWorkspaceViewer, self.charlie, method))

    def test_it_checks_the_object_workspace(self) -> None:
        django_request = APIRequestFactory().delete("/")
        force_authenticate(django_request, user=self.adam)
        request = APIView().initialize_request(django_request)
        membership = self.workspace.memberships.get(user=self.bob)
        self.assertTrue(IsWorkspaceAdmin().has_object_permission(request, None, membership))
        self.assertFalse(IsWorkspaceOwner().has_object_permission(request, None, self.workspace))
