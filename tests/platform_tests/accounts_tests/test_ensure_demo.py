"""The demo login that `make run` creates is there after the first run and untouched after."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from accounts.models import Membership, User, Workspace
from core.testing import BaseTestCase


class EnsureDemoTests(BaseTestCase):
    def test_it_creates_the_demo_user_and_workspace_once(self) -> None:
        out = StringIO()
        call_command("ensure_demo", stdout=out)
        call_command("ensure_demo", stdout=StringIO())
        demo = User.objects.get(username="demo")
        self.assertTrue(demo.check_password("sampan-demo"))
        workspace = Workspace.objects.get(name="Demo workspace")
        self.assertEqual(workspace.role_of(demo), Membership.Role.OWNER)
        self.assertEqual(Workspace.objects.filter(name="Demo workspace").count(), 1)
        self.assertIn("Demo login: demo / sampan-demo", out.getvalue())

    def test_it_keeps_a_changed_password(self) -> None:
        call_command("ensure_demo", stdout=StringIO())
        demo = User.objects.get(username="demo")
        demo.set_password("changed it")
        demo.save()
        call_command("ensure_demo", stdout=StringIO())
        demo.refresh_from_db()
        self.assertTrue(demo.check_password("changed it"))
