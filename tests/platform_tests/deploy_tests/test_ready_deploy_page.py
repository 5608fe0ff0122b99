"""The zoo's one-click Deploy of a ready model: owners and members queue the package's export
with the deployment's name (`deploy_as`), and the deployments page lists it as being deployed
until it succeeds; viewers see no button and are refused; outsiders get 404. The export's
worker run is tested in test_ready_ocr_deploy."""

from __future__ import annotations

from unittest import mock

from core.testing import BaseTestCase
from deploy.models import Deployment, ModelExport
from deploy.services.ready_exports import deploy_finished
from tests.platform_tests.deploy_tests.ready_base import ready_or_skip


class ReadyDeployPageTests(BaseTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.ready = ready_or_skip("ppocr_v4")
        self.url = f"/workspaces/{self.workspace.slug}/ready-models/ppocr_v4/deploy/"

    def deploy_as(self, user):
        self.client.force_login(user)
        with mock.patch("deploy.services.ready_exports.enqueue") as enqueue:
            response = self.client.post(self.url, follow=True)
        return response, enqueue

    def test_owner_and_member_queue_a_one_click_deploy(self) -> None:
        for user in (self.alice, self.bob):
            response, enqueue = self.deploy_as(user)
            self.assertRedirects(response, f"/workspaces/{self.workspace.slug}/deployments/")
            export = ModelExport.objects.get(workspace=self.workspace, ready_model="ppocr_v4")
            enqueue.assert_called_once()
            self.assertEqual(export.deploy_as, self.ready.name)
            self.assertEqual(export.format, "package")
            self.assertEqual(export.ready_manifest_sha256, self.ready.manifest_sha256)
            self.assertContains(response, "is being exported and checked")
            pending = response.context["pending"]
            self.assertEqual([e.pk for e in pending], [export.pk])
            self.assertContains(response, f'data-export="{export.pk}"')
            export.delete()

    def test_a_second_click_while_it_runs_queues_nothing(self) -> None:
        self.deploy_as(self.bob)
        _, enqueue = self.deploy_as(self.bob)
        enqueue.assert_not_called()
        self.assertEqual(ModelExport.objects.filter(ready_model="ppocr_v4").count(), 1)

    def test_once_deployed_it_leaves_the_pending_list(self) -> None:
        self.deploy_as(self.bob)
        export = ModelExport.objects.get(ready_model="ppocr_v4")
        ModelExport.objects.filter(pk=export.pk).update(status=ModelExport.Status.SUCCEEDED)
        export.refresh_from_db()
        deployment = deploy_finished(export)
        self.assertEqual(deployment.name, self.ready.name)
        self.assertEqual(deploy_finished(export), deployment)  # a redelivery finds it
        response = self.client.get(f"/workspaces/{self.workspace.slug}/deployments/")
        self.assertEqual(list(response.context["pending"]), [])
        self.assertEqual(Deployment.objects.filter(export=export).count(), 1)

    def test_viewer_sees_no_button_and_is_refused(self) -> None:
        self.client.force_login(self.vera)
        zoo = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertNotContains(zoo, 'class="button small ready-deploy"')
        response, enqueue = self.deploy_as(self.vera)
        self.assertEqual(response.status_code, 403)
        enqueue.assert_not_called()
        self.assertFalse(ModelExport.objects.exists())

    def test_members_see_the_button_on_the_zoos_ready_models(self) -> None:
        self.client.force_login(self.bob)
        zoo = self.client.get(f"/workspaces/{self.workspace.slug}/models/")
        self.assertContains(zoo, f'action="{self.url}"')
        self.assertContains(zoo, 'data-ready="ppocr_v4"')
        layout = f"/workspaces/{self.workspace.slug}/ready-models/layout_cdla/deploy/"
        self.assertContains(zoo, f'action="{layout}"')

    def test_outsider_and_unknown_models_get_404(self) -> None:
        response, _ = self.deploy_as(self.charlie)
        self.assertEqual(response.status_code, 404)
        self.client.force_login(self.bob)
        unknown = f"/workspaces/{self.workspace.slug}/ready-models/nope/deploy/"
        self.assertEqual(self.client.post(unknown).status_code, 404)
        self.assertEqual(self.client.get(self.url).status_code, 405)
        self.assertFalse(ModelExport.objects.exists())
