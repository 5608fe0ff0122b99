"""Every datastore and labeling endpoint: readers read, members write, outsiders get 404.

The outsider (charlie) is signed in and owns a workspace of his own; every object of Alice's
workspace must look to him as if it did not exist. A token scoped to another workspace is an
outsider too.
"""

from __future__ import annotations

import io
from typing import Any

from core.scoping import Role
from datastore.models import DatasetVersion, ExportJob, ImportJob, UploadSession
from datastore.services.versions import freeze_version
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class ApiAccessTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.job = self.import_digits(self.dataset, labels=(0, 1), per_class=2)
        self.sample = self.dataset.samples.first()
        self.label_class = self.dataset.classes.first()
        self.version = freeze_version(self.dataset, user=self.alice, method="folders")
        self.export = ExportJob.objects.create(dataset=self.dataset, format="csv")
        self.upload_session = UploadSession.objects.create(dataset=self.dataset)
        self.upload_file = self.upload_session.add_files([("a.png", 3)])[0]

    def reads(self) -> list[str]:
        d, s = self.dataset.pk, self.sample.pk
        return [
            f"/api/workspaces/{self.workspace.slug}/datasets/",
            f"/api/datasets/{d}/",
            f"/api/datasets/{d}/classes/",
            f"/api/classes/{self.label_class.pk}/",
            f"/api/datasets/{d}/statistics/",
            f"/api/datasets/{d}/samples/",
            f"/api/samples/{s}/",
            f"/api/samples/{s}/image/",
            f"/api/samples/{s}/thumbnail/",
            f"/api/datasets/{d}/uploads/",
            f"/api/uploads/{self.upload_session.pk}/",
            f"/api/datasets/{d}/imports/",
            f"/api/imports/{self.job.pk}/",
            f"/api/datasets/{d}/versions/",
            f"/api/versions/{self.version.pk}/",
            f"/api/versions/{self.version.pk}/items/",
            f"/api/datasets/{d}/label-exports/",
            f"/api/label-exports/{self.export.pk}/",
        ]

    def writes(self) -> list[tuple[str, str, Any]]:
        d, s, c = self.dataset.pk, self.sample.pk, self.label_class.pk
        u, f = self.upload_session.pk, self.upload_file.pk
        return [
            (
                "post",
                f"/api/workspaces/{self.workspace.slug}/datasets/",
                {"name": "New", "task_type": "detection"},
            ),
            ("patch", f"/api/datasets/{d}/", {"description": "changed"}),
            (
                "post",
                f"/api/datasets/{d}/classes/order/",
                {"class_ids": list(self.dataset.classes.values_list("id", flat=True))},
            ),
            ("post", f"/api/datasets/{d}/classes/", {"name": "seven"}),
            ("patch", f"/api/classes/{c}/", {"color": "#123456"}),
            (
                "post",
                f"/api/datasets/{d}/classes/changes/",
                {"operation": "delete", "source": c, "preview": True},
            ),
            ("post", f"/api/datasets/{d}/uploads/", {}),
            ("post", f"/api/uploads/{u}/files/", {"files": [{"name": "b.png", "size": 0}]}),
            ("put", f"/api/uploads/{u}/files/{f}/", b"abc"),
            ("post", f"/api/uploads/{u}/import/", {"format": ""}),
            ("post", f"/api/datasets/{d}/versions/", {"split_method": "folders"}),
            ("post", f"/api/datasets/{d}/label-exports/", {"format": "csv"}),
            ("post", f"/api/datasets/{d}/claim/", {"after": 0}),
            ("put", f"/api/samples/{s}/labels/", {"revision": 0, "class_ids": [c]}),
            ("post", f"/api/datasets/{d}/labels/bulk/", {"sample_ids": [s], "class_id": c}),
        ]

    def send(self, client: Any, method: str, url: str, body: Any) -> Any:
        if isinstance(body, bytes):
            return client.generic(
                method.upper(), url, body, "application/octet-stream", HTTP_UPLOAD_OFFSET="0"
            )
        return getattr(client, method)(url, body, format="json")

    def test_an_outsider_gets_404_everywhere(self) -> None:
        client = self.api_client_for(self.charlie)
        for url in self.reads():
            with self.subTest(url=url):
                self.assertEqual(client.get(url).status_code, 404)
        for method, url, body in self.writes():
            with self.subTest(method=method, url=url):
                self.assertEqual(self.send(client, method, url, body).status_code, 404)
        self.assertEqual(client.delete(f"/api/datasets/{self.dataset.pk}/").status_code, 404)
        self.assertEqual(
            client.get(f"/api/label-exports/{self.export.pk}/download/").status_code, 404
        )

    def test_a_token_of_another_workspace_is_an_outsider(self) -> None:
        self.charlies_workspace.add_member(self.alice, Role.MEMBER)
        client, _token = self.token_client_for(self.alice, self.charlies_workspace)
        for url in self.reads()[:6]:
            with self.subTest(url=url):
                self.assertEqual(client.get(url).status_code, 404)

    def charlies_workspace_for_alice(self) -> Any:
        self.charlies_workspace.add_member(
            self.alice, self.charlies_workspace.memberships.model.Role.MEMBER
        )
        return self.charlies_workspace

    def test_owner_member_and_viewer_read_everything(self) -> None:
        for user in (self.alice, self.bob, self.vera):
            client = self.api_client_for(user)
            for url in self.reads():
                with self.subTest(user=user.username, url=url):
                    self.assertEqual(client.get(url).status_code, 200)

    def test_a_viewer_cannot_write(self) -> None:
        client = self.api_client_for(self.vera)
        for method, url, body in self.writes():
            with self.subTest(method=method, url=url):
                self.assertEqual(self.send(client, method, url, body).status_code, 403)

    def test_a_member_can_write(self) -> None:
        client = self.api_client_for(self.bob)
        for method, url, body in self.writes():
            with self.subTest(method=method, url=url):
                response = self.send(client, method, url, body)
                self.assertIn(response.status_code, (200, 201, 202, 204), response.content)

    def test_a_member_cannot_delete_a_dataset_but_an_admin_can(self) -> None:
        url = f"/api/datasets/{self.dataset.pk}/"
        self.assertEqual(self.api_client_for(self.bob).delete(url).status_code, 403)
        folder = self.media_root / self.dataset.storage_prefix
        self.assertTrue(folder.exists())
        with self.captureOnCommitCallbacks(execute=True):
            self.assertEqual(self.api_client_for(self.adam).delete(url).status_code, 204)
        self.assertFalse(folder.exists())
        self.assertFalse(DatasetVersion.objects.exists())
        self.assertFalse(ImportJob.objects.exists())

    def test_a_token_in_the_workspace_works(self) -> None:
        client, _token = self.token_client_for(self.bob)
        response = client.get(f"/api/datasets/{self.dataset.pk}/samples/")
        self.assertEqual(response.json()["count"], 4)
        chunk = client.generic(
            "PUT",
            f"/api/uploads/{self.upload_session.pk}/files/{self.upload_file.pk}/",
            io.BytesIO(b"abc").read(),
            "application/octet-stream",
        )
        self.assertEqual(chunk.json()["received"], 3)
