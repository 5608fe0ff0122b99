from __future__ import annotations

from pathlib import Path

import pytest

from datastore.importing.formats.base import Format
from datastore.importing.problems import ImportRejected
from tests.platform_tests.datastore_tests.sample_images import digit, photo, save


def test_it_reads_a_classification_csv(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    rows = ["filename,label,split"]
    for i in range(6):
        image, label = digit(i)
        save(image, root / "img" / f"{i}.png")
        rows.append(f"img/{i}.png,{label},{'val' if i == 5 else 'train'}")
    (root / "labels.csv").write_text("\n".join(rows))
    prepared = run_import(root)
    assert prepared.format == Format.CSV
    by_source = {s.source: s for s in prepared.samples}
    assert by_source["img/3.png"].labels == [str(digit(3)[1])]
    assert by_source["img/5.png"].split == "val"


def test_it_reads_multi_labels_separated_by_semicolons(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(photo("chelsea"), root / "chelsea.jpg")
    (root / "tags.csv").write_text('image,tags\nchelsea.jpg,"cat;indoor"\n')
    prepared = run_import(root, multi_label=True)
    assert prepared.samples[0].labels == ["cat", "indoor"]


def test_it_reads_detection_boxes_one_row_each(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(photo("astronaut"), root / "astronaut.jpg")
    (root / "boxes.csv").write_text(
        "filename,label,xmin,ymin,xmax,ymax\n"
        "astronaut.jpg,face,170,30,290,190\n"
        "astronaut.jpg,flag,0,0,100,200\n"
        "astronaut.jpg,face,1,2,three,4\n"
    )
    prepared = run_import(root, detection=True)
    boxes = prepared.samples[0].boxes
    assert [(b.label, b.x, b.y, b.w, b.h) for b in boxes] == [
        ("face", 170, 30, 120, 160),
        ("flag", 0, 0, 100, 200),
    ]
    bad = next(p for p in prepared.report.problems if p.code == "malformed_line")
    assert (bad.file, bad.where) == ("boxes.csv", "line 4")


def test_it_rejects_a_csv_without_a_file_column(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(digit(0)[0], root / "a.png")
    (root / "labels.csv").write_text("picture,label\na.png,0\n")
    with pytest.raises(ImportRejected) as caught:
        run_import(root)
    assert "picture, label" in caught.value.reason
    assert "filename" in caught.value.fix


def test_it_rejects_a_csv_with_a_quote_left_open(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(digit(0)[0], root / "a.png")
    rows = ["filename,label", "a.png,0", 'a.png,"0'] + ["more text, no closing quote"] * 10_000
    (root / "labels.csv").write_text("\n".join(rows))
    with pytest.raises(ImportRejected) as caught:
        run_import(root)
    assert caught.value.file == "labels.csv"
    assert "cannot be read at line" in caught.value.reason
    assert "field larger than field limit" in caught.value.reason
    assert "quote" in caught.value.fix


def test_it_rejects_a_class_name_too_long_for_the_dataset(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(digit(0)[0], root / "a.png")
    (root / "labels.csv").write_text(f"filename,label\na.png,{'x' * 101}\n")
    with pytest.raises(ImportRejected) as caught:
        run_import(root)
    assert "has 101 characters; a class name may have at most 100" in caught.value.reason
