"""The uploaded files as one tree of relative paths, whatever arrived as zips or plain files.

Entries are stored under generated names inside the work folder, never under the names the
upload chose, so a hostile name cannot make anything land outside that folder.
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from core.stored_messages import said_of
from datastore.importing import format_messages as said
from datastore.importing.limits import ImportLimits
from datastore.importing.problems import ImportRejected, Report

IGNORED_NAMES = {".DS_Store", "Thumbs.db", "desktop.ini"}
IGNORED_DIRS = {"__MACOSX", ".git"}
HEAD_BYTES = 64 * 1024  # what format detection reads of a text file to guess what it is


def place_file(source: Path, target: Path) -> None:
    """Link when on the same disk (instant), copy otherwise. The source is left in place."""
    try:
        target.hardlink_to(source)
    except OSError:
        shutil.copyfile(source, target)


class UnsafePath(Exception):
    """A name that tries to leave the tree (absolute, or with `..`)."""


class OddName(Exception):
    """A name that is not hostile but cannot be kept (control characters)."""


def normalize_path(name: str) -> str:
    """Turn an upload's own name into a clean relative POSIX path, or raise.

    Unicode is normalized to NFC so that the same name typed on macOS (decomposed) and on Linux
    (composed) matches the names inside label files.
    """
    raw = name.replace("\\", "/")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":") or raw.startswith("//"):
        raise UnsafePath(said.ABSOLUTE_PATH(name=name))
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafePath(said.CLIMBS_OUT(name=name))
    if not parts:
        raise OddName(said.EMPTY_NAME())
    cleaned = unicodedata.normalize("NFC", "/".join(parts))
    for char in cleaned:
        if unicodedata.category(char) in ("Cc", "Cs") or char in "\u202a\u202b\u202d\u202e":
            raise OddName(said.CONTROL_CHARACTER(code=f"{ord(char):04X}"))
    if any(len(part.encode()) > 255 for part in parts):
        raise OddName(said.NAME_PART_TOO_LONG())
    return cleaned


def is_ignored(path: str) -> bool:
    parts = path.split("/")
    return (
        parts[-1] in IGNORED_NAMES
        or parts[-1].startswith("._")
        or any(part in IGNORED_DIRS for part in parts[:-1])
    )


class SourceTree:
    """Relative path -> local file. Built by `add_stream` / `add_file`, read by format readers."""

    def __init__(self, work_dir: Path, limits: ImportLimits | None = None) -> None:
        self.work_dir = work_dir
        self.limits = limits or ImportLimits()
        self.blob_dir = work_dir / "blobs"
        self.blob_dir.mkdir(parents=True, exist_ok=True)
        self.files: dict[str, Path] = {}
        self.report = Report()
        self._counter = 0
        self._suffix_index: dict[str, str] = {}
        self._suffix_index_size = -1
        # Label documents a format detector parsed, kept for that format's reader so that each
        # file is parsed once; the reader pops them, freeing the memory. None marks a file the
        # detector parsed and found not to be of its format.
        self.parsed: dict[str, Any] = {}

    def __contains__(self, path: str) -> bool:
        return path in self.files

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.files))

    def __len__(self) -> int:
        return len(self.files)

    def accept_name(self, name: str, archive: str = "") -> str | None:
        """The normalized path, or None after reporting why the entry is left out."""
        try:
            path = normalize_path(name)
        except UnsafePath as exc:
            raise ImportRejected(
                said.UNSAFE_ENTRY(problem=said_of(exc)),
                said.UNSAFE_ENTRY_FIX(),
                file=archive,
            ) from exc
        except OddName as exc:
            self.report.error(
                "odd_filename",
                name.encode("unicode_escape").decode("ascii"),
                said.LEFT_OUT_BECAUSE(problem=said_of(exc)),
                said.RENAME_FIX(),
                where=said.IN_ARCHIVE(archive=archive) if archive else "",
            )
            return None
        if is_ignored(path):
            return None
        if path in self.files:
            self.report.warning(
                "duplicate_path",
                path,
                said.SAME_PATH(),
                said.SAME_PATH_FIX(),
            )
        return path

    def _next_blob(self) -> Path:
        self._counter += 1
        return self.blob_dir / f"{self._counter:08d}"

    def add_stream(self, path: str, stream: BinaryIO, max_bytes: int) -> int:
        """Copy a stream into the tree in chunks; return the bytes written (never more than max)."""
        target = self._next_blob()
        written = 0
        with open(target, "wb") as out:
            while chunk := stream.read(1024 * 1024):
                written += len(chunk)
                if written > max_bytes:
                    out.close()
                    target.unlink()
                    raise ImportRejected(
                        said.EXPANDS_PAST_SIZE(path=path),
                        said.STANDARD_ZIP_FIX(),
                        file=path,
                    )
                out.write(chunk)
        self.files[path] = target
        return written

    def add_file(self, path: str, local: Path) -> None:
        """Add a file that already sits on disk (a plain uploaded file); it is linked, not moved."""
        target = self._next_blob()
        place_file(local, target)
        self.files[path] = target

    def local(self, path: str) -> Path:
        return self.files[path]

    def _check_label_size(self, path: str) -> None:
        size = self.files[path].stat().st_size
        limit = self.limits.max_label_file_bytes
        if size > limit:
            raise ImportRejected(
                said.LABEL_FILE_TOO_LARGE(size=f"{size:,}", limit=f"{limit:,}"),
                said.LABEL_FILE_TOO_LARGE_FIX(),
                file=path,
            )

    def label_bytes(self, path: str) -> bytes:
        """A whole label file, refused by name when it is over the label file size limit."""
        self._check_label_size(path)
        return self.files[path].read_bytes()

    def read_text(self, path: str) -> str:
        """Label files as text; a BOM is dropped and undecodable bytes are replaced, not fatal."""
        return self.label_bytes(path).decode("utf-8-sig", errors="replace")

    def open_text(self, path: str) -> TextIO:
        """A label file as a text stream (decoded as `read_text` does), for reading by rows."""
        self._check_label_size(path)
        return open(self.files[path], encoding="utf-8-sig", errors="replace", newline="")

    def head_lines(self, path: str, count: int) -> list[str]:
        """The first lines of a text file, from its first 64 KiB only: format detection looks
        at every text file of the upload, which may be huge or one single line."""
        with open(self.files[path], "rb") as handle:
            head = handle.read(HEAD_BYTES)
        return head.decode("utf-8-sig", errors="replace").splitlines()[:count]

    def lookup(self, reference: str, relative_to: str = "") -> str | None:
        """Find the tree path a label file's reference names, trying the likely spellings."""
        try:
            ref = normalize_path(reference)
        except (UnsafePath, OddName):
            return None
        base = relative_to.rsplit("/", 1)[0] if "/" in relative_to else ""
        candidates = [ref, f"{base}/{ref}" if base else ref]
        for candidate in candidates:
            if candidate in self.files:
                return candidate
        return self._by_suffix().get(ref)

    def _by_suffix(self) -> dict[str, str]:
        """Paths keyed by every trailing sub-path, for references that omit a leading folder."""
        if self._suffix_index_size != len(self.files):
            self._suffix_index = {}
            for path in sorted(self.files):
                parts = path.split("/")
                for i in range(len(parts)):
                    self._suffix_index.setdefault("/".join(parts[i:]), path)
            self._suffix_index_size = len(self.files)
        return self._suffix_index
