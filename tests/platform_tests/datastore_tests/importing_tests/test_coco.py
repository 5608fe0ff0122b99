from __future__ import annotations

import json
from pathlib import Path

import pytest

from datastore.importing.formats.base import Format
from datastore.importing.problems import ImportRejected
from tests.platform_tests.datastore_tests.sample_images import photo, save


def write_coco(root: Path, annotations: list[dict] | None = None) -> None:
    save(photo("astronaut"), root / "images" / "astronaut.jpg")
    save(photo("coffee"), root / "images" / "coffee.jpg")
    data = {
        "images": [
            {"id": 1, "file_name": "astronaut.jpg", "width": 512, "height": 512},
            {"id": 2, "file_name": "coffee.jpg", "width": 600, "height": 400},
        ],
        "categories": [{"id": 1, "name": "person"}, {"id": 7, "name": "cup"}],
        "annotations": annotations
        if annotations is not None
        else [
            {"id": 1, "image_id": 1, "category_id": 1, "bbox": [100, 20, 300, 480]},
            {"id": 2, "image_id": 2, "category_id": 7, "bbox": [150, 50, 300, 250]},
        ],
    }
    (root / "annotations").mkdir(parents=True, exist_ok=True)
    (root / "annotations" / "instances_train.json").write_text(json.dumps(data))


def test_it_reads_coco_boxes_and_categories(tmp_path: Path, run_import) -> None:
    write_coco(tmp_path / "src")
    prepared = run_import(tmp_path / "src", detection=True)
    assert prepared.format == Format.COCO
    assert prepared.classes == ["person", "cup"]
    by_source = {s.source: s for s in prepared.samples}
    coffee = by_source["images/coffee.jpg"]
    assert [(b.label, b.x, b.y, b.w, b.h) for b in coffee.boxes] == [("cup", 150, 50, 300, 250)]
    assert coffee.split == "train"


def test_it_points_to_the_field_of_each_bad_annotation(tmp_path: Path, run_import) -> None:
    write_coco(
        tmp_path / "src",
        [
            {"image_id": 1, "category_id": 99, "bbox": [0, 0, 10, 10]},
            {"image_id": 1, "category_id": 1, "bbox": [0, 0, "wide"]},
            {"image_id": 2, "category_id": 7, "bbox": [10, 10, 0, 50]},
            {"image_id": 2, "category_id": 7, "bbox": [550, 350, 100, 100]},
        ],
    )
    prepared = run_import(tmp_path / "src", detection=True)
    found = {(p.code, p.where) for p in prepared.report.problems}
    assert ("unknown_class", "annotations[0].category_id") in found
    assert ("malformed_field", "annotations[1].bbox") in found
    assert ("box_zero_area", "annotations[2].bbox") in found
    assert ("box_outside_image", "annotations[3].bbox") in found
    coffee = next(s for s in prepared.samples if s.source.endswith("coffee.jpg"))
    assert [(b.x, b.y, b.w, b.h) for b in coffee.boxes] == [(550, 350, 50, 50)]  # clipped
    assert "box_outside_image" in coffee.problems


def test_it_rejects_coco_json_that_does_not_parse(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(photo("coffee"), root / "coffee.jpg")
    (root / "coco.json").write_text('{"images": [], "annotations": [}')
    with pytest.raises(ImportRejected):
        run_import(root, detection=True, fmt=Format.COCO)


def test_it_refuses_coco_labels_for_a_classification_dataset(tmp_path: Path, run_import) -> None:
    write_coco(tmp_path / "src")
    with pytest.raises(ImportRejected) as caught:
        run_import(tmp_path / "src")
    assert "classification" in caught.value.reason


def test_it_reports_coco_sections_that_are_not_lists(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    write_coco(root)
    path = root / "annotations" / "instances_train.json"
    data = json.loads(path.read_text())
    data["annotations"] = "x" * 100_000  # iterated, each letter would be a problem of its own
    data["images"].append({"id": [1], "file_name": "coffee.jpg"})
    path.write_text(json.dumps(data))
    prepared = run_import(root, detection=True)
    problems = [(p.code, p.where) for p in prepared.report.problems if p.file.endswith(".json")]
    assert ("malformed_field", "annotations") in problems
    assert ("malformed_field", "images[2]") in problems
    assert len(problems) < 10


def test_it_rejects_json_with_a_number_too_long_to_read(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(photo("coffee"), root / "coffee.jpg")
    (root / "coco.json").write_text('{"images": [], "annotations": [], "x": ' + "9" * 5000 + "}")
    with pytest.raises(ImportRejected) as caught:
        run_import(root, detection=True, fmt=Format.COCO)
    assert caught.value.reason == "The file holds a number of more than 4,300 digits."
    assert caught.value.file == "coco.json"
