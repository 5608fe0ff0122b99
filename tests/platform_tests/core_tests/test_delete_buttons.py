"""Delete buttons are on the pages for those who may delete, and not for viewers: samples,
versions, jobs and deployments for members; the dataset for admins; the workspace for owners."""

from __future__ import annotations

from tests.platform_tests.core_tests.deletion_base import DeletionTestCase


class DeleteButtonTests(DeletionTestCase):
    def page(self, user, url: str) -> str:  # type: ignore[no-untyped-def]
        self.client.force_login(user)
        response = self.client.get(url)
        self.assertEqual(response.status_code, 200, url)
        return response.content.decode()

    def member_pages(self) -> dict[str, str]:
        deployment = f"/api/deployments/{self.deployment.pk}/"
        return {
            f"/datasets/{self.dataset.pk}/": f"/api/samples/{self.dataset.samples.first().pk}/",
            f"/datasets/{self.dataset.pk}/versions/": f"/api/versions/{self.version.pk}/",
            f"/jobs/{self.job.pk}/": f"/api/jobs/{self.job.pk}/",
            f"/workspaces/{self.workspace.slug}/deployments/": deployment,
            f"/deployments/{self.deployment.pk}/": deployment,
        }

    def test_members_see_delete_buttons(self) -> None:
        for url, api in self.member_pages().items():
            self.assertIn(f'data-delete-url="{api}"', self.page(self.bob, url), url)
        self.assertIn(
            'id="delete-sample"', self.page(self.bob, f"/datasets/{self.dataset.pk}/label/")
        )
        self.assertIn('id="bulk-delete"', self.page(self.bob, f"/datasets/{self.dataset.pk}/"))

    def test_viewers_see_none(self) -> None:
        for url in [*self.member_pages(), f"/datasets/{self.dataset.pk}/label/"]:
            page = self.page(self.vera, url)
            self.assertNotIn("data-delete-url", page, url)
            self.assertNotIn('id="delete-sample"', page, url)
            self.assertNotIn('id="bulk-delete"', page, url)
        self.assertNotIn(
            "delete-workspace", self.page(self.vera, f"/workspaces/{self.workspace.slug}/members/")
        )

    def test_the_dataset_delete_is_for_admins(self) -> None:
        url = f"/datasets/{self.dataset.pk}/"
        self.assertNotIn('id="delete-dataset"', self.page(self.bob, url))
        self.assertIn('id="delete-dataset"', self.page(self.adam, url))

    def test_the_workspace_delete_is_for_owners(self) -> None:
        url = f"/workspaces/{self.workspace.slug}/members/"  # the workspace's settings page
        self.assertNotIn('id="delete-workspace"', self.page(self.adam, url))
        self.assertIn('id="delete-workspace"', self.page(self.alice, url))

    def test_the_report_offers_to_delete_a_near_duplicate(self) -> None:
        from datastore.models import ImportJob

        copy = self.loose_sample(name="digits/3/copy.png")
        problem = {
            "code": "near_duplicate",
            "severity": "warning",
            "file": copy.original_name,
            "where": "",
            "reason": "This image looks almost the same as 'digits/3/a.png'.",
            "fix": "Check both in the gallery and delete one if they show the same thing.",
        }
        ImportJob.objects.filter(dataset=self.dataset).update(report={"problems": [problem]})
        url = f"/datasets/{self.dataset.pk}/report/"
        self.assertIn(f'data-delete-url="/api/samples/{copy.pk}/"', self.page(self.bob, url))
        self.assertNotIn("data-delete-url", self.page(self.vera, url))
        copy.delete()
        self.assertNotIn("delete-copy", self.page(self.bob, url))  # gone: nothing to offer
