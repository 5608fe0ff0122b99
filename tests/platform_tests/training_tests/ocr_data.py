"""A small OCR dataset made here: pages of dot-matrix part numbers (which the shipped PP-OCRv4
recognizer reads poorly), each line's quadrilateral and text written as PPOCRLabel's Label.txt
and imported through the datastore's own import, then frozen. One line in three pages is
marked "###" (too hard to read), which a job skips.

    version = dot_matrix_version(workspace, user, pages=12)   # 3 lines a page, val 25 %
    job = report_read_by_hand(workspace, user, version)       # a succeeded job, no training

Not a test module.
"""

from __future__ import annotations

import json
import string
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from datastore.models import Dataset, DatasetVersion, ImportJob
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version
from tests.framework_tests.ocr_tests.ocr_images import render_dot_matrix
from training.models import TrainingJob

MARGIN, GAP = 12, 10


def part_numbers(rng: np.random.Generator, count: int) -> list[str]:
    """Codes of 7 to 9 capitals and digits (the shipped recognizer misreads most of them in
    dot matrix)."""
    alphabet = list(string.ascii_uppercase + string.digits)
    return ["".join(rng.choice(alphabet, int(rng.integers(7, 10)))) for _ in range(count)]


def write_pages(root: Path, pages: int, lines: int, seed: int) -> list[tuple[str, Path]]:
    """Pages of `lines` dot-matrix codes each, with a Label.txt; (upload name, path) pairs."""
    rng = np.random.default_rng(seed)
    (root / "imgs").mkdir(parents=True)
    rows = []
    for page in range(pages):
        texts = part_numbers(rng, lines)
        crops = [render_dot_matrix(t) for t in texts]
        width = max(c.shape[1] for c in crops) + 2 * MARGIN
        height = sum(c.shape[0] for c in crops) + GAP * (len(crops) - 1) + 2 * MARGIN
        canvas = np.full((height, width, 3), 255, np.uint8)
        entries, top = [], MARGIN
        for index, (text, crop) in enumerate(zip(texts, crops, strict=True)):
            h, w = crop.shape[:2]
            canvas[top : top + h, MARGIN : MARGIN + w] = crop
            hard = page % 3 == 2 and index == len(texts) - 1
            entries.append(
                {
                    "transcription": "###" if hard else text,
                    "points": [
                        [MARGIN - 2, top - 2],
                        [MARGIN + w + 2, top - 2],
                        [MARGIN + w + 2, top + h + 2],
                        [MARGIN - 2, top + h + 2],
                    ],
                    "difficult": hard,
                }
            )
            top += h + GAP
        name = f"imgs/page_{page:03d}.png"
        Image.fromarray(canvas).save(root / name)
        rows.append(f"{name}\t{json.dumps(entries, ensure_ascii=False)}\n")
    (root / "imgs" / "Label.txt").write_text("".join(rows), encoding="utf-8")
    return [(p.relative_to(root).as_posix(), p) for p in sorted(root.rglob("*")) if p.is_file()]


def dot_matrix_version(
    workspace: Any,
    user: Any,
    *,
    pages: int = 12,
    lines: int = 3,
    val: float = 0.25,
    seed: int = 0,
    name: str = "Dot-matrix labels",
) -> DatasetVersion:
    """An OCR dataset of dot-matrix pages with one frozen version (`val` of the pages held
    out)."""
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=name,
        task_type=Dataset.TaskType.OCR,
        description="Dot-matrix part numbers rendered by the tests.",
        created_by=user,
    )
    with tempfile.TemporaryDirectory(prefix="sampan-ocr-") as folder:
        job = import_local_files(dataset, user, write_pages(Path(folder), pages, lines, seed))
    if job.status != ImportJob.Status.SUCCEEDED:
        raise RuntimeError(f"The OCR import failed: {job.error}")
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": round(1 - val, 6), "val": val, "test": 0.0},
        seed=0,
    )


def _misread(truth: str, index: int) -> str:
    """Every second line with its first character wrong (the "before")."""
    return ("0" if truth[0] != "0" else "1") + truth[1:] if index % 2 == 0 else truth


def _read_after(truth: str, index: int) -> str:
    """Line 0 read as nothing, line 1 with its last two characters dropped, the rest right."""
    return {0: "", 1: truth[:-2]}.get(index, truth)


def report_read_by_hand(workspace: Any, user: Any, version: DatasetVersion) -> TrainingJob:
    """A succeeded ppocr_v4_rec job on `version` whose report is scored from readings made by
    hand, so no recognizer runs: before, every second validation line has its first character
    wrong; after, line 0 is read as nothing and line 1 lacks its last two characters (so the
    worst-lines table holds exactly those two, line 0 first). No end-to-end numbers."""
    from tests.platform_tests.training_tests.base import make_job
    from training.models import EvaluationReport
    from training.services.text_lines import line_examples
    from workers.runtime.ocr_data import LineCrops
    from workers.runtime.ocr_report import ocr_report_fields

    job, _ = make_job(
        workspace=workspace,
        user=user,
        version=version,
        architecture="ppocr_v4_rec",
        init="shipped",
        overrides={"epochs": 1},
    )
    assert job.claim(worker="test-worker@localhost", device="cpu")
    surveys = {split: line_examples(version, split) for split in ("train", "val")}
    crops = LineCrops(surveys["val"].lines)
    truths = crops.texts(range(len(crops)))
    before = [_misread(t, i) for i, t in enumerate(truths)]
    after = [_read_after(t, i) for i, t in enumerate(truths)]
    fields = ocr_report_fields(crops, surveys, "val", before, after, None)
    EvaluationReport.objects.create(job=job, split="val", **fields)
    job.mark_succeeded(val_accuracy=fields["accuracy"])
    return TrainingJob.objects.get(pk=job.pk)
