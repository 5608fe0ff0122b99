"""Zip extraction that refuses hostile archives before writing a byte.

Refused: encrypted archives, entries with absolute or `..` paths, symlink entries, more files
than allowed, and zip bombs, by compression ratio (per entry and overall) and by total expanded
size. Sizes declared in the archive are checked up front and the bytes actually expanded are
counted again while copying, so an archive that lies about its sizes is caught too.
"""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

from datastore.importing import format_messages as said
from datastore.importing.limits import MIB, ImportLimits
from datastore.importing.problems import ImportRejected
from datastore.importing.tree import SourceTree

ENCRYPTED = 0x1  # bit 0 of an entry's general purpose flags


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    return info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16)


def _check_entries(infos: list[zipfile.ZipInfo], archive: str, limits: ImportLimits) -> None:
    if len(infos) > limits.max_files:
        raise ImportRejected(
            said.TOO_MANY_ENTRIES(count=f"{len(infos):,}", limit=f"{limits.max_files:,}"),
            said.SPLIT_UPLOAD_FIX(),
            file=archive,
        )
    total = compressed = 0
    for info in infos:
        if info.flag_bits & ENCRYPTED:
            raise ImportRejected(
                said.ENCRYPTED(archive=archive, entry=info.filename),
                said.ENCRYPTED_FIX(),
                file=archive,
            )
        if _is_symlink(info):
            raise ImportRejected(
                said.SYMLINK(entry=info.filename),
                said.SYMLINK_FIX(),
                file=archive,
            )
        if info.is_dir():
            continue
        total += info.file_size
        compressed += info.compress_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size >= limits.ratio_floor_bytes and ratio > limits.max_compression_ratio:
            raise ImportRejected(
                said.ENTRY_RATIO(
                    entry=info.filename,
                    ratio=f"{ratio:,.0f}",
                    limit=f"{limits.max_compression_ratio:,.0f}",
                ),
                said.REZIP_FIX(),
                file=archive,
            )
        if total > limits.max_extracted_bytes:
            raise ImportRejected(
                said.EXPANDS_TOO_MUCH(mib=f"{limits.max_extracted_bytes / MIB:,.0f}"),
                said.SPLIT_UPLOAD_FIX(),
                file=archive,
            )
    if total >= limits.ratio_floor_bytes and total / max(compressed, 1) > (
        limits.max_compression_ratio
    ):
        raise ImportRejected(
            said.OVERALL_RATIO(
                ratio=f"{total / max(compressed, 1):,.0f}",
                limit=f"{limits.max_compression_ratio:,.0f}",
            ),
            said.REZIP_FIX(),
            file=archive,
        )


def extract_zip(zip_path: Path, archive: str, tree: SourceTree, limits: ImportLimits) -> int:
    """Add every entry of the archive to the tree; return how many files were added."""
    try:
        zf = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ImportRejected(
            said.NOT_A_ZIP(archive=archive, error=str(exc)),
            said.NOT_A_ZIP_FIX(),
            file=archive,
        ) from exc
    with zf:
        infos = zf.infolist()
        _check_entries(infos, archive, limits)
        # Every name is checked before anything is written, so a refused archive leaves no files.
        accepted = [(info, tree.accept_name(info.filename, archive)) for info in infos]
        budget = limits.max_extracted_bytes
        added = 0
        for info, path in accepted:
            if path is None or info.is_dir():
                continue
            try:
                with zf.open(info) as stream:
                    budget -= tree.add_stream(path, stream, min(info.file_size, budget))
            except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
                raise ImportRejected(
                    said.ENTRY_UNPACKABLE(entry=info.filename, error=str(exc)),
                    said.REZIP_FIX(),
                    file=archive,
                ) from exc
            added += 1
    return added
