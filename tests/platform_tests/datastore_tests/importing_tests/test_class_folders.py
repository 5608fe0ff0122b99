from __future__ import annotations

from pathlib import Path

from datastore.importing.formats.base import Format
from tests.platform_tests.datastore_tests.sample_images import (
    class_folders,
    digit,
    save,
    zip_folder,
)


def test_it_reads_classes_from_folder_names(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src", labels=(3, 5, 7), per_class=4)
    prepared = run_import(tmp_path / "src")
    assert prepared.format == Format.CLASS_FOLDERS
    assert prepared.classes == ["3", "5", "7"]
    assert len(prepared.samples) == 12
    assert {s.source.split("/")[0]: s.labels for s in prepared.samples}["5"] == ["5"]
    assert all(s.labeled for s in prepared.samples)


def test_it_takes_the_split_from_split_folders(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src" / "train", labels=(0, 1), per_class=3)
    class_folders(tmp_path / "src" / "val", labels=(0, 1), per_class=1)
    prepared = run_import(tmp_path / "src")
    splits = sorted(s.split for s in prepared.samples)
    assert splits == ["train"] * 6 + ["val"] * 2
    assert prepared.classes == ["0", "1"]


def test_it_reads_class_folders_from_a_zip_with_a_wrapping_folder(
    tmp_path: Path, run_import
) -> None:
    class_folders(tmp_path / "src" / "digits", labels=(1, 2), per_class=2, ext=".jpg")
    archive = zip_folder(tmp_path / "src", tmp_path / "digits.zip")
    prepared = run_import(archive)
    assert prepared.format == Format.CLASS_FOLDERS
    assert sorted(s.labels[0] for s in prepared.samples) == ["1", "1", "2", "2"]
    assert all(s.stored.endswith(".jpg") for s in prepared.samples)


def test_it_warns_about_images_outside_class_folders(tmp_path: Path, run_import) -> None:
    class_folders(tmp_path / "src", labels=(0, 1), per_class=2)
    save(digit(50)[0], tmp_path / "src" / "loose.png")
    prepared = run_import(tmp_path / "src")
    loose = [p for p in prepared.report.problems if p.file == "loose.png"]
    assert [p.code for p in loose] == ["unlabeled_image"]
    assert "class folder" in loose[0].reason


def test_it_takes_class_names_from_labels_txt(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    for folder, index in (("a_b", 0), ("CON_", 1), ("plain", 2)):
        save(digit(index)[0], root / "train" / folder / f"{index}.png")
    (root / "labels.txt").write_text("a_b\ta/b\nCON_\tCON\nunused\tno images\n")
    prepared = run_import(root)
    assert prepared.format == Format.CLASS_FOLDERS
    labels = {s.source: s.labels for s in prepared.samples}
    assert labels == {
        "train/a_b/0.png": ["a/b"],
        "train/CON_/1.png": ["CON"],
        "train/plain/2.png": ["plain"],
    }
    assert prepared.classes == ["a/b", "CON", "no images", "plain"]
