from __future__ import annotations

from pathlib import Path

from datastore.importing.formats.base import Format
from tests.platform_tests.datastore_tests.sample_images import photos


def test_it_imports_flat_photos_unlabeled(tmp_path: Path, run_import, dataset_dir: Path) -> None:
    photos(tmp_path / "src")
    prepared = run_import(tmp_path / "src")
    assert prepared.format == Format.FLAT
    assert len(prepared.samples) == 6
    assert not any(s.labeled for s in prepared.samples)
    astronaut = next(s for s in prepared.samples if s.source == "astronaut.jpg")
    assert (astronaut.info.width, astronaut.info.height) == (512, 512)
    assert (dataset_dir / "samples" / astronaut.stored).exists()
    assert (dataset_dir / "thumbs" / astronaut.thumbnail).exists()


def test_a_user_can_force_flat_on_class_folders(tmp_path: Path, run_import) -> None:
    photos(tmp_path / "src" / "a", names=("coffee",))
    photos(tmp_path / "src" / "b", names=("rocket",))
    prepared = run_import(tmp_path / "src", fmt=Format.FLAT)
    assert prepared.format == Format.FLAT
    assert prepared.classes == []
    assert "chosen by you" in prepared.format_note
