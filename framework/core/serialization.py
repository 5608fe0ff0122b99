"""`framework.save` / `framework.load`: nested state dicts as one safetensors file, no pickle.

Tensors and NumPy arrays go into the safetensors body under readable keys (a flat state dict keeps
its own keys, so the file is an ordinary safetensors weight file). Everything else -- the nesting
of dicts, lists and tuples, Python scalars, strings and None, and which leaves were Tensors --
is a small JSON document stored in the file's `__metadata__` header. Loading never executes
anything from the file: it parses JSON and copies array bytes.

    framework.save(model.state_dict(), "model.pdparams")
    framework.save(opt.state_dict(), "model.pdopt")
    model.set_state_dict(framework.load("model.pdparams"))
"""

from __future__ import annotations

import io
import json
import os
import struct
import tempfile
from typing import Any

import numpy as np

from framework.core.backend import to_numpy
from framework.core.safetensors_io import SafetensorError, safe_open
from framework.core.safetensors_io import load as load_bytes
from framework.core.safetensors_io import save as save_bytes
from framework.core.tensor import Tensor

__all__ = ["load", "save"]

_STRUCTURE_KEY = "framework.structure"
_VERSION_KEY = "framework.format_version"
_VERSION = "1"
_SUPPORTED_KINDS = "biuf"


def save(obj: Any, path: str | os.PathLike | io.IOBase, protocol: int = 4, **configs: Any) -> None:
    """Save `obj` -- nested dicts/lists/tuples of Tensors, NumPy arrays, Python scalars,
    strings and None -- to `path` (a file path, created with its folders, or a binary file).

    `protocol` is accepted for Paddle compatibility; nothing is pickled. The write is atomic:
    a crash leaves either the old file or the new one.
    """
    encoder = _Encoder()
    structure = encoder.encode(obj, "")
    metadata = {_VERSION_KEY: _VERSION, _STRUCTURE_KEY: json.dumps(structure)}
    if hasattr(path, "write"):
        path.write(save_bytes(encoder.arrays, metadata=metadata))
        return
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".safetensors")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(save_bytes(encoder.arrays, metadata=metadata))
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def load(path: str | os.PathLike | io.IOBase, **configs: Any) -> Any:
    """Load what `save` wrote: the same structure, with Tensors where Tensors were saved
    (`return_numpy=True` gives NumPy arrays instead). A plain safetensors file without the
    framework's metadata loads as a flat dict of Tensors.
    """
    return_numpy = bool(configs.get("return_numpy", False))
    if hasattr(path, "read"):
        metadata, arrays = _read_stream(path)
        where = "the given file object"
    else:
        path = os.fspath(path)
        metadata, arrays = _read_file(path)
        where = repr(path)
    if metadata is None or _STRUCTURE_KEY not in metadata:
        return {k: v if return_numpy else Tensor(v) for k, v in arrays.items()}
    if metadata.get(_VERSION_KEY) != _VERSION:
        raise ValueError(
            f"{where} was saved in format version {metadata.get(_VERSION_KEY)!r}; "
            f"this framework reads version {_VERSION}"
        )
    try:
        structure = json.loads(metadata[_STRUCTURE_KEY])
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{where} is corrupt: its structure metadata is not JSON ({error})"
        ) from None
    return _Decoder(arrays, return_numpy, where).decode(structure)


# --- reading --------------------------------------------------------------------------------------
def _read_file(path: str) -> tuple[dict | None, dict]:
    if not os.path.exists(path):
        raise FileNotFoundError(f"no saved file at {path!r}")
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path!r} is a folder; framework.load expects a file")
    try:
        with safe_open(path, framework="np") as stream:
            metadata = stream.metadata()
            arrays = {key: stream.get_tensor(key) for key in stream.keys()}
    except SafetensorError as error:
        raise ValueError(
            f"{path!r} is not a valid framework save file (safetensors): {error}"
        ) from None
    return metadata, arrays


def _read_stream(stream: io.IOBase) -> tuple[dict | None, dict]:
    data = stream.read()
    try:
        (header_size,) = struct.unpack("<Q", data[:8])
        header = json.loads(data[8 : 8 + header_size])
        arrays = load_bytes(data)
    except (struct.error, ValueError, SafetensorError) as error:
        raise ValueError(f"not a valid framework save file (safetensors): {error}") from None
    return header.get("__metadata__"), {k: np.array(v) for k, v in arrays.items()}


