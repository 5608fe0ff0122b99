"""core.scoping: what each role and an outsider can see, and how a token narrows it."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.models import ApiToken, Membership, Workspace
from core.scoping import (
    Role,
    get_object_for_user_or_404,
    require_role,
    role_in,
    scoped,
    workspaces_for,
)
from core.testing import BaseTestCase


class WorkspaceScopingTests(BaseTestCase):
    def test_it_lists_the_workspaces_of_each_member(self) -> None:
        for user in (self.alice, self.adam, self.bob, self.vera):
            self.assertEqual(list(workspaces_for(user)), [self.workspace])
        self.assertEqual(list(workspaces_for(self.charlie)), [self.charlies_workspace])

    def test_it_filters_by_minimum_role(self) -> None:
        admins = workspaces_for(self.adam, min_role=Role.ADMIN)
        self.assertEqual(list(admins), [self.workspace])
        self.assertFalse(workspaces_for(self.bob, min_role=Role.ADMIN).exists())
        self.assertTrue(workspaces_for(self.bob, min_role=Role.MEMBER).exists())

    def test_it_scopes_querysets_of_workspace_objects(self) -> None:
        memberships = scoped(Membership.objects.all(), self.charlie)
        self.assertEqual({m.user for m in memberships}, {self.charlie})

    def test_it_returns_visible_objects(self) -> None:
        found = get_object_for_user_or_404(Workspace, self.vera, slug="alices-team")
        self.assertEqual(found, self.workspace)

    def test_it_answers_404_to_an_outsider(self) -> None:
        with self.assertRaises(Http404):
            get_object_for_user_or_404(Workspace, self.charlie, slug="alices-team")

    def test_it_answers_404_to_anonymous_users(self) -> None:
        from django.contrib.auth.models import AnonymousUser

        self.assertFalse(workspaces_for(AnonymousUser()).exists())

    def test_require_role_gives_403_to_a_member_with_too_low_a_role(self) -> None:
        self.assertEqual(require_role(self.adam, self.workspace, Role.ADMIN), Role.ADMIN)
        with self.assertRaises(PermissionDenied):
            require_role(self.bob, self.workspace, Role.ADMIN)
        with self.assertRaises(Http404):
            require_role(self.charlie, self.workspace, Role.VIEWER)

    def test_a_token_confines_its_user_to_its_workspace(self) -> None:
        shared = Workspace.objects.create(name="Shared", slug="shared")
        shared.add_member(self.bob, Role.MEMBER)
        token, _ = ApiToken.issue(workspace=shared, user=self.bob, name="ci")
        self.bob.api_token = token
        self.assertEqual(list(workspaces_for(self.bob)), [shared])
        self.assertIsNone(role_in(self.workspace, self.bob))
        with self.assertRaises(Http404):
            get_object_for_user_or_404(Workspace, self.bob, slug="alices-team")

    def test_roles_are_ordered(self) -> None:
        self.assertTrue(Role.OWNER.covers(Role.ADMIN))
        self.assertTrue(Role.MEMBER.covers(Role.VIEWER))
        self.assertFalse(Role.VIEWER.covers(Role.MEMBER))
        self.assertEqual(Role.at_least(Role.ADMIN), [Role.OWNER, Role.ADMIN])
