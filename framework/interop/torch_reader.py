"""Read files written by `torch.save` without torch: the zip format and the legacy format.

Zip format (torch >= 1.6): `<folder>/data.pkl` is the pickle; each storage it references by key
is the stored member `<folder>/data/<key>`; `<folder>/byteorder` says 'little' or 'big'.

Legacy format (`_use_new_zipfile_serialization=False`): five pickles or blobs back to back -- the
magic number, the protocol version, a sys-info dict, the object pickle (storages as persistent
ids), the list of storage keys -- then each storage as an int64 element count and its raw
little-endian bytes.
"""

from __future__ import annotations

import io
import os
import struct
import tarfile
import zipfile
import zlib
from typing import IO, Any

import numpy as np

from framework.interop.pickle_globals import ints
from framework.interop.safe_unpickle import (
    DEFAULT_MAX_BYTES,
    CheckpointError,
    MemoryBudget,
    brief_repr,
    load_pickle,
    open_weight_file,
)
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
_CHUNK = 1 << 20  # compressed members are inflated this much at a time


def read_checkpoint(
    path: str | os.PathLike, *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> Any:
    """The object a `torch.save` file holds, with tensors as NumPy arrays (see module doc).

    Allocations are charged to a MemoryBudget of the file's size and `max_bytes`; messages
    call the file `name` (default: its base name).
    """
    stream, where = open_weight_file(path, name)
    with stream:
        budget = MemoryBudget(where, os.fstat(stream.fileno()).st_size, max_bytes)
        head = stream.read(4)
        stream.seek(0)
        if head == _ZIP_MAGIC:
            try:
                archive = zipfile.ZipFile(stream)
            except (zipfile.BadZipFile, OSError) as exc:
                raise CheckpointError(
                    f"{where} is a truncated or corrupt zip archive: {exc}"
                ) from exc
            with archive:
                return _read_zip(archive, where, budget)
        if head[:2] == b"\x80\x02" or head[:1] == b"\x80":
            return _read_legacy(stream, where, budget)
        if _is_tar(stream):
            raise CheckpointError(
                f"{where} uses the tar format of PyTorch < 0.4, which is not supported; re-save "
                "it with a recent torch.save"
            )
    raise CheckpointError(
        f"{where} is not a PyTorch checkpoint (neither a torch.save zip archive nor a legacy "
        "torch.save pickle)"
    )


def _is_tar(stream: IO[bytes]) -> bool:
    try:
        return tarfile.is_tarfile(stream)
    except OSError:
        return False


# --- zip format --------------------------------------------------------------------------------
def _read_zip(archive: zipfile.ZipFile, where: str, budget: MemoryBudget) -> Any:
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
    big_endian = _zip_byteorder(archive, prefix, names, where, budget) == "big"
    storages: dict[str, Storage] = {}

    def persistent_load(pid: object) -> Storage:
        storage_type, key, numel = _storage_id(pid, 5, where)[:3]
        if key not in storages:
            storage = Storage(key, storage_type, numel, big_endian=big_endian)
            storage.buffer = _zip_member(archive, f"{prefix}data/{key}", names, where, budget)
            storages[key] = storage
        return storages[key]

    with io.BytesIO(_zip_member(archive, pickles[0], names, where, budget)) as stream:
        obj = load_pickle(stream, TORCH_GLOBALS, where, persistent_load, "utf-8", explain, budget)
    return materialize(obj, where, budget)


def _zip_byteorder(
    archive: zipfile.ZipFile, prefix: str, names: set[str], where: str, budget: MemoryBudget
) -> str:
    if prefix + "byteorder" not in names:
        return "little"  # files from before the byteorder record were written little-endian
    order = _zip_member(archive, prefix + "byteorder", names, where, budget).tobytes()
    if order not in (b"little", b"big"):
        raise CheckpointError(f"{where} has an unknown byte order {brief_repr(order)}")
    return order.decode("ascii")


def _zip_member(
    archive: zipfile.ZipFile, name: str, names: set[str], where: str, budget: MemoryBudget
) -> np.ndarray:
    """A member's bytes as a writable uint8 array, charged to `budget` before it is read.
    torch stores records uncompressed, so they are read straight into their buffer (one
    copy, not zipfile's two), CRC-checked; compressed ones are inflated in chunks, never
    past the size the archive claims for them (zipfile stops there and checks the CRC)."""
    if name not in names:
        raise CheckpointError(f"{where} is missing the record {brief_repr(name)}")
    info = archive.getinfo(name)
    budget.charge(info.file_size, f"the record {brief_repr(name)}")
    if info.compress_type != zipfile.ZIP_STORED or archive.fp is None:
        return _inflate_member(archive, info, where)
    stream = archive.fp
    stream.seek(info.header_offset)
    header = stream.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size or header[:4] != _ZIP_MAGIC:
        raise CheckpointError(f"{where}: corrupt archive (bad local header for {brief_repr(name)})")
    name_length, extra_length = _LOCAL_HEADER.unpack(header)[-2:]
    start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
    if start + info.file_size > os.fstat(stream.fileno()).st_size:
        raise CheckpointError(f"{where}: {brief_repr(name)} claims more bytes than the file holds")
    stream.seek(start)
    buffer = np.empty(info.file_size, np.uint8)  # not zero-filled: readinto writes it all
    if stream.readinto(memoryview(buffer)) != info.file_size or zlib.crc32(buffer) != info.CRC:
        raise CheckpointError(
            f"{where}: cannot read {brief_repr(name)} (corrupt archive: bad CRC-32)"
        )
    return buffer


def _inflate_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str) -> np.ndarray:
    buffer = np.empty(info.file_size, np.uint8)
    filled = 0
    try:
        with archive.open(info) as member:
            while filled < info.file_size:
                chunk = member.read(min(_CHUNK, info.file_size - filled))
                if not chunk:
                    break
                buffer[filled : filled + len(chunk)] = np.frombuffer(chunk, np.uint8)
                filled += len(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raise CheckpointError(
            f"{where}: cannot read {brief_repr(info.filename)} (corrupt archive): {exc}"
        ) from exc
    except RuntimeError as exc:  # an encrypted member
        raise CheckpointError(f"{where}: cannot read {brief_repr(info.filename)}: {exc}") from exc
    if filled != info.file_size:
        raise CheckpointError(f"{where}: {brief_repr(info.filename)} is shorter than it claims")
    return buffer


def _storage_id(pid: object, length: int, where: str) -> tuple[StorageType, str, int, Any]:
    """Check a persistent id `('storage', type, key, location, numel[, view])`."""
    if isinstance(pid, tuple) and pid and pid[0] in ("module", b"module"):
        raise CheckpointError(
            f"{where} holds a pickled nn.Module (torch.save(model)); only state dicts of "
            "tensors can be read -- save model.state_dict() instead"
        )
    if not isinstance(pid, tuple) or len(pid) != length or pid[0] not in ("storage", b"storage"):
        raise CheckpointError(f"{where}: unexpected persistent id {brief_repr(pid)}")
    storage_type, key, _location, numel = pid[1:5]
    if not isinstance(storage_type, StorageType):
        raise CheckpointError(f"{where}: unknown storage type {brief_repr(storage_type)}")
    if isinstance(key, bytes):
        key = key.decode("ascii")
    if not isinstance(key, str) or not isinstance(numel, int) or numel < 0:
        raise CheckpointError(f"{where}: corrupt storage id {brief_repr(pid)}")
    view = pid[5] if length == 6 else None
    if view is not None and not (
        isinstance(view, tuple) and len(view) == 3 and ints(view[1:]) and isinstance(view[0], str)
    ):
        raise CheckpointError(f"{where}: corrupt storage view {brief_repr(view)}")
    return storage_type, key, numel, view


# --- legacy format -----------------------------------------------------------------------------
def _read_legacy(stream: IO[bytes], where: str, budget: MemoryBudget) -> Any:
    magic = load_pickle(stream, {}, where, budget=budget)
    if magic != LEGACY_MAGIC:
        raise CheckpointError(f"{where} is a pickle but not a torch.save file (no magic number)")
    protocol = load_pickle(stream, {}, where, budget=budget)
    if protocol != LEGACY_PROTOCOL:
        raise CheckpointError(
            f"{where}: unsupported legacy protocol version {brief_repr(protocol)}"
        )
    sys_info = load_pickle(stream, {}, where, budget=budget)
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

    obj = load_pickle(stream, TORCH_GLOBALS, where, persistent_load, "utf-8", explain, budget)
    keys = load_pickle(stream, {}, where, budget=budget)
    if not isinstance(keys, list):
        raise CheckpointError(f"{where}: corrupt storage key list")
    for key in keys:
        if key not in roots:
            raise CheckpointError(
                f"{where}: storage {brief_repr(key)} is stored but never referenced"
            )
        roots[key].buffer = _legacy_storage(stream, roots[key], where, budget)
    return materialize(obj, where, budget)


def _legacy_storage(
    stream: IO[bytes], storage: Storage, where: str, budget: MemoryBudget
) -> np.ndarray:
    header = stream.read(8)
    if len(header) != 8:
        raise CheckpointError(
            f"{where} is truncated (storage {brief_repr(storage.key)} is missing)"
        )
    (count,) = struct.unpack("<q", header)
    nbytes = count * storage.dtype.numpy_dtype.itemsize
    if count < 0 or count < storage.count:
        raise CheckpointError(
            f"{where}: corrupt size {count} for storage {brief_repr(storage.key)}"
        )
    budget.charge(nbytes, f"storage {brief_repr(storage.key)}")
    if stream.tell() + nbytes > os.fstat(stream.fileno()).st_size:
        raise CheckpointError(
            f"{where} is truncated (storage {brief_repr(storage.key)} is incomplete)"
        )
    buffer = np.empty(nbytes, np.uint8)
    if stream.readinto(memoryview(buffer)) != nbytes:
        raise CheckpointError(
            f"{where} is truncated (storage {brief_repr(storage.key)} is incomplete)"
        )
    return buffer
