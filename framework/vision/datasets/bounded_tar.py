"""Members of a user's tar archive (plain, gzip, bzip2 or xz), read with bounded memory and work.

A compressed archive can unpack to far more than it holds: 300 KB of gzip is 320 MiB of
zeros, and a tar header can claim any size. `tarfile` trusts those sizes: it reads a member's
extended (pax) header of any claimed length into memory in one call, and skips past members by
decompressing them. Here every byte tarfile reads or skips passes through `_BoundedStream`,
which refuses, with `CheckpointTooLargeError` and before reading, a member over
`TarLimits.member_bytes`, headers over `TarLimits.header_bytes`, or an archive that unpacks to
more than `TarLimits.total_bytes`.

    limits = TarLimits(member_bytes=256 * 2**20, total_bytes=2**30, members=1000)
    for name, contents in read_members("cifar-10-python.tar.gz", is_batch, limits):
        batch = restricted_load(contents, "bytes")
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tarfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from framework.interop.safe_unpickle import CheckpointTooLargeError, display_name, human_size

__all__ = ["TarLimits", "read_members"]

_CHUNK_BYTES = 2**20  # members are copied out this much at a time
_DECOMPRESSORS: dict[bytes, Callable[[IO[bytes]], IO[bytes]]] = {
    b"\x1f\x8b": lambda raw: gzip.GzipFile(fileobj=raw),
    b"BZh": bz2.BZ2File,
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}
# what a damaged archive raises from tarfile or its decompressor (gzip.BadGzipFile is an OSError)
_UNREADABLE = (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError)


@dataclass(frozen=True)
class TarLimits:
    """What reading one archive may cost, in unpacked bytes: `member_bytes` for one wanted
    member, `header_bytes` for the headers before one member (real ones take a few KiB),
    `total_bytes` read and skipped in all; at most `members` members. `member_kind` names a
    wanted member in messages ('a CIFAR batch')."""

    member_bytes: int
    total_bytes: int
    members: int
    header_bytes: int = 2**20
    member_kind: str = "a member"


def read_members(
    path: str | os.PathLike, wanted: Callable[[str], bool], limits: TarLimits
) -> Iterator[tuple[str, io.BytesIO]]:
    """`(name, contents)` of each regular member whose name `wanted` accepts, in archive order,
    each read into memory only once its size is known to be within `limits`.

    Raises CheckpointTooLargeError when the archive passes a limit, ValueError when it is not
    a readable tar archive; both name the archive by its base name, never its folder.
    """
    where = repr(display_name(path))
    with open(path, "rb") as raw:
        stream = _BoundedStream(_decompressed(raw), where, limits)
        try:
            with tarfile.open(fileobj=stream, mode="r:") as archive:
                for count, member in enumerate(archive, 1):
                    stream.header_bytes = 0  # the next member's headers start here
                    if count > limits.members:
                        raise CheckpointTooLargeError(
                            f"refusing to read {where}: it holds more than {limits.members} "
                            "members; it is damaged or made to exhaust memory",
                            requested=count, limit=limits.members,
                        )  # fmt: skip
                    if member.isfile() and wanted(member.name):
                        yield member.name, _read_member(archive, member, stream, where)
        except _UNREADABLE as exc:
            raise ValueError(f"{where} is not a readable tar archive: {exc}") from None


def _decompressed(raw: IO[bytes]) -> IO[bytes]:
    magic = raw.read(6)
    raw.seek(0)
    for prefix, decompressor in _DECOMPRESSORS.items():
        if magic.startswith(prefix):
            return decompressor(raw)
    return raw


def _read_member(
    archive: tarfile.TarFile, member: tarfile.TarInfo, stream: _BoundedStream, where: str
) -> io.BytesIO:
    limits = stream.limits
    if member.size > limits.member_bytes:
        raise CheckpointTooLargeError(
            f"refusing to read {member.name!r} in {where}: it holds {human_size(member.size)}, "
            f"more than the {human_size(limits.member_bytes)} {limits.member_kind} may hold; "
            "the archive is damaged or made to exhaust memory",
            requested=member.size, limit=limits.member_bytes,
        )  # fmt: skip
    contents = io.BytesIO()
    source = archive.extractfile(member)
    assert source is not None  # a regular file
    stream.data_bytes = member.size  # tarfile never reads past a member's size; counted anyway
    try:
        while chunk := source.read(_CHUNK_BYTES):
            contents.write(chunk)
    finally:
        stream.data_bytes = 0
    contents.seek(0)
    return contents


class _BoundedStream:
    """The archive's unpacked bytes, as tarfile reads them: a read is charged to the member
    being copied out (`data_bytes` left), else to the headers before the next member
    (`header_bytes` so far); every byte read or skipped counts towards `total_bytes`. A read
    or skip past a limit raises before it happens."""

    def __init__(self, inner: IO[bytes], where: str, limits: TarLimits) -> None:
        self.inner = inner
        self.where = where
        self.limits = limits
        self.total = 0
        self.header_bytes = 0
        self.data_bytes = 0

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:  # tarfile always asks for a size; refuse rather than guess
            raise ValueError("an unbounded read of an archive")
        if self.data_bytes:
            size = min(size, self.data_bytes)
        elif self.header_bytes + size > self.limits.header_bytes:
            raise CheckpointTooLargeError(
                f"refusing to read {self.where}: a member's headers ask for "
                f"{human_size(self.header_bytes + size)}, more than the "
                f"{human_size(self.limits.header_bytes)} headers may take; it is damaged or made "
                "to exhaust memory",
                requested=self.header_bytes + size, limit=self.limits.header_bytes,
            )  # fmt: skip
        self._count(size)
        data = self.inner.read(size)
        if self.data_bytes:
            self.data_bytes -= len(data)
        else:
            self.header_bytes += len(data)
        return data

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        position = self.inner.tell()
        target = {io.SEEK_SET: offset, io.SEEK_CUR: position + offset}.get(whence)
        if target is None:  # SEEK_END would unpack the whole archive; tarfile never asks
            raise ValueError("seeking from the end of an archive")
        # a compressed stream moves forward by unpacking, and backward by unpacking from 0
        self._count(target - position if target >= position else target)
        return self.inner.seek(target)

    def tell(self) -> int:
        return self.inner.tell()

    def seekable(self) -> bool:
        return True

    def _count(self, nbytes: int) -> None:
        if self.total + nbytes > self.limits.total_bytes:
            raise CheckpointTooLargeError(
                f"refusing to read {self.where}: it unpacks to more than "
                f"{human_size(self.limits.total_bytes)}, the most one archive may; it is "
                "damaged or made to exhaust memory",
                requested=self.total + nbytes, limit=self.limits.total_bytes,
            )  # fmt: skip
        self.total += nbytes