# --- encoding -------------------------------------------------------------------------------------
class _Encoder:
    """Turns an object tree into a JSON tree plus a dict of arrays.

    JSON nodes: a JSON scalar stands for itself; every other node is an object with one tag:
    {"dict": {...}} (string keys), {"dict_items": [[key, value], ...]} (other keys),
    {"list": [...]}, {"tuple": [...]}, {"tensor": key, "stop_gradient": b, "name": s},
    {"ndarray": key}, {"numpy_scalar": key}.
    """

    def __init__(self) -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self._keys_by_id: dict[int, str] = {}
        self._keep_alive: list = []

    def encode(self, obj: Any, where: str) -> Any:
        if isinstance(obj, np.generic):  # before float: np.float64 is a float subclass
            return {"numpy_scalar": self._store(obj, lambda: np.asarray(obj), where)}
        if obj is None or isinstance(obj, bool | str):
            return obj
        if isinstance(obj, int | float):
            return int(obj) if isinstance(obj, int) else float(obj)
        if isinstance(obj, Tensor):
            key = self._store(obj, lambda: to_numpy(obj._data), where)
            return {"tensor": key, "stop_gradient": bool(obj.stop_gradient), "name": obj.name}
        if isinstance(obj, np.ndarray):
            return {"ndarray": self._store(obj, lambda: obj, where)}
        if isinstance(obj, dict):
            if all(isinstance(k, str) for k in obj):
                return {"dict": {k: self.encode(v, _join(where, k)) for k, v in obj.items()}}
            return {
                "dict_items": [
                    [self.encode(k, where), self.encode(v, _join(where, str(k)))]
                    for k, v in obj.items()
                ]
            }
        if isinstance(obj, list | tuple):
            items = [self.encode(v, _join(where, str(i))) for i, v in enumerate(obj)]
            return {"list" if isinstance(obj, list) else "tuple": items}
        raise TypeError(
            f"framework.save cannot store a {type(obj).__name__} (at {where or 'the top level'}); "
            "it stores nested dicts, lists and tuples of Tensors, NumPy arrays, numbers, "
            "strings and None"
        )

    def _store(self, obj: Any, to_array, where: str) -> str:
        if id(obj) in self._keys_by_id:  # the same object twice (tied weights) is stored once
            return self._keys_by_id[id(obj)]
        array = np.asarray(to_array())
        if not array.flags.c_contiguous:  # (ascontiguousarray would make 0-d arrays 1-d)
            array = array.copy(order="C")
        if array.dtype.kind not in _SUPPORTED_KINDS or array.dtype.byteorder == ">":
            raise TypeError(
                f"framework.save cannot store an array of dtype {array.dtype} "
                f"(at {where or 'the top level'})"
            )
        key = where or "tensor"
        suffix = 1
        while key in self.arrays:
            key = f"{where or 'tensor'}#{suffix}"
            suffix += 1
        self.arrays[key] = array
        self._keys_by_id[id(obj)] = key
        self._keep_alive.append(obj)  # ids stay unique while encoding
        return key


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# --- decoding -------------------------------------------------------------------------------------
class _Decoder:
    def __init__(self, arrays: dict, return_numpy: bool, where: str) -> None:
        self.arrays = arrays
        self.return_numpy = return_numpy
        self.where = where
        self._made: dict[tuple[str, str], Any] = {}

    def decode(self, node: Any) -> Any:
        if node is None or isinstance(node, bool | int | float | str):
            return node
        if not isinstance(node, dict) or len(node) == 0:
            raise self._corrupt(f"unexpected node {node!r}")
        if "dict" in node:
            return {k: self.decode(v) for k, v in node["dict"].items()}
        if "dict_items" in node:
            return {_hashable(self.decode(k)): self.decode(v) for k, v in node["dict_items"]}
        if "list" in node:
            return [self.decode(v) for v in node["list"]]
        if "tuple" in node:
            return tuple(self.decode(v) for v in node["tuple"])
        if "tensor" in node:
            return self._leaf("tensor", node["tensor"], node)
        if "ndarray" in node:
            return self._leaf("ndarray", node["ndarray"], node)
        if "numpy_scalar" in node:
            return self._leaf("numpy_scalar", node["numpy_scalar"], node)
        raise self._corrupt(f"unknown node {sorted(node)}")

    def _leaf(self, kind: str, key: str, node: dict) -> Any:
        if (kind, key) in self._made:
            return self._made[(kind, key)]
        if key not in self.arrays:
            raise self._corrupt(f"the array {key!r} it refers to is missing")
        array = self.arrays[key]
        if kind == "numpy_scalar":
            value = array[()]
        elif kind == "ndarray" or self.return_numpy:
            value = array
        else:
            value = Tensor(array, stop_gradient=bool(node.get("stop_gradient", True)))
            value.name = node.get("name")
        self._made[(kind, key)] = value
        return value

    def _corrupt(self, detail: str) -> ValueError:
        return ValueError(f"{self.where} is corrupt: {detail}")


def _hashable(key: Any) -> Any:
    return tuple(_hashable(k) for k in key) if isinstance(key, list | tuple) else key
