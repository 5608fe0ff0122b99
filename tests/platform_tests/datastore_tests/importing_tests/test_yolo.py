from __future__ import annotations

from pathlib import Path

import pytest

from datastore.importing.formats.base import Format
from tests.platform_tests.datastore_tests.sample_images import photo, save


def write_yolo(root: Path, lines: str = "0 0.5 0.5 0.5 0.25\n1 0.25 0.25 0.1 0.1\n") -> None:
    save(photo("astronaut"), root / "images" / "train" / "astronaut.jpg")
    save(photo("camera"), root / "images" / "val" / "camera.png")
    (root / "labels" / "train").mkdir(parents=True)
    (root / "labels" / "val").mkdir(parents=True)
    (root / "labels" / "train" / "astronaut.txt").write_text(lines)
    (root / "labels" / "val" / "camera.txt").write_text("")
    (root / "data.yaml").write_text("names:\n  0: person\n  1: patch\n")


def test_it_reads_yolo_labels_from_a_parallel_folder(tmp_path: Path, run_import) -> None:
    write_yolo(tmp_path / "src")
    prepared = run_import(tmp_path / "src", detection=True)
    assert prepared.format == Format.YOLO
    assert prepared.classes == ["person", "patch"]
    by_source = {s.source: s for s in prepared.samples}
    astronaut = by_source["images/train/astronaut.jpg"]
    assert [(b.label, b.x, b.y, b.w, b.h) for b in astronaut.boxes] == [
        ("person", 128, 192, 256, 128),
        (
            "patch",
            pytest.approx(102.4),
            pytest.approx(102.4),
            pytest.approx(51.2),
            pytest.approx(51.2),
        ),
    ]
    assert astronaut.split == "train"
    camera = by_source["images/val/camera.png"]
    assert camera.labeled and camera.boxes == [] and camera.split == "val"


def test_it_reports_bad_yolo_lines(tmp_path: Path, run_import) -> None:
    write_yolo(
        tmp_path / "src", "0 0.5 0.5\n5 0.5 0.5 0.1 0.1\n0 1.5 1.5 0.2 0.2\n0 0.5 0.5 0 0.3\n"
    )
    (tmp_path / "src" / "labels" / "train" / "ghost.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    prepared = run_import(tmp_path / "src", detection=True)
    found = {(p.code, p.file, p.where) for p in prepared.report.problems}
    label_file = "labels/train/astronaut.txt"
    assert ("malformed_line", label_file, "line 1") in found
    assert ("unknown_class", label_file, "line 2") in found
    assert ("box_outside_image", label_file, "line 3") in found
    assert ("box_zero_area", label_file, "line 4") in found
    assert ("missing_file", "labels/train/ghost.txt", "") in found


def test_it_refuses_yaml_class_names_that_are_not_plain_text(tmp_path: Path, run_import) -> None:
    write_yolo(tmp_path / "src")
    # Each level holds the one below nine times: str() of the last would be 9**9 items long.
    levels = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)
    ]
    (tmp_path / "src" / "data.yaml").write_text("\n".join(levels) + "\nnames: [*a8, patch]\n")
    prepared = run_import(tmp_path / "src", detection=True)
    refused = next(p for p in prepared.report.problems if p.file == "data.yaml")
    assert (refused.code, refused.where) == ("malformed_field", "names")
    assert prepared.classes == ["0", "1"]  # classes are named by their numbers instead


def test_it_reports_yaml_nested_too_deeply(tmp_path: Path, run_import) -> None:
    write_yolo(tmp_path / "src")
    (tmp_path / "src" / "data.yaml").write_text("names: " + "[" * 5000 + "]" * 5000)
    prepared = run_import(tmp_path / "src", detection=True)
    refused = next(p for p in prepared.report.problems if p.file == "data.yaml")
    assert refused.reason == "The YAML cannot be read: it is nested too deeply."


def test_it_reports_yaml_with_a_number_too_long_to_read(tmp_path: Path, run_import) -> None:
    write_yolo(tmp_path / "src")
    (tmp_path / "src" / "data.yaml").write_text("names: [" + "9" * 5000 + "]")
    prepared = run_import(tmp_path / "src", detection=True)
    refused = next(p for p in prepared.report.problems if p.file == "data.yaml")
    assert refused.reason == (
        "The YAML cannot be read: a value in it cannot be converted "
        "(Exceeds the limit (4300 digits) for integer string conversion)."
    )
