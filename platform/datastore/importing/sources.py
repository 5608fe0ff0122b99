"""Turn what was uploaded (plain files and zips) into one `SourceTree`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from datastore.importing import format_messages as said
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
                said.UPLOAD_TOO_LARGE(
                    name=name, size=f"{size:,}", limit=f"{limits.max_upload_bytes:,}"
                ),
                said.UPLOAD_TOO_LARGE_FIX(),
                file=name,
            )
        if name.lower().endswith(".zip"):
            extract_zip(local, name, tree, limits)
            continue
        path = tree.accept_name(name)
        if path is not None:
            tree.add_file(path, local)
    return tree
