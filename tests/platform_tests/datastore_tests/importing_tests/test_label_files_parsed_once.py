"""Each label JSON file is parsed once per import, however many readers look at it."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

from tests.platform_tests.datastore_tests.importing_tests.test_coco import write_coco


def test_it_parses_each_json_file_once(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    write_coco(root)
    train = root / "annotations" / "instances_train.json"
    (root / "annotations" / "instances_val.json").write_text(train.read_text())
    (root / "meta.json").write_text('{"made by": "a labeling tool"}')
    with mock.patch.object(json, "loads", wraps=json.loads) as loads:
        prepared = run_import(root, detection=True)
    assert len(prepared.samples) == 2
    assert loads.call_count == 3


def test_it_parses_each_json_file_once_when_coco_is_chosen(tmp_path: Path, run_import) -> None:
    from datastore.importing.formats.base import Format

    write_coco(tmp_path / "src")
    with mock.patch.object(json, "loads", wraps=json.loads) as loads:
        run_import(tmp_path / "src", detection=True, fmt=Format.COCO)
    assert loads.call_count == 1
