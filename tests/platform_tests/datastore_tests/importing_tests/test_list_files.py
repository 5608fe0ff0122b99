from __future__ import annotations

from pathlib import Path

from datastore.importing.formats.base import Format
from tests.platform_tests.datastore_tests.sample_images import digit, save

NAMES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def write_paddlex(root: Path, count: int = 12) -> None:
    root.mkdir(parents=True)
    (root / "labels.txt").write_text("zero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n")
    lines = {"train_list.txt": [], "val_list.txt": []}
    for i in range(count):
        image, label = digit(i)
        save(image, root / "images" / f"{i}.png")
        lines["val_list.txt" if i % 4 == 0 else "train_list.txt"].append(f"images/{i}.png {label}")
    for name, rows in lines.items():
        (root / name).write_text("\n".join(rows) + "\n")


def test_it_reads_paddlex_list_files_with_splits(tmp_path: Path, run_import) -> None:
    write_paddlex(tmp_path / "src")
    prepared = run_import(tmp_path / "src")
    assert prepared.format == Format.LIST_FILE
    assert prepared.classes[:3] == ["zero", "one", "two"]
    by_source = {s.source: s for s in prepared.samples}
    assert by_source["images/0.png"].split == "val"
    assert by_source["images/1.png"].split == "train"
    assert by_source["images/1.png"].labels == [NAMES[digit(1)[1]]]


def test_it_reports_each_bad_line_with_its_number(tmp_path: Path, run_import) -> None:
    write_paddlex(tmp_path / "src", count=4)
    with open(tmp_path / "src" / "train_list.txt", "a") as handle:
        handle.write("images/missing.png 1\nimages/1.png 42\njust-one-field\n")
    prepared = run_import(tmp_path / "src")
    problems = {p.code: p for p in prepared.report.problems if p.file == "train_list.txt"}
    assert problems["missing_file"].where == "line 4"
    assert "images/missing.png" in problems["missing_file"].reason
    assert problems["unknown_class"].where == "line 5"
    assert "42" in problems["unknown_class"].reason
    assert "labels.txt" in problems["unknown_class"].fix
    assert problems["malformed_line"].where == "line 6"


def test_it_reads_multi_hot_multi_label_lines(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    root.mkdir()
    (root / "labels.txt").write_text("cat\ndog\nbird\n")
    save(digit(0)[0], root / "a.png")
    save(digit(1)[0], root / "b.png")
    (root / "train_list.txt").write_text("a.png 1,0,1\nb.png 1\n")
    prepared = run_import(root, multi_label=True)
    labels = {s.source: s.labels for s in prepared.samples}
    assert labels == {"a.png": ["cat", "bird"], "b.png": ["dog"]}
