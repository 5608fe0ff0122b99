"""Turn what was uploaded (plain files and zips) into one `SourceTree`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from datastore.importing.limits import ImportLimits
from datastore.importing.problems import ImportRejected
from datastore.importing.safezip import extract_zip
from datastore.importing.tree import SourceTree


def build_tree(
    uploads: Iterable[tuple[str, Path]], work_dir: Path, limits: ImportLimits
) -> SourceTree:
    """`uploads` are (name the uploader gave, local file) pairs; zips are unpacked safely."""
    tree = SourceTree(work_dir, limits)
    for name, local in uploads:
        size = local.stat().st_size
        if size > limits.max_upload_bytes:
            raise ImportRejected(
                f"'{name}' is {size:,} bytes, over the {limits.max_upload_bytes:,}-byte upload "
                "limit (MAX_UPLOAD_BYTES).",
                "Split the dataset into smaller zips, or ask an administrator to raise "
                "MAX_UPLOAD_BYTES.",
                file=name,
            )
        if name.lower().endswith(".zip"):
            extract_zip(local, name, tree, limits)
            continue
        path = tree.accept_name(name)
        if path is not None:
            tree.add_file(path, local)
    return tree
