"""Every image is opened, checked and decoded in full; bad ones are reported and left out."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from PIL import Image

from datastore.importing.limits import ImportLimits
from tests.platform_tests.datastore_tests.sample_images import digit, photo, save


def png_header_only(width: int, height: int) -> bytes:
    """A tiny PNG that declares an enormous size: the shape of a decompression bomb."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def problem_for(prepared, name: str):
    return next(p for p in prepared.report.problems if p.file == name)


def test_it_rejects_decompression_bombs(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "pillow_guard.png").write_bytes(png_header_only(50_000, 50_000))
    (root / "our_limit.png").write_bytes(png_header_only(10_000, 9_000))
    save(digit(0)[0], root / "fine.png")
    prepared = run_import(root)
    assert [s.source for s in prepared.samples] == ["fine.png"]
    for name in ("pillow_guard.png", "our_limit.png"):
        problem = problem_for(prepared, name)
        assert problem.code == "image_too_large"
        assert "decompression bomb" in problem.reason or "memory" in problem.reason


def test_it_applies_the_pixel_limit_from_settings(tmp_path: Path, run_import) -> None:
    save(photo("coffee"), tmp_path / "src" / "coffee.jpg")
    prepared = run_import(tmp_path / "src", limits=ImportLimits(max_image_pixels=100_000))
    assert "600x400" in problem_for(prepared, "coffee.jpg").reason


def test_it_rejects_non_images_named_like_images(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "notes.jpg").write_text("these are my notes, not a photo")
    (root / "page.png").write_text("<!doctype html><html><body>404</body></html>")
    (root / "empty.jpg").write_bytes(b"")
    save(digit(0)[0], root / "fine.png")
    prepared = run_import(root)
    assert [s.source for s in prepared.samples] == ["fine.png"]
    assert problem_for(prepared, "notes.jpg").reason == "The file holds plain text, not an image."
    assert "HTML" in problem_for(prepared, "page.png").reason
    assert problem_for(prepared, "empty.jpg").reason == "The file is empty."
    assert {problem_for(prepared, n).code for n in ("notes.jpg", "page.png")} == {"not_an_image"}


def test_it_rejects_truncated_images(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    whole = save(photo("astronaut"), root / "whole.jpg").read_bytes()
    (root / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    png = save(photo("coins"), tmp_path / "coins.png").read_bytes()
    (root / "cut.png").write_bytes(png[: len(png) // 2])
    prepared = run_import(root)
    assert [s.source for s in prepared.samples] == ["whole.jpg"]
    for name in ("cut.jpg", "cut.png"):
        problem = problem_for(prepared, name)
        assert problem.code == "image_corrupt"
        assert "cut short" in problem.reason and "Re-export" in problem.fix


def test_it_rejects_too_small_and_unsupported_images(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(digit(0, size=8)[0], root / "tiny.png")
    save(photo("chelsea"), root / "cat.gif")
    prepared = run_import(root)
    assert prepared.samples == []
    assert problem_for(prepared, "tiny.png").code == "image_too_small"
    assert "8x8" in problem_for(prepared, "tiny.png").reason
    assert problem_for(prepared, "cat.gif").code == "unsupported_format"
    assert "PNG or JPEG" in problem_for(prepared, "cat.gif").fix


def test_it_names_stored_files_by_their_real_format(
    tmp_path: Path, run_import, dataset_dir
) -> None:
    save(photo("rocket"), tmp_path / "src" / "really_a.png")
    (tmp_path / "src" / "really_a.png").rename(tmp_path / "src" / "named.jpg")
    prepared = run_import(tmp_path / "src")
    assert prepared.samples[0].stored.endswith(".png")
    assert prepared.samples[0].info.format == "PNG"


def test_it_writes_small_thumbnails_and_hashes(
    tmp_path: Path, run_import, dataset_dir: Path
) -> None:
    save(photo("hubble_deep_field"), tmp_path / "src" / "sky.jpg")
    save(photo("logo"), tmp_path / "src" / "logo.png")  # RGBA gets a white background
    prepared = run_import(tmp_path / "src")
    for sample in prepared.samples:
        with Image.open(dataset_dir / "thumbs" / sample.thumbnail) as thumb:
            assert max(thumb.size) == 160 and thumb.mode == "RGB"
        assert len(sample.info.content_hash) == 64
        assert len(sample.info.perceptual_hash) == 32
