"""An import that added nothing, or left files out, says so: its outcome and the reasons,
in the API and on the import page, never a green "Imported 0 images" (issue 23)."""

from __future__ import annotations

import zipfile

from datastore.models import ImportJob
from tests.platform_tests.datastore_tests import sample_images
from tests.platform_tests.datastore_tests.base import DatastoreTestCase


class ImportOutcomeTests(DatastoreTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.dataset = self.make_dataset()
        self.files = self.folder("files")

    def import_one(self, name: str, data: bytes) -> ImportJob:
        path = self.files / name
        path.write_bytes(data)
        return self.import_files(self.dataset, [(name, path)])

    def empty_zip(self) -> bytes:
        path = self.files / "made.zip"
        zipfile.ZipFile(path, "w").close()
        return path.read_bytes()

    def read(self, user, job: ImportJob):
        return self.api_client_for(user).get(f"/api/imports/{job.pk}/")

    def test_a_non_image_upload_imports_nothing_and_says_why(self) -> None:
        job = self.import_one("notes.txt", b"hello")
        body = self.read(self.bob, job).json()
        self.assertEqual((body["status"], body["samples_added"]), ("succeeded", 0))
        self.assertEqual(body["outcome"], "nothing_imported")
        self.assertEqual(len(body["outcome_reasons"]), 1)
        self.assertIn("no images", body["outcome_reasons"][0])
        self.assertIn("'notes.txt'", body["outcome_reasons"][0])
        self.assertEqual(body["report"]["by_code"], {"no_images": 1})

    def test_an_empty_zip_imports_nothing_and_says_why(self) -> None:
        job = self.import_one("empty.zip", self.empty_zip())
        body = self.read(self.alice, job).json()
        self.assertEqual(body["outcome"], "nothing_imported")
        self.assertIn("the zip or folder is empty", body["outcome_reasons"][0])

    def test_a_broken_image_beside_good_ones_is_a_partial_import(self) -> None:
        folder = self.folder("mixed")
        sample_images.class_folders(folder, labels=(0,), per_class=2)
        (folder / "0" / "broken.png").write_bytes(b"not a png")
        job = self.import_folder(self.dataset, folder)
        body = self.read(self.bob, job).json()
        self.assertEqual((body["outcome"], body["samples_added"]), ("partly_imported", 2))
        self.assertEqual(len(body["outcome_reasons"]), 1)
        self.assertTrue(body["outcome_reasons"][0].startswith("0/broken.png: "))

    def test_only_duplicates_import_nothing_with_the_warning_as_reason(self) -> None:
        folder = self.folder("digits")
        sample_images.class_folders(folder, labels=(0,), per_class=2)
        self.assertEqual(self.import_folder(self.dataset, folder).outcome, "imported")
        again = self.import_folder(self.dataset, folder)
        self.assertEqual(again.outcome, "nothing_imported")
        self.assertEqual(len(again.outcome_reasons), 2)
        self.assertIn("already holds this exact image", again.outcome_reasons[0])

    def test_many_errors_show_the_first_few_and_count_the_rest(self) -> None:
        files = []
        for i in range(5):
            path = self.files / f"bad{i}.png"
            path.write_bytes(b"not a png")
            files.append((path.name, path))
        job = self.import_files(self.dataset, files)
        self.assertEqual(job.outcome, "nothing_imported")
        self.assertEqual(len(job.outcome_reasons), ImportJob.REASONS_SHOWN + 1)
        self.assertEqual(job.outcome_reasons[-1], "… and 2 more in the report.")

    def test_a_clean_import_has_no_reasons(self) -> None:
        job = self.import_digits(self.dataset, labels=(0, 1), per_class=2)
        body = self.read(self.vera, job).json()
        self.assertEqual((body["outcome"], body["outcome_reasons"]), ("imported", []))

    def test_the_list_carries_the_outcome_for_everyone_in_the_workspace(self) -> None:
        self.import_one("notes.txt", b"hello")
        url = f"/api/datasets/{self.dataset.pk}/imports/"
        for user in (self.alice, self.bob, self.vera):
            results = self.api_client_for(user).get(url).json()["results"]
            self.assertEqual([r["outcome"] for r in results], ["nothing_imported"])

    def test_an_outsider_gets_404(self) -> None:
        job = self.import_one("notes.txt", b"hello")
        self.assertEqual(self.read(self.charlie, job).status_code, 404)
        url = f"/api/datasets/{self.dataset.pk}/imports/"
        self.assertEqual(self.api_client_for(self.charlie).get(url).status_code, 404)

    def test_the_import_page_lists_it_as_nothing_imported_with_the_reason(self) -> None:
        self.import_one("empty.zip", self.empty_zip())
        self.client.force_login(self.bob)
        page = self.client.get(f"/datasets/{self.dataset.pk}/import/")
        self.assertContains(page, 'data-outcome="nothing_imported"')
        self.assertContains(page, "Nothing imported")
        self.assertContains(page, "the zip or folder is empty")
        self.assertNotContains(page, "Succeeded")
