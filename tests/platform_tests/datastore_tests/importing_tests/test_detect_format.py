from __future__ import annotations

from pathlib import Path

import pytest

from datastore.importing.formats.base import Format
from datastore.importing.problems import ImportRejected
from tests.platform_tests.datastore_tests.sample_images import class_folders, digit, photos, save


def test_it_says_why_it_chose_a_format(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src", labels=(0, 1), per_class=1)
    prepared = run_import(tmp_path / "src")
    assert prepared.format_note == "Found images sorted into one folder per class."


def test_class_folders_are_flat_images_for_detection(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src", labels=(0, 1), per_class=1)
    prepared = run_import(tmp_path / "src", detection=True)
    assert prepared.format == Format.FLAT


def test_one_wrapping_folder_is_not_a_class(tmp_path: Path, run_import) -> None:
    photos(tmp_path / "src" / "holiday", names=("coffee", "chelsea"))
    assert run_import(tmp_path / "src").format == Format.FLAT


def test_a_chosen_format_without_its_label_files_is_refused(tmp_path: Path, run_import) -> None:
    save(digit(0)[0], tmp_path / "src" / "a.png")
    with pytest.raises(ImportRejected) as caught:
        run_import(tmp_path / "src", detection=True, fmt=Format.VOC)
    assert "No Pascal VOC XML label files" in caught.value.reason
