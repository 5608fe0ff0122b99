"""Label files over the size limit, and JSON nested too deep, refuse the import by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datastore.importing.limits import ImportLimits
from datastore.importing.problems import ImportRejected
from tests.platform_tests.datastore_tests.importing_tests.test_coco import write_coco
from tests.platform_tests.datastore_tests.sample_images import digit, save

LIMIT = 4096


def padded_coco(root: Path, size: int) -> Path:
    """A valid COCO file of exactly `size` bytes (padded with spaces, which JSON ignores)."""
    write_coco(root)
    path = root / "annotations" / "instances_train.json"
    text = path.read_text()
    path.write_text(text + " " * (size - len(text)))
    return path


def refusal(run_import, source: Path, **kwargs) -> ImportRejected:
    with pytest.raises(ImportRejected) as caught:
        run_import(source, **kwargs)
    return caught.value


def test_it_accepts_a_label_json_at_the_size_limit(tmp_path: Path, run_import) -> None:
    padded_coco(tmp_path / "src", LIMIT)
    limits = ImportLimits(min_samples_per_class=1, max_label_file_bytes=LIMIT)
    assert len(run_import(tmp_path / "src", detection=True, limits=limits).samples) == 2


def test_it_rejects_a_label_json_just_over_the_size_limit(
    tmp_path: Path, run_import, dataset_dir: Path
) -> None:
    padded_coco(tmp_path / "src", LIMIT + 1)
    limits = ImportLimits(min_samples_per_class=1, max_label_file_bytes=LIMIT)
    error = refusal(run_import, tmp_path / "src", detection=True, limits=limits)
    assert error.file == "annotations/instances_train.json"
    assert "4,097 bytes" in error.reason and "4,096" in error.reason
    assert "Split" in error.fix
    assert not (dataset_dir / "samples").exists()


@pytest.mark.parametrize("name", ["labels.csv", "train_list.txt", "Annotations/a.xml"])
def test_it_rejects_other_label_files_over_the_size_limit(
    tmp_path: Path, run_import, name: str
) -> None:
    root = tmp_path / "src"
    save(digit(0)[0], root / "a.png")
    lines = {
        "labels.csv": "filename,label\n" + "a.png,0\n" * 1000,
        "train_list.txt": "a.png 0\n" * 1000,
        "Annotations/a.xml": "<annotation><filename>a.png</filename>"
        + "<!-- padding -->" * 500
        + "</annotation>",
    }
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(lines[name])
    limits = ImportLimits(min_samples_per_class=1, max_label_file_bytes=LIMIT)
    error = refusal(run_import, root, detection=name.endswith(".xml"), limits=limits)
    assert error.file == name
    assert "4,096 bytes" in error.reason


def test_it_rejects_json_nested_too_deep(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    save(digit(0)[0], root / "a.png")
    (root / "coco.json").write_text("[" * 100_000)
    error = refusal(run_import, root, detection=True)
    assert error.file == "coco.json"
    assert f"nested more than {ImportLimits().max_label_json_depth} levels deep" in error.reason
    assert "RecursionError" not in error.reason


def test_it_counts_nesting_outside_strings_only(tmp_path: Path, run_import) -> None:
    write_coco(tmp_path / "src")
    path = tmp_path / "src" / "annotations" / "instances_train.json"
    data = json.loads(path.read_text())
    data["info"] = {"description": '[[[[{{{{\\"' * 50, "note": [[[["\\\\"]]]]}
    path.write_text(json.dumps(data))
    limits = ImportLimits(min_samples_per_class=1, max_label_json_depth=6)
    assert len(run_import(tmp_path / "src", detection=True, limits=limits).samples) == 2
    data["info"]["note"] = [[[[[["deep"]]]]]]
    path.write_text(json.dumps(data))
    error = refusal(run_import, tmp_path / "src", detection=True, limits=limits)
    assert "nested more than 6 levels deep" in error.reason
