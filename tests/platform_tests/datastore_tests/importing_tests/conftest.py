"""Run the pure import pipeline on files written to a temporary folder; no database involved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from datastore.importing.formats.base import Format
from datastore.importing.limits import ImportLimits
from datastore.importing.pipeline import ImportTarget, KnownSamples, PreparedImport, prepare_import
from datastore.importing.sources import build_tree
from tests.platform_tests.datastore_tests.sample_images import uploads_of

RunImport = Callable[..., PreparedImport]


@pytest.fixture
def dataset_dir(tmp_path: Path) -> Path:
    return tmp_path / "dataset"


@pytest.fixture
def run_import(dataset_dir: Path) -> RunImport:
    runs = []

    def run(
        source: Path | list[tuple[str, Path]],
        detection: bool = False,
        multi_label: bool = False,
        fmt: Format | None = None,
        limits: ImportLimits | None = None,
        known: KnownSamples | None = None,
    ) -> PreparedImport:
        limits = limits or ImportLimits(min_samples_per_class=1)
        if isinstance(source, Path):
            uploads = [(source.name, source)] if source.is_file() else uploads_of(source)
        else:
            uploads = source
        runs.append(source)
        suffix = str(len(runs)) if len(runs) > 1 else ""  # each import gets folders of its own
        tree = build_tree(uploads, dataset_dir / f"work{suffix}", limits)
        target = ImportTarget(
            dataset_dir / f"samples{suffix}",
            dataset_dir / f"thumbs{suffix}",
            detection,
            multi_label,
            limits,
        )
        return prepare_import(tree, target, fmt=fmt, known=known)

    return run


def codes(prepared: PreparedImport) -> list[str]:
    return [p.code for p in prepared.report.problems]
