"""The operators' admin at /admin/: staff see every model the platform registers; jobs and data
are read-only; accounts can be deactivated, roles corrected and tokens revoked; everyone else
is sent to the admin's login."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse

from accounts.models import ApiToken, Invitation, Membership, User
from core.testing import PASSWORD, BaseTestCase
from datastore.models import Dataset, ImportJob, UploadSession

PLATFORM_APPS = {"accounts", "datastore", "training", "modelzoo", "deploy"}


def changelist(model: type) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change(obj: object) -> str:
    meta = obj._meta  # type: ignore[attr-defined]
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])


class AdminTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        super().setUpTestData()
        cls.operator = User.objects.create_user(
            username="olga", email="olga@example.org", password=PASSWORD, is_staff=True
        )
        cls.root = User.objects.create_superuser(
            username="root", email="root@example.org", password=PASSWORD
        )
        dataset = Dataset.objects.create(
            workspace=cls.workspace, name="Parts", task_type=Dataset.TaskType.CLASSIFICATION
        )
        upload = UploadSession.objects.create(dataset=dataset)
        cls.job = ImportJob.objects.create(dataset=dataset, upload=upload, status="failed")


class WhoGetsInTests(AdminTestCase):
    def test_it_registers_every_platform_app(self) -> None:
        registered = {model._meta.app_label for model in admin.site._registry}
        self.assertLessEqual(PLATFORM_APPS, registered)

    def test_staff_see_every_changelist(self) -> None:
        self.client.force_login(self.operator)
        platform_models = [m for m in admin.site._registry if m._meta.app_label in PLATFORM_APPS]
        self.assertGreaterEqual(len(platform_models), 19)
        for model in platform_models:
            response = self.client.get(changelist(model))
            self.assertEqual(response.status_code, 200, model.__name__)
        index = self.client.get("/admin/")
        for label in PLATFORM_APPS:
            self.assertContains(index, f'href="/admin/{label}/"')
        # Django's groups grant admin permissions: only superusers manage them.
        self.assertEqual(self.client.get("/admin/auth/group/").status_code, 403)

    def test_staff_read_each_record(self) -> None:
        self.client.force_login(self.operator)
        token, _ = ApiToken.issue(workspace=self.workspace, user=self.bob, name="ci")
        membership = self.workspace.memberships.get(user=self.bob)
        for obj in (self.bob, self.workspace, membership, token, self.job, self.job.dataset):
            response = self.client.get(change(obj))
            self.assertEqual(response.status_code, 200, type(obj).__name__)
        self.assertNotContains(self.client.get(change(token)), token.digest)

    def test_others_are_sent_to_the_admin_login(self) -> None:
        for user in (self.alice, self.charlie, None):  # an owner, an outsider, nobody
            self.client.logout()
            if user is not None:
                self.client.force_login(user)
            for path in ("/admin/", changelist(ImportJob), changelist(User)):
                response = self.client.get(path)
                self.assertEqual(response.status_code, 302, (user, path))
                self.assertTrue(response["Location"].startswith("/admin/login/"), path)

    def test_the_admin_login_refuses_a_user_who_is_not_staff(self) -> None:
        response = self.client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "staff account")
        self.assertNotIn("_auth_user_id", self.client.session)

    def test_a_deactivated_operator_is_out(self) -> None:
        self.operator.is_active = False
        self.operator.save()
        self.client.force_login(self.operator)
        self.assertEqual(self.client.get(changelist(ImportJob)).status_code, 302)


class JobsAreReadOnlyTests(AdminTestCase):
    def test_staff_read_a_job_without_a_form_to_change_it(self) -> None:
        self.client.force_login(self.operator)
        response = self.client.get(change(self.job))
        self.assertEqual(response.status_code, 200)
        self.assertNotContains(response, 'name="status"')
        self.assertNotContains(response, 'type="submit" value="Save"')

    def test_even_a_superuser_cannot_change_add_or_delete_a_job(self) -> None:
        self.client.force_login(self.root)
        response = self.client.post(change(self.job), {"status": "queued", "attempt": 0})
        self.assertEqual(response.status_code, 403)
        self.job.refresh_from_db()
        self.assertEqual(self.job.status, "failed")
        meta = ImportJob._meta
        add = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        self.assertEqual(self.client.get(add).status_code, 403)
        delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[self.job.pk])
        self.assertEqual(self.client.post(delete, {"post": "yes"}).status_code, 403)
        self.assertTrue(ImportJob.objects.filter(pk=self.job.pk).exists())


class OperatorFixesTests(AdminTestCase):
    def test_a_superuser_deactivates_a_user_whose_tokens_then_stop(self) -> None:
        client, _ = self.token_client_for(self.bob)
        self.assertEqual(client.get("/api/me/").status_code, 200)
        self.client.force_login(self.root)
        response = self.client.post(
            changelist(User), {"action": "deactivate", "_selected_action": [self.bob.pk]}
        )
        self.assertEqual(response.status_code, 302)
        self.bob.refresh_from_db()
        self.assertFalse(self.bob.is_active)
        self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_plain_staff_may_look_but_not_deactivate(self) -> None:
        self.client.force_login(self.operator)
        self.client.post(
            changelist(User), {"action": "deactivate", "_selected_action": [self.bob.pk]}
        )
        self.bob.refresh_from_db()
        self.assertTrue(self.bob.is_active)

    def test_nobody_deletes_users_here(self) -> None:
        self.client.force_login(self.root)
        delete = reverse("admin:accounts_user_delete", args=[self.bob.pk])
        self.assertEqual(self.client.post(delete, {"post": "yes"}).status_code, 403)
        self.assertTrue(User.objects.filter(pk=self.bob.pk).exists())

    def workspace_form(self, roles: dict[Membership, str]) -> dict[str, object]:
        memberships = list(self.workspace.memberships.order_by("pk"))
        data: dict[str, object] = {
            "name": self.workspace.name,
            "memberships-TOTAL_FORMS": len(memberships),
            "memberships-INITIAL_FORMS": len(memberships),
            "memberships-MIN_NUM_FORMS": 0,
            "memberships-MAX_NUM_FORMS": 1000,
        }
        for index, membership in enumerate(memberships):
            data[f"memberships-{index}-id"] = membership.pk
            data[f"memberships-{index}-workspace"] = self.workspace.pk
            data[f"memberships-{index}-role"] = roles.get(membership, membership.role)
        return data

    def test_a_superuser_corrects_a_role(self) -> None:
        bobs = self.workspace.memberships.get(user=self.bob)
        self.client.force_login(self.root)
        response = self.client.post(change(self.workspace), self.workspace_form({bobs: "admin"}))
        self.assertEqual(response.status_code, 302, response.content[:2000])
        bobs.refresh_from_db()
        self.assertEqual(bobs.role, Membership.Role.ADMIN)

    def test_a_workspace_keeps_an_owner(self) -> None:
        alices = self.workspace.memberships.get(user=self.alice)
        self.client.force_login(self.root)
        response = self.client.post(change(self.workspace), self.workspace_form({alices: "member"}))
        self.assertEqual(response.status_code, 200)
        self.assertContains(response, "A workspace needs at least one owner.")
        alices.refresh_from_db()
        self.assertEqual(alices.role, Membership.Role.OWNER)

    def test_a_superuser_revokes_a_token(self) -> None:
        client, token = self.token_client_for(self.vera)
        self.client.force_login(self.root)
        self.client.post(changelist(ApiToken), {"action": "revoke", "_selected_action": [token.pk]})
        token.refresh_from_db()
        self.assertIsNotNone(token.revoked_at)
        self.assertEqual(client.get("/api/me/").status_code, 401)

    def test_an_account_made_here_finds_the_invitations_sent_before_it_existed(self) -> None:
        from accounts import services

        services.invite(
            self.workspace, by=self.alice, addressed_to="Dana@Example.org", role="member"
        )
        self.client.force_login(self.root)
        response = self.client.post(
            reverse("admin:accounts_user_add"),
            {
                "username": "dana",
                "email": "dana@example.org",
                "password1": "a long enough passphrase 42",
                "password2": "a long enough passphrase 42",
                "usable_password": "true",
            },
        )
        self.assertEqual(response.status_code, 302, response.content[:3000])
        dana = User.objects.get(username="dana")
        (invitation,) = Invitation.objects.open().filter(invitee=dana)
        self.assertEqual(invitation.workspace, self.workspace)
