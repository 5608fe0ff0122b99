"""Read files written by `torch.save` without torch: the zip format and the legacy format.

Zip format (torch >= 1.6): `<folder>/data.pkl` is the pickle; each storage it references by key
is the stored member `<folder>/data/<key>`; `<folder>/byteorder` says 'little' or 'big'.

Legacy format (`_use_new_zipfile_serialization=False`): five pickles or blobs back to back -- the
magic number, the protocol version, a sys-info dict, the object pickle (storages as persistent
ids), the list of storage keys -- then each storage as an int64 element count and its raw
little-endian bytes.
"""

from __future__ import annotations

import os
import struct
import tarfile
import zipfile
import zlib
from typing import IO, Any

import numpy as np

from framework.interop.safe_unpickle import CheckpointError, check_readable, load_pickle
from framework.interop.torch_pickle import (
    TORCH_GLOBALS,
    Storage,
    StorageType,
    explain,
    materialize,
)

__all__ = ["read_checkpoint"]

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
_ZIP_MAGIC = b"PK\x03\x04"
_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # signature ... file name length, extra length


def read_checkpoint(path: str | os.PathLike) -> Any:
    """The object a `torch.save` file holds, with tensors as NumPy arrays (see module doc)."""
    path = check_readable(path)
    with open(path, "rb") as stream:
        head = stream.read(4)
    where = repr(path)
    if head == _ZIP_MAGIC:
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise CheckpointError(f"{where} is a truncated or corrupt zip archive: {exc}") from exc
        with archive:
            return _read_zip(archive, where)
    if head[:2] == b"\x80\x02" or head[:1] == b"\x80":
        with open(path, "rb") as stream:
            return _read_legacy(stream, where)
    if _is_tar(path):
        raise CheckpointError(
            f"{where} uses the tar format of PyTorch < 0.4, which is not supported; re-save it "
            "with a recent torch.save"
        )
    raise CheckpointError(
        f"{where} is not a PyTorch checkpoint (neither a torch.save zip archive nor a legacy "
        "torch.save pickle)"
    )


def _is_tar(path: str) -> bool:
    try:
        return tarfile.is_tarfile(path)
    except OSError:
        return False


# --- zip format --------------------------------------------------------------------------------
def _read_zip(archive: zipfile.ZipFile, where: str) -> Any:
    names = set(archive.namelist())
    pickles = sorted(
        n for n in names if n == "data.pkl" or (n.endswith("/data.pkl") and n.count("/") == 1)
    )
    if not pickles:
        raise CheckpointError(f"{where} is a zip archive but not a torch.save file (no data.pkl)")
    prefix = pickles[0][: -len("data.pkl")]
    if prefix + "constants.pkl" in names or any(n.startswith(prefix + "code/") for n in names):
        raise CheckpointError(
            f"{where} is a TorchScript archive (torch.jit.save), which holds code; save the "
            "weights with torch.save(model.state_dict(), path) instead"
        )
    big_endian = _zip_byteorder(archive, prefix, names, where) == "big"
    storages: dict[str, Storage] = {}

    def persistent_load(pid: object) -> Storage:
        storage_type, key, numel = _storage_id(pid, 5, where)[:3]
        if key not in storages:
            storage = Storage(key, storage_type, numel, big_endian=big_endian)
            storage.buffer = _zip_member(archive, f"{prefix}data/{key}", names, where)
            storages[key] = storage
        return storages[key]

    with archive.open(pickles[0]) as stream:
        obj = load_pickle(stream, TORCH_GLOBALS, where, persistent_load, "utf-8", explain)
    return materialize(obj, where)


def _zip_byteorder(archive: zipfile.ZipFile, prefix: str, names: set[str], where: str) -> str:
    if prefix + "byteorder" not in names:
        return "little"  # files from before the byteorder record were written little-endian
    order = _read_member(archive, prefix + "byteorder", where).decode("ascii", "replace")
    if order not in ("little", "big"):
        raise CheckpointError(f"{where} has an unknown byte order {order!r}")
    return order


