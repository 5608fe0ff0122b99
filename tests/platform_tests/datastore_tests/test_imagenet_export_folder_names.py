"""The ImageNet-folders export names its folders safely, and labels.txt maps them back."""

from __future__ import annotations

import unicodedata
import zipfile

from datastore.importing.formats.class_folder_names import WINDOWS_DEVICES, read_labels_file
from tests.platform_tests.datastore_tests import awkward_names
from tests.platform_tests.datastore_tests.base import DatastoreTestCase
from tests.platform_tests.datastore_tests.exporting import export_archive


class ImagenetFolderNameTests(DatastoreTestCase):
    def test_no_entry_can_land_outside_the_folder_it_is_unzipped_in(self) -> None:
        version = awkward_names.classification_version(self)
        names = zipfile.ZipFile(
            export_archive(self, version.dataset, "imagenet", version)
        ).namelist()
        self.assertIn("labels.txt", names)
        for name in names:
            self.assertFalse(name.startswith("/") or "\\" in name or ":" in name, name)
            for part in name.split("/"):
                self.assertNotIn(part, ("", ".", ".."), name)
                self.assertEqual(part, part.strip(" ."), name)
                self.assertFalse(any(unicodedata.category(c) == "Cc" for c in part), name)
                self.assertNotIn(part.split(".")[0].upper(), WINDOWS_DEVICES, name)
                self.assertLessEqual(len(part.encode()), 255, name)

    def test_each_class_has_a_folder_of_its_own_named_in_labels_txt(self) -> None:
        version = awkward_names.classification_version(self)
        archive = zipfile.ZipFile(export_archive(self, version.dataset, "imagenet", version))
        mapping = read_labels_file(archive.read("labels.txt").decode())
        self.assertEqual(sorted(mapping.values()), sorted(awkward_names.AWKWARD_NAMES))
        self.assertEqual(len({folder.casefold() for folder in mapping}), len(mapping))
        folders = {name.split("/")[-2] for name in archive.namelist() if name != "labels.txt"}
        self.assertEqual(folders, set(mapping))
        self.assertEqual(mapping["a_b"], "a/b")
        self.assertEqual(mapping["a_b_2"], "a:b")
        self.assertEqual(mapping["CON_"], "CON")
        self.assertEqual(mapping["train_"], "train")
