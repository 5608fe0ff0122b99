"""One import, from a tree of uploaded files to the samples to create and the report.

Files are written only inside `samples_dir` and `thumbs_dir`, under generated names. The caller
creates database rows from the returned `PreparedImport` in one transaction, and deletes both
folders if anything fails, so a failed import leaves the dataset as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from datastore.importing import messages as said
from datastore.importing.checks import (
    PixelBox,
    check_balance,
    find_exact_duplicates,
    find_near_duplicates,
    to_pixels,
)
from datastore.importing.formats.base import Format, Record
from datastore.importing.formats.detect import detect_format, read_tree
from datastore.importing.formats.ocr import PixelTextLine, to_pixel_line
from datastore.importing.images import ImageInfo, ImageRejected, inspect_image, is_image_name
from datastore.importing.limits import ImportLimits
from datastore.importing.problems import ImportRejected, Report, Severity
from datastore.importing.tree import SourceTree

LABEL_EXTENSIONS = (".txt", ".csv", ".json", ".xml", ".yaml", ".yml", ".names")
Progress = Callable[[int, int], None]


@dataclass
class KnownSamples:
    """What the dataset already holds, so that re-imports and near-copies are caught."""

    content_hashes: dict[str, str] = field(default_factory=dict)  # sha256 -> sample name
    perceptual_hashes: dict[str, str] = field(default_factory=dict)  # sample name -> dhash hex
    class_counts: dict[str, int] = field(default_factory=dict)


@dataclass
class PreparedSample:
    source: str  # its path inside the upload
    stored: str  # file name written inside samples_dir
    thumbnail: str  # file name written inside thumbs_dir
    info: ImageInfo
    labels: list[str]
    boxes: list[PixelBox]
    split: str
    labeled: bool
    problems: list[str] = field(default_factory=list)  # problem codes about this image
    text_lines: list[PixelTextLine] = field(default_factory=list)


@dataclass
class PreparedImport:
    format: Format
    format_note: str
    classes: list[str]
    samples: list[PreparedSample]
    report: Report
    skipped: int = 0


@dataclass(frozen=True)
class ImportTarget:
    samples_dir: Path
    thumbs_dir: Path
    detection: bool
    multi_label: bool
    limits: ImportLimits
    ocr: bool = False


def _inspect(
    tree: SourceTree, target: ImportTarget, index: int, record: Record
) -> tuple[str, ImageInfo] | ImageRejected:
    """Verify one image and write it (as `NNNNNN.ext`) and its thumbnail (`NNNNNN.jpg`)."""
    stem = f"{index:06d}"
    partial = target.samples_dir / f"{stem}.partial"
    try:
        info = inspect_image(
            tree.local(record.path), partial, target.thumbs_dir / f"{stem}.jpg", target.limits
        )
    except ImageRejected as exc:
        return exc
    partial.rename(target.samples_dir / f"{stem}{info.extension}")
    return f"{stem}{info.extension}", info


def _report_no_images(tree: SourceTree, report: Report) -> None:
    """An upload with nothing to import says why, rather than importing zero images quietly."""
    names = list(tree)
    shown = ", ".join(f"'{n}'" for n in names[:3]) + (" ..." if len(names) > 3 else "")
    if not names:
        reason = said.NO_FILES()
    elif len(names) == 1:
        reason = said.NO_IMAGES_ONE(shown=shown)
    else:
        reason = said.NO_IMAGES(count=f"{len(names):,}", shown=shown)
    report.error("no_images", "", reason, said.NO_IMAGES_FIX())


def _report_ignored(tree: SourceTree, report: Report) -> None:
    for path in tree:
        if not is_image_name(path) and not path.lower().endswith(LABEL_EXTENSIONS):
            report.add(
                "ignored_file",
                Severity.INFO,
                path,
                said.IGNORED_FILE(),
                said.IGNORED_FILE_FIX(),
            )


def _sample(
    record: Record, stored: str, info: ImageInfo, target: ImportTarget, report: Report
) -> PreparedSample:
    found = Report()  # this image's own, apart: the import's report may leave some of them out
    labels = list(record.labels)
    if len(labels) > 1 and not target.multi_label:
        found.error(
            "too_many_labels",
            record.path,
            said.TOO_MANY_LABELS(
                count=len(labels),
                labels=", ".join(labels[:10]) + (", ..." if len(labels) > 10 else ""),
            ),
            said.TOO_MANY_LABELS_FIX(),
        )
        labels = []
    boxes = [
        box
        for raw in record.boxes
        if (box := to_pixels(raw, info.width, info.height, found)) is not None
    ]
    text_lines = [
        line
        for raw in record.text_lines
        if (line := to_pixel_line(raw, info.width, info.height, found)) is not None
    ]
    sample = PreparedSample(
        source=record.path,
        stored=stored,
        thumbnail=stored.rsplit(".", 1)[0] + ".jpg",
        info=info,
        labels=labels,
        boxes=boxes,
        split=record.split,
        # A label file that lists no objects labels the image as empty; one whose boxes were
        # all refused leaves it to be labeled again.
        labeled=bool(labels or boxes or text_lines)
        or (target.detection and record.labeled and not record.boxes),
        text_lines=text_lines,
    )
    sample.problems = [p.code for p in found.problems]
    report.extend(found)
    return sample


def _forget(target: ImportTarget, stored: str) -> None:
    (target.samples_dir / stored).unlink()
    (target.thumbs_dir / (stored.rsplit(".", 1)[0] + ".jpg")).unlink()


def _check_duplicates(
    samples: list[PreparedSample], known: KnownSamples, limits: ImportLimits, report: Report
) -> None:
    by_source = {sample.source: sample for sample in samples}
    exact = find_exact_duplicates((s.source, s.info.content_hash) for s in samples)
    for path, original in exact.items():
        report.warning(
            "duplicate",
            path,
            said.DUPLICATE(original=original),
            said.DUPLICATE_FIX(),
        )
        by_source[path].problems.append("duplicate")
    near = find_near_duplicates(
        [(s.source, s.info.perceptual_hash) for s in samples if s.source not in exact],
        limits.near_duplicate_bits,
        known.perceptual_hashes,
    )
    for path, original in near.items():
        report.warning(
            "near_duplicate",
            path,
            said.NEAR_DUPLICATE(original=original),
            said.NEAR_DUPLICATE_FIX(),
        )
        by_source[path].problems.append("near_duplicate")


def _check_class_names(classes: list[str], limits: ImportLimits) -> None:
    """A name the dataset cannot hold would fail the import only when it is saved."""
    limit = limits.max_class_name_chars
    for name in classes:
        if len(name) > limit:
            shown = name if len(name) <= 60 else f"{name[:57]}..."
            raise ImportRejected(
                said.CLASS_NAME_TOO_LONG(name=shown, length=f"{len(name):,}", limit=limit),
                said.CLASS_NAME_TOO_LONG_FIX(),
            )


def _refuse_partial_ocr_import(report: Report) -> None:
    """OCR labels are all or nothing: one bad line or image refuses the whole upload, with
    every problem in the report, so a fixed upload can simply be imported again."""
    errors = [p for p in report.problems if p.severity == Severity.ERROR]
    if not errors:
        return
    first = errors[0]
    where = said.IN_PARENTHESES(where=first.where) if first.where else ""
    raise ImportRejected(
        said.OCR_REFUSED(
            count=f"{report.counts().get('error', 0):,}",
            file=first.file,
            where=where,
            reason=first.reason,
        ),
        said.OCR_REFUSED_FIX(),
        report=report,
    )


def prepare_import(
    tree: SourceTree,
    target: ImportTarget,
    fmt: Format | None = None,
    known: KnownSamples | None = None,
    progress: Progress | None = None,
    threads: int = 2,
) -> PreparedImport:
    known = known or KnownSamples()
    note = said.CHOSEN_FORMAT(format=fmt.said_title) if fmt else ""
    if fmt is None:
        fmt, note = detect_format(tree, target.detection, target.ocr)
    result = read_tree(tree, fmt, target.detection, target.ocr)
    _check_class_names(result.classes, target.limits)
    report = Report()
    report.extend(tree.report)
    report.extend(result.report)
    _report_ignored(tree, report)
    records = sorted(result.records.values(), key=lambda r: r.path)
    if not records:
        _report_no_images(tree, report)
    target.samples_dir.mkdir(parents=True, exist_ok=True)
    target.thumbs_dir.mkdir(parents=True, exist_ok=True)
    samples: list[PreparedSample] = []
    skipped = 0
    with ThreadPoolExecutor(max_workers=threads) as pool:
        outcomes = pool.map(lambda pair: _inspect(tree, target, *pair), enumerate(records))
        for done, (record, outcome) in enumerate(zip(records, outcomes, strict=True), start=1):
            if progress and (done % 100 == 0 or done == len(records)):
                progress(done, len(records))
            if isinstance(outcome, ImageRejected):
                report.error(outcome.code, record.path, outcome.reason, outcome.fix)
                skipped += 1
                continue
            stored, info = outcome
            if info.content_hash in known.content_hashes:
                report.warning(
                    "already_imported",
                    record.path,
                    said.ALREADY_IMPORTED(original=known.content_hashes[info.content_hash]),
                    said.NOTHING_TO_DO(),
                )
                _forget(target, stored)
                skipped += 1
                continue
            samples.append(_sample(record, stored, info, target, report))
    rejected = {p.file for p in report.problems if p.severity == Severity.ERROR}
    report.problems = [  # "no label for this image" is noise once the image itself is refused
        p for p in report.problems if not (p.code == "unlabeled_image" and p.file in rejected)
    ]
    _check_duplicates(samples, known, target.limits, report)
    if target.ocr:
        _refuse_partial_ocr_import(report)
        return PreparedImport(fmt, note, [], samples, report, skipped)
    counts = Counter({name: 0 for name in result.classes}) + Counter(known.class_counts)
    for sample in samples:
        counts.update(set(sample.labels) | {box.label for box in sample.boxes})
    check_balance(
        {name: counts.get(name, 0) for name in {*result.classes, *counts}}, target.limits, report
    )
    return PreparedImport(fmt, note, result.classes, samples, report, skipped)
