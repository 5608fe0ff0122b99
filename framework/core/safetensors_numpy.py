"""The safetensors format in NumPy alone, for installs without the `safetensors` package.

The framework wheel (`make wheel`) needs NumPy only, so an inference package runs on a machine
with nothing else. `framework.core.serialization` and `framework.jit.serialization` use the
`safetensors` package when it is installed (it is faster for huge files) and this module
otherwise. It implements the subset of `safetensors.numpy` they call, with the same names:

    save(arrays, metadata) -> bytes      load(data) -> dict      load_file(path) -> dict
    with safe_open(path, framework="np") as f: f.keys(), f.get_tensor(key), f.metadata()

The layout (https://github.com/huggingface/safetensors): an 8-byte little-endian header size,
a JSON header {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}
padded with spaces to a multiple of 8, then the raw little-endian bytes of every tensor.
Reading validates every offset against the file before any array is built.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

import numpy as np

__all__ = ["SafetensorError", "load", "load_file", "safe_open", "save"]

_DTYPES = {
    "F64": np.float64,
    "F32": np.float32,
    "F16": np.float16,
    "I64": np.int64,
    "I32": np.int32,
    "I16": np.int16,
    "I8": np.int8,
    "U64": np.uint64,
    "U32": np.uint32,
    "U16": np.uint16,
    "U8": np.uint8,
    "BOOL": np.bool_,
}
_CODES = {np.dtype(dtype): code for code, dtype in _DTYPES.items()}
# The reference writer orders tensors by this rank of their dtype (its enum order), then by
# name; following it makes equal inputs give the same bytes with either implementation.
_WRITE_RANK = {
    code: rank
    for rank, code in enumerate(
        ["BOOL", "U8", "I8", "I16", "U16", "F16", "I32", "U32", "F32", "F64", "I64", "U64"]
    )
}
# A header larger than this is not a weights file (the reference implementation's limit).
_MAX_HEADER = 100_000_000


class SafetensorError(Exception):
    """The bytes are not a valid safetensors file (the `safetensors` package's name)."""


def save(tensor_dict: dict[str, np.ndarray], metadata: dict[str, str] | None = None) -> bytes:
    """The safetensors bytes of `tensor_dict` (name -> array), with optional str metadata."""
    header: dict[str, Any] = {}
    if metadata:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise SafetensorError("metadata must map str to str")
        header["__metadata__"] = dict(metadata)
    chunks: list[bytes] = []
    offset = 0
    coded = []
    for name, array in tensor_dict.items():
        array = np.asarray(array)
        code = _CODES.get(array.dtype.newbyteorder("="))
        if code is None:
            raise SafetensorError(f"{name!r}: dtype {array.dtype} has no safetensors code")
        coded.append((-_WRITE_RANK[code], name, code, array))
    for _rank, name, code, array in sorted(coded, key=lambda item: item[:2]):
        data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
        header[name] = {
            "dtype": code,
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def _parse_header(data: bytes | memoryview, total_size: int) -> tuple[dict[str, Any], int]:
    """(header dict, offset of the data section) from the file's first bytes."""
    if total_size < 8:
        raise SafetensorError("file too small to hold a safetensors header")
    (size,) = struct.unpack("<Q", bytes(data[:8]))
    if size > _MAX_HEADER or 8 + size > total_size:
        raise SafetensorError(f"header size {size} does not fit a file of {total_size} bytes")
    try:
        header = json.loads(bytes(data[8 : 8 + size]))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SafetensorError(f"header is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise SafetensorError("header is not a JSON object")
    data_size = total_size - 8 - size
    for name, info in header.items():
        if name != "__metadata__":
            _check_entry(name, info, data_size)
    return header, 8 + size


def _check_entry(name: str, info: Any, data_size: int) -> None:
    try:
        dtype = np.dtype(_DTYPES[info["dtype"]])
        shape = [int(d) for d in info["shape"]]
        begin, end = (int(v) for v in info["data_offsets"])
    except (KeyError, TypeError, ValueError):
        raise SafetensorError(f"{name!r}: malformed header entry {info!r}") from None
    if any(d < 0 for d in shape) or not 0 <= begin <= end <= data_size:
        raise SafetensorError(f"{name!r}: offsets {begin}..{end} outside the data section")
    if end - begin != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
        raise SafetensorError(f"{name!r}: {end - begin} bytes do not hold {info['dtype']}{shape}")


def _array(data: bytes | memoryview, base: int, info: dict[str, Any]) -> np.ndarray:
    begin, end = info["data_offsets"]
    dtype = np.dtype(_DTYPES[info["dtype"]]).newbyteorder("<")
    count = (end - begin) // dtype.itemsize
    flat = np.frombuffer(data, dtype=dtype, count=count, offset=base + begin)
    # A copy in native byte order: callers own their arrays, as with the reference loader.
    return flat.astype(dtype.newbyteorder("="), copy=True).reshape(info["shape"])


def load(data: bytes) -> dict[str, np.ndarray]:
    """Every tensor in the safetensors bytes `data`."""
    header, base = _parse_header(memoryview(data), len(data))
    return {k: _array(data, base, v) for k, v in header.items() if k != "__metadata__"}


def load_file(filename: str | os.PathLike) -> dict[str, np.ndarray]:
    """Every tensor in the safetensors file `filename`."""
    with safe_open(filename, framework="np") as stream:
        return {key: stream.get_tensor(key) for key in stream.keys()}


class safe_open:  # noqa: N801 - the safetensors package's name
    """`with safe_open(path, framework="np") as f:` keys(), get_tensor(name), metadata()."""

    def __init__(self, filename: str | os.PathLike, framework: str = "np", device: str = "cpu"):
        if framework not in ("np", "numpy"):
            raise SafetensorError(f"framework {framework!r} is not supported here; use 'np'")
        with open(filename, "rb") as stream:
            self._data = stream.read()
        self._header, self._base = _parse_header(memoryview(self._data), len(self._data))

    def __enter__(self) -> safe_open:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._data = b""

    def keys(self) -> list[str]:
        return sorted(k for k in self._header if k != "__metadata__")

    def metadata(self) -> dict[str, str] | None:
        return self._header.get("__metadata__")

    def get_tensor(self, name: str) -> np.ndarray:
        if name not in self._header or name == "__metadata__":
            raise SafetensorError(f"no tensor named {name!r}")
        return _array(self._data, self._base, self._header[name])
