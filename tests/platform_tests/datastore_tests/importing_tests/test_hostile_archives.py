"""Hostile zips are refused before a byte is written, with a message saying why."""

from __future__ import annotations

import os
import stat
import struct
import zipfile
from pathlib import Path

import pytest

from datastore.importing.limits import MIB, ImportLimits
from datastore.importing.problems import ImportRejected
from tests.platform_tests.datastore_tests.sample_images import digit, save


def png_bytes(tmp_path: Path) -> bytes:
    return save(digit(0)[0], tmp_path / "one.png").read_bytes()


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()} if folder.exists() else set()


def refused(run_import, archive: Path, **kwargs) -> ImportRejected:
    with pytest.raises(ImportRejected) as caught:
        run_import(archive, **kwargs)
    return caught.value


@pytest.mark.parametrize("name", ["../evil.png", "a/../../evil.png", "..\\evil.png"])
def test_it_refuses_entries_that_climb_out(tmp_path: Path, run_import, name: str) -> None:
    archive = tmp_path / "slip.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("fine.png", png_bytes(tmp_path))
        zf.writestr(name, png_bytes(tmp_path))
    error = refused(run_import, archive)
    assert "'..'" in error.reason and error.file == "slip.zip"
    assert not list(tmp_path.parent.rglob("evil.png"))
    assert files_under(tmp_path / "dataset" / "work" / "blobs") == set()


@pytest.mark.parametrize("name", ["/tmp/sampan-absolute.png", "C:/Windows/evil.png"])
def test_it_refuses_absolute_entries(tmp_path: Path, run_import, name: str) -> None:
    archive = tmp_path / "abs.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("placeholder.png")
        info.filename = name  # ZipInfo strips a leading slash; hostile tools do not
        zf.writestr(info, png_bytes(tmp_path))
    error = refused(run_import, archive)
    assert "absolute path" in error.reason
    assert not Path("/tmp/sampan-absolute.png").exists()


def test_it_refuses_symlink_entries(tmp_path: Path, run_import) -> None:
    archive = tmp_path / "link.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        info = zipfile.ZipInfo("passwords.png")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    error = refused(run_import, archive)
    assert "symbolic link" in error.reason


def test_it_refuses_a_zip_bomb_by_ratio(tmp_path: Path, run_import) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("zeros.png", b"\0" * (50 * MIB))
    assert archive.stat().st_size < MIB
    error = refused(run_import, archive)
    assert "zip bombs" in error.reason and "expands" in error.reason
    assert files_under(tmp_path / "dataset") == set()


def test_it_refuses_a_zip_bomb_by_total_size(tmp_path: Path, run_import) -> None:
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for i in range(4):
            zf.writestr(f"noise{i}.png", os.urandom(MIB))
    error = refused(run_import, archive, limits=ImportLimits(max_extracted_bytes=3 * MIB))
    assert "3 MiB" in error.reason
    assert files_under(tmp_path / "dataset") == set()


def test_it_refuses_an_archive_that_lies_about_sizes(tmp_path: Path, run_import) -> None:
    archive = tmp_path / "liar.zip"
    payload = png_bytes(tmp_path)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("a.png", payload)
    data = bytearray(archive.read_bytes())
    # Shrink the uncompressed size in the central directory: the real data is longer.
    central = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 10)
    archive.write_bytes(bytes(data))
    error = refused(run_import, archive)
    assert "could not be unpacked" in error.reason


def test_it_refuses_a_file_over_max_upload_bytes(tmp_path: Path, run_import) -> None:
    big = tmp_path / "big.png"
    big.write_bytes(os.urandom(2 * MIB))
    error = refused(run_import, [("big.png", big)], limits=ImportLimits(max_upload_bytes=MIB))
    assert "MAX_UPLOAD_BYTES" in error.reason


def test_it_refuses_a_file_that_is_not_a_zip(tmp_path: Path, run_import) -> None:
    fake = tmp_path / "photos.zip"
    fake.write_text("not a zip at all")
    error = refused(run_import, fake)
    assert "not a readable zip" in error.reason


def test_it_refuses_an_encrypted_zip_by_name(tmp_path: Path, run_import) -> None:
    archive = tmp_path / "secret.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.png", png_bytes(tmp_path))
    data = bytearray(archive.read_bytes())
    # Set the "encrypted" bit of the general purpose flags, as `zip -e` does, in both headers.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        struct.pack_into("<H", data, at, struct.unpack_from("<H", data, at)[0] | 0x1)
    archive.write_bytes(bytes(data))
    error = refused(run_import, archive)
    assert error.reason == (
        "The archive 'secret.zip' is encrypted (entry 'a.png' needs a password); "
        "Sampan cannot read encrypted zips."
    )
    assert "without a password" in error.fix and error.file == "secret.zip"
    assert files_under(tmp_path / "dataset") == set()
