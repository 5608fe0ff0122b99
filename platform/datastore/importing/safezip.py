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

from datastore.importing.limits import MIB, ImportLimits
from datastore.importing.problems import ImportRejected
from datastore.importing.tree import SourceTree

ENCRYPTED = 0x1  # bit 0 of an entry's general purpose flags
REZIP = "Re-create the zip with a standard zip tool from the dataset folder itself."


def _is_symlink(info: zipfile.ZipInfo) -> bool:
    return info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16)


def _check_entries(infos: list[zipfile.ZipInfo], archive: str, limits: ImportLimits) -> None:
    if len(infos) > limits.max_files:
        raise ImportRejected(
            f"The archive holds {len(infos):,} entries; the limit is {limits.max_files:,}.",
            "Split the dataset into several smaller uploads.",
            file=archive,
        )
    total = compressed = 0
    for info in infos:
        if info.flag_bits & ENCRYPTED:
            raise ImportRejected(
                f"The archive '{archive}' is encrypted (entry '{info.filename}' needs a "
                "password); Sampan cannot read encrypted zips.",
                "Re-create the zip without a password.",
                file=archive,
            )
        if _is_symlink(info):
            raise ImportRejected(
                f"The archive entry '{info.filename}' is a symbolic link. Links could point "
                "anywhere on the server, so archives holding them are refused.",
                "Zip the real files instead of links (for `zip`, leave out the -y option).",
                file=archive,
            )
        if info.is_dir():
            continue
        total += info.file_size
        compressed += info.compress_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size >= limits.ratio_floor_bytes and ratio > limits.max_compression_ratio:
            raise ImportRejected(
                f"The archive entry '{info.filename}' expands {ratio:,.0f} times "
                f"(the limit is {limits.max_compression_ratio:,.0f}): this is how zip bombs "
                "are built.",
                REZIP,
                file=archive,
            )
        if total > limits.max_extracted_bytes:
            raise ImportRejected(
                f"The archive expands to more than {limits.max_extracted_bytes / MIB:,.0f} MiB, "
                "the most one import may unpack.",
                "Split the dataset into several smaller uploads.",
                file=archive,
            )
    if total >= limits.ratio_floor_bytes and total / max(compressed, 1) > (
        limits.max_compression_ratio
    ):
        raise ImportRejected(
            f"The archive expands {total / max(compressed, 1):,.0f} times overall "
            f"(the limit is {limits.max_compression_ratio:,.0f}): this is how zip bombs are built.",
            REZIP,
            file=archive,
        )


def extract_zip(zip_path: Path, archive: str, tree: SourceTree, limits: ImportLimits) -> int:
    """Add every entry of the archive to the tree; return how many files were added."""
    try:
        zf = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ImportRejected(
            f"'{archive}' is not a readable zip file ({exc}).",
            "Check that the upload finished, then re-create the zip.",
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
                    f"The archive entry '{info.filename}' could not be unpacked ({exc}).",
                    REZIP,
                    file=archive,
                ) from exc
            added += 1
    return added
