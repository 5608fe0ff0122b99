"""Every problem says where it is, why it matters and what to do, and the report is JSON."""

from __future__ import annotations

import json
from pathlib import Path

from datastore.importing.problems import SAME_PROBLEM_LIMIT
from tests.platform_tests.datastore_tests.sample_images import class_folders


def test_every_problem_has_a_reason_and_a_fix(tmp_path: Path, run_import) -> None:
    root = tmp_path / "src"
    class_folders(root, labels=(0, 1), per_class=2)
    (root / "0" / "broken.png").write_text("oops")
    (root / "README.md").write_text("about this dataset")
    prepared = run_import(root)
    assert {p.code for p in prepared.report.problems} >= {"not_an_image", "ignored_file"}
    for problem in prepared.report.problems:
        assert problem.reason.endswith(".") and problem.fix.endswith(".")
        assert problem.reason[0].isupper() and problem.fix[0].isupper()
    data = json.loads(json.dumps(prepared.report.to_json()))
    assert data["counts"] == {"error": 1, "info": 1}
    broken = next(p for p in data["problems"] if p["code"] == "not_an_image")
    assert broken == {
        "code": "not_an_image",
        "severity": "error",
        "file": "0/broken.png",
        "where": "",
        "reason": "The file holds plain text, not an image.",
        "fix": "Remove the file or replace it with the real image.",
        # Beside the English, the messages' keys, for pages in other languages.
        "said": {
            "reason": {"msgid": "The file holds plain text, not an image.", "params": {}},
            "fix": {"msgid": "Remove the file or replace it with the real image.", "params": {}},
        },
    }


def test_it_keeps_a_hundred_problems_of_a_kind_per_file_and_counts_the_rest(
    tmp_path: Path, run_import
) -> None:
    root = tmp_path / "src"
    class_folders(root, labels=(0,), per_class=1)
    rows = ["filename,label"] + [f"missing/{i}.png,0" for i in range(250)] + ["0/0_0.png,0"]
    (root / "labels.csv").write_text("\n".join(rows))
    prepared = run_import(root)
    missing = [p for p in prepared.report.problems if p.code == "missing_file"]
    assert len(missing) == SAME_PROBLEM_LIMIT == 100
    assert missing[-1].where == "line 101, column 'filename'"
    data = prepared.report.to_json()
    assert data["counts"] == {"error": 250}
    assert data["by_code"] == {"missing_file": 250}
    summary = data["problems"][-1]
    assert (summary["code"], summary["file"]) == ("missing_file", "labels.csv")
    assert summary["reason"] == (
        "150 more problems like the ones above were left out of this report."
    )
