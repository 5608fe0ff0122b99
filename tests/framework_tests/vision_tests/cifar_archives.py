"""CIFAR-format batches and archives written in a test's folder: real ones, Python 2 ones (the
format of the published archives), and archives that unpack to far more than they hold."""

from __future__ import annotations

import io
import pickle
import struct
import tarfile
from pathlib import Path
from typing import Any

import numpy as np

MIB = 2**20


def cifar_batch(rng: np.random.Generator, n: int, label_key: bytes) -> dict:
    return {
        b"batch_label": b"training batch",
        label_key: rng.integers(0, 100, n).tolist(),
        b"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8),
        b"filenames": [f"img{i}.png".encode() for i in range(n)],
    }


def add_member(archive: tarfile.TarFile, name: str, payload: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    archive.addfile(info, io.BytesIO(payload))


def write_archive(path: Path, members: dict[str, bytes]) -> Path:
    """A tar.gz holding `members` (name -> contents), in that order."""
    with tarfile.open(path, "w:gz") as archive:
        for name, payload in members.items():
            add_member(archive, name, payload)
    return path


class _Python2Pickler(pickle._Pickler):
    """Writes `bytes` and `str` as Python 2's `str` (SHORT_BINSTRING / BINSTRING), as the
    published CIFAR batches were written; read back with encoding='bytes' both are bytes."""

    dispatch = pickle._Pickler.dispatch.copy()

    def save_python2_str(self, obj: bytes | str) -> None:
        data = obj.encode("latin1") if isinstance(obj, str) else obj
        if len(data) < 256:
            self.write(pickle.SHORT_BINSTRING + bytes([len(data)]) + data)
        else:
            self.write(pickle.BINSTRING + struct.pack("<i", len(data)) + data)
        self.memoize(obj)

    dispatch[bytes] = save_python2_str
    dispatch[str] = save_python2_str


def python2_dumps(obj: Any) -> bytes:
    """`obj` pickled as Python 2's cPickle protocol 2 wrote it (NumPy 1 module names too)."""
    stream = io.BytesIO()
    _Python2Pickler(stream, 2).dump(obj)
    return stream.getvalue().replace(b"numpy._core.", b"numpy.core.")


class _Zeros:
    """`size` bytes: `head`, then zeros, then `tail`, produced as they are read."""

    def __init__(self, size: int, head: bytes = b"", tail: bytes = b"") -> None:
        self.head, self.tail = head, tail
        self.zeros = size - len(head) - len(tail)

    def read(self, size: int) -> bytes:
        chunk = self.head[:size]
        self.head = self.head[len(chunk) :]
        zeros = min(size - len(chunk), self.zeros)
        self.zeros -= zeros
        chunk += bytes(zeros)
        rest = self.tail[: size - len(chunk)]
        self.tail = self.tail[len(rest) :]
        return chunk + rest


def bomb_archive(path: Path, member: str, mib: int = 320) -> Path:
    """A tar.gz whose `member` is a `mib` MiB pickle of one zero-filled bytes object, deflated
    to about 1.5 MB: a plain reader holds all of it in memory."""
    size = mib * MIB
    head = b"\x80\x04\x8e" + (size - 12).to_bytes(8, "little")  # BINBYTES8, its length
    with tarfile.open(path, "w:gz", compresslevel=1) as archive:
        info = tarfile.TarInfo(member)
        info.size = size
        archive.addfile(info, _Zeros(size, head, b"."))
    return path


def pax_bomb_archive(path: Path, batch: bytes, mib: int = 320) -> Path:
    """A tar.gz whose one batch comes after an extended (pax) header claiming `mib` MiB of
    zeros, which `tarfile` reads into memory in one call."""
    with tarfile.open(path, "w:gz", compresslevel=1) as archive:
        header = tarfile.TarInfo("././@PaxHeader")
        header.type = tarfile.XHDTYPE
        header.size = mib * MIB
        archive.addfile(header, _Zeros(header.size))
        add_member(archive, "cifar-10-batches-py/data_batch_1", batch)
    return path
