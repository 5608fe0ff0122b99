"""Unicode names are kept (normalized); names with control characters are left out, reported."""

from __future__ import annotations

import unicodedata
import zipfile
from pathlib import Path

from tests.platform_tests.datastore_tests.sample_images import digit, save

NAMES = {
    "猫/ñandú 🐱.png": "kept",
    "cafe\u0301/x.png": "kept",  # decomposed é, as macOS writes it
    "evil\u202egnp.png": "odd",  # right-to-left override hides the real extension
    "line\nbreak.png": "odd",
    "tab\there.png": "odd",
}


def test_it_keeps_unicode_names_and_reports_control_characters(
    tmp_path: Path, run_import, dataset_dir: Path
) -> None:
    image = save(digit(0)[0], tmp_path / "digit.png").read_bytes()
    archive = tmp_path / "names.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name in NAMES:
            zf.writestr(name, image)
    prepared = run_import(archive)
    sources = sorted(s.source for s in prepared.samples)
    assert sources == sorted(["猫/ñandú 🐱.png", unicodedata.normalize("NFC", "café/x.png")])
    odd = [p for p in prepared.report.problems if p.code == "odd_filename"]
    assert len(odd) == 3
    assert all("control character" in p.reason and p.where == "in names.zip" for p in odd)
    assert all(p.file.isascii() for p in odd)  # the name is shown escaped, not raw
    stored = [p.name for p in (dataset_dir / "samples").iterdir()]
    assert all(name.isascii() for name in stored)


def test_plain_uploads_with_odd_names_are_checked_too(tmp_path: Path, run_import) -> None:
    local = save(digit(1)[0], tmp_path / "x.png")
    prepared = run_import([("ok/ünïcode.png", local), ("bad\x00name.png", local)])
    assert [s.source for s in prepared.samples] == ["ok/ünïcode.png"]
    assert [p.code for p in prepared.report.problems if p.severity == "error"] == ["odd_filename"]