def _zip_member(archive: zipfile.ZipFile, name: str, names: set[str], where: str) -> np.ndarray:
    """A storage record's bytes as a writable uint8 array. torch stores records uncompressed,
    so they are read straight into their buffer (one copy, not zipfile's two), CRC-checked."""
    if name not in names:
        raise CheckpointError(f"{where} is missing the storage record {name!r}")
    info = archive.getinfo(name)
    if info.compress_type != zipfile.ZIP_STORED or archive.fp is None:
        return np.frombuffer(bytearray(_read_member(archive, name, where)), np.uint8)
    stream = archive.fp
    stream.seek(info.header_offset)
    header = stream.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != _ZIP_MAGIC:
        raise CheckpointError(f"{where}: corrupt archive (bad local header for {name!r})")
    name_length, extra_length = _LOCAL_HEADER.unpack(header)[-2:]
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    if start + info.file_size > os.fstat(stream.fileno()).st_size:
        raise CheckpointError(f"{where}: {name!r} claims more bytes than the file holds")
    stream.seek(start)
    buffer = np.empty(info.file_size, np.uint8)  # not zero-filled: readinto writes it all
    if stream.readinto(memoryview(buffer)) != info.file_size or zlib.crc32(buffer) != info.CRC:
        raise CheckpointError(f"{where}: cannot read {name!r} (corrupt archive: bad CRC-32)")
    return buffer


def _read_member(archive: zipfile.ZipFile, name: str, where: str) -> bytes:
    try:
        return archive.read(name)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise CheckpointError(f"{where}: cannot read {name!r} (corrupt archive): {exc}") from exc


def _storage_id(pid: object, length: int, where: str) -> tuple[StorageType, str, int, Any]:
    """Check a persistent id `('storage', type, key, location, numel[, view])`."""
    if isinstance(pid, tuple) and pid and pid[0] in ("module", b"module"):
        raise CheckpointError(
            f"{where} holds a pickled nn.Module (torch.save(model)); only state dicts of "
            "tensors can be read -- save model.state_dict() instead"
        )
    if not isinstance(pid, tuple) or len(pid) != length or pid[0] not in ("storage", b"storage"):
        raise CheckpointError(f"{where}: unexpected persistent id {pid!r}")
    storage_type, key, _location, numel = pid[1:5]
    if not isinstance(storage_type, StorageType):
        raise CheckpointError(f"{where}: unknown storage type {storage_type!r}")
    if isinstance(key, bytes):
        key = key.decode("ascii")
    if not isinstance(key, str) or not isinstance(numel, int) or numel < 0:
        raise CheckpointError(f"{where}: corrupt storage id {pid!r}")
    return storage_type, key, numel, pid[5] if length == 6 else None


# --- legacy format -----------------------------------------------------------------------------
def _read_legacy(stream: IO[bytes], where: str) -> Any:
    magic = load_pickle(stream, {}, where)
    if magic != LEGACY_MAGIC:
        raise CheckpointError(f"{where} is a pickle but not a torch.save file (no magic number)")
    protocol = load_pickle(stream, {}, where)
    if protocol != LEGACY_PROTOCOL:
        raise CheckpointError(f"{where}: unsupported legacy protocol version {protocol!r}")
    sys_info = load_pickle(stream, {}, where)
    if isinstance(sys_info, dict) and sys_info.get("little_endian") is False:
        raise CheckpointError(f"{where} was written on a big-endian machine (not supported)")
    roots: dict[str, Storage] = {}
    views: dict[str, Storage] = {}

    def persistent_load(pid: object) -> Storage:
        storage_type, key, numel, view = _storage_id(pid, 6, where)
        root = roots.setdefault(key, Storage(key, storage_type, numel))
        if view is None:
            return root
        view_key, offset, count = view
        if view_key not in views:
            views[view_key] = Storage(view_key, storage_type, count, offset, root)
        return views[view_key]

    obj = load_pickle(stream, TORCH_GLOBALS, where, persistent_load, "utf-8", explain)
    keys = load_pickle(stream, {}, where)
    if not isinstance(keys, list):
        raise CheckpointError(f"{where}: corrupt storage key list")
    for key in keys:
        if key not in roots:
            raise CheckpointError(f"{where}: storage {key!r} is stored but never referenced")
        roots[key].buffer = _legacy_storage(stream, roots[key], where)
    return materialize(obj, where)


def _legacy_storage(stream: IO[bytes], storage: Storage, where: str) -> np.ndarray:
    header = stream.read(8)
    if len(header) != 8:
        raise CheckpointError(f"{where} is truncated (storage {storage.key!r} is missing)")
    (count,) = struct.unpack("<q", header)
    nbytes = count * storage.dtype.numpy_dtype.itemsize
    if count < 0 or count < storage.count:
        raise CheckpointError(f"{where}: corrupt size {count} for storage {storage.key!r}")
    if stream.tell() + nbytes > os.fstat(stream.fileno()).st_size:
        raise CheckpointError(f"{where} is truncated (storage {storage.key!r} is incomplete)")
    buffer = np.empty(nbytes, np.uint8)
    if stream.readinto(memoryview(buffer)) != nbytes:
        raise CheckpointError(f"{where} is truncated (storage {storage.key!r} is incomplete)")
    return buffer
