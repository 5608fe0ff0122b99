"""The PaddlePaddle bridge: read `.pdparams` / `.pdopt` without paddle, write `.pdparams` that
`paddle.load` reads.

`paddle.save(layer.state_dict(), path)` pickles a dict of NumPy arrays plus a
`'StructuredToParameterName@@'` table of parameter names; with pickle protocol 2 or 3, arrays
over 1 GiB are split into `key@@.N` slices listed under `'UnpackBigParamInfor@@'`; tensors
outside a flat state dict are pickled as `(name, ndarray)` tuples. Reading goes through the
restricted unpickler (NumPy arrays and plain containers only); writing is a plain pickle.

    weights = framework.interop.paddle.load_state_dict("resnet18.pdparams")
    model.set_state_dict(weights)
    framework.interop.paddle.save_state_dict(model.state_dict(), "resnet18.pdparams")
"""

from __future__ import annotations

import math
import os
import pickle
import struct
import tempfile
from collections.abc import Callable
from typing import IO, Any

import numpy as np

from framework.interop.pickle_globals import BUILTIN_GLOBALS, NUMPY_GLOBALS
from framework.interop.safe_unpickle import (
    DEFAULT_MAX_BYTES,
    MAX_NESTING,
    CheckpointError,
    CheckpointTooLargeError,
    MemoryBudget,
    UnsafePickleError,
    brief_repr,
    load_pickle,
    open_weight_file,
)

__all__ = [
    "CheckpointError",
    "CheckpointTooLargeError",
    "UnsafePickleError",
    "load_state_dict",
    "save_state_dict",
]

NAME_TABLE_KEY = "StructuredToParameterName@@"
BIG_PARAM_KEY = "UnpackBigParamInfor@@"  # Paddle's spelling
PADDLE_GLOBALS = {**NUMPY_GLOBALS, **BUILTIN_GLOBALS}
_MAX_SLICE_BYTES = 2**30 - 1


def load_state_dict(
    path: str | os.PathLike,
    keep_name_table: bool = False,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    name: str | None = None,
) -> dict[str, Any]:
    """The dict a `paddle.save` file (`.pdparams`, `.pdopt`) holds, arrays as NumPy arrays.

        weights = load_state_dict("model.pdparams")   # {'conv1.weight': array(...), ...}
        weights = load_state_dict("upload-3f2a.pdparams", max_bytes=2**30, name="model.pdparams")

    Split big parameters are joined back, pickled tensors `(name, array)` become arrays, and
    the parameter-name table is dropped unless `keep_name_table`. A file that names anything
    but arrays and plain containers raises UnsafePickleError without running it. Files written
    by `framework.save` (safetensors) are read too.

    The load allocates at most `max_bytes`, and at most what a file of its size can hold
    (`safe_unpickle.MemoryBudget`); a file asking for more raises `CheckpointTooLargeError`
    before allocating it. Messages call the file `name` (default: its base name, never its
    folder).
    """
    stream, where = open_weight_file(path, name)
    with stream:
        size = os.fstat(stream.fileno()).st_size
        budget = MemoryBudget(where, size, max_bytes)
        head = stream.read(16)
        if _is_safetensors(head, size):
            budget.charge(size, "the tensors of a safetensors file")  # they are its bytes
            return _load_safetensors(os.fspath(path), where)
        if head[:1] != b"\x80":
            raise CheckpointError(_not_paddle(where, head))
        stream.seek(0)
        obj = load_pickle(stream, PADDLE_GLOBALS, where, encoding="latin1", budget=budget)
    if not isinstance(obj, dict):
        raise CheckpointError(f"{where} holds a {type(obj).__name__}, not a state dict")
    obj = _join_big_params(obj, where, budget)
    if not keep_name_table:
        obj.pop(NAME_TABLE_KEY, None)
    return _Plain(where).convert(obj, 0)


def save_state_dict(state_dict: dict[str, Any], path: str | os.PathLike, protocol: int = 4) -> None:
    """Write `state_dict` (Tensors or arrays, optionally nested with plain values as in an
    optimizer's state) as Paddle does, so `paddle.load(path)` returns it.

    `protocol` is 2, 3 or 4 like `paddle.save`; with 2 or 3, arrays over 1 GiB are split as
    Paddle splits them. The write is atomic.
    """
    if not isinstance(state_dict, dict):
        raise TypeError(f"save_state_dict expects a dict, got {type(state_dict).__name__}")
    if protocol not in (2, 3, 4):
        raise ValueError(f"protocol must be 2, 3 or 4 (as paddle.save), got {protocol}")
    saved: dict[str, Any] = {}
    names: dict[str, str] = {}
    for key, value in state_dict.items():
        saved[key] = _to_saved(value, str(key))
        if isinstance(saved[key], np.ndarray):
            names[key] = getattr(value, "name", None) or str(key)
    saved[NAME_TABLE_KEY] = names
    if protocol < 4:
        saved = _split_big_params(saved)
    _atomic_write(os.fspath(path), lambda stream: pickle.dump(saved, stream, protocol=protocol))


# --- reading -----------------------------------------------------------------------------------
def _load_safetensors(path: str, where: str) -> dict[str, Any]:
    from framework.core.serialization import load

    try:
        return load(path, return_numpy=True)
    except ValueError as exc:  # its messages name the path; ours name the file
        raise CheckpointError(str(exc).replace(repr(path), where)) from None


def _is_safetensors(head: bytes, size: int) -> bool:
    if len(head) < 9:
        return False
    (length,) = struct.unpack("<Q", head[:8])
    return head[8:9] == b"{" and 8 + length <= size


def _not_paddle(where: str, head: bytes) -> str:
    if head[:4] == b"PK\x03\x04":
        return (
            f"{where} is a zip archive (a PyTorch checkpoint?), not a paddle.save pickle; use "
            "framework.interop.torch.load_state_dict"
        )
    return (
        f"{where} is not a paddle.save file (.pdparams / .pdopt are pickles; inference "
        "'.pdiparams' files use a different binary format)"
    )


def _join_big_params(obj: dict, where: str, budget: MemoryBudget) -> dict:
    info = obj.pop(BIG_PARAM_KEY, None)
    if info is None:
        return obj
    if not isinstance(info, dict):
        raise CheckpointError(f"{where}: corrupt {BIG_PARAM_KEY} table")
    for key, entry in info.items():
        try:
            parts = [obj.pop(part) for part in entry["slices"]]
            if not all(isinstance(part, np.ndarray) for part in parts):
                raise TypeError("a slice is not an array")
            budget.charge(sum(part.nbytes for part in parts), f"joining {brief_repr(key)}")
            obj[key] = np.concatenate(parts).reshape(tuple(entry["OriginShape"]))
        except CheckpointError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(
                f"{where}: cannot join the slices of {brief_repr(key)}: {exc}"
            ) from exc
    return obj


class _Plain:
    """OrderedDicts to dicts, pickled tensors `(name, ndarray)` to their arrays; an object
    the pickle shares is converted once (a pickle of 30 nested pairs of one list would be a
    billion lists otherwise), and nesting deeper than MAX_NESTING is refused."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.memo: dict[int, Any] = {}  # id of a pickled container -> its conversion

    def convert(self, obj: Any, depth: int) -> Any:
        if not isinstance(obj, dict | list | tuple):
            return obj
        if id(obj) in self.memo:
            return self.memo[id(obj)]
        if depth > MAX_NESTING:
            raise CheckpointError(
                f"{self.where} is nested too deeply to load (over {MAX_NESTING} levels)"
            )
        if isinstance(obj, dict):
            result: Any = {}
            self.memo[id(obj)] = result  # before the items: a dict may hold itself
            result.update((key, self.convert(value, depth + 1)) for key, value in obj.items())
        elif isinstance(obj, list):
            result = []
            self.memo[id(obj)] = result
            result.extend(self.convert(value, depth + 1) for value in obj)
        elif len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray):
            result = obj[1]
        else:
            result = tuple(self.convert(value, depth + 1) for value in obj)
        self.memo[id(obj)] = result
        return result


# --- writing -----------------------------------------------------------------------------------
def _to_saved(value: Any, where: str) -> Any:
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value)
    if hasattr(value, "numpy") and hasattr(value, "shape"):  # a framework Tensor
        return np.ascontiguousarray(value.numpy())
    if isinstance(value, dict):
        return {key: _to_saved(item, f"{where}.{key}") for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_to_saved(item, where) for item in value)
    if value is None or isinstance(value, bool | int | float | str | np.generic):
        return value
    raise TypeError(f"cannot save {type(value).__name__} at {where!r} in a .pdparams file")


def _split_big_params(saved: dict[str, Any]) -> dict[str, Any]:
    """Paddle's `_unpack_saved_dict`: protocol 2/3 pickles cannot hold objects over 4 GiB."""
    info: dict[str, Any] = {}
    result: dict[str, Any] = {}
    for key, value in saved.items():
        limit = _MAX_SLICE_BYTES // value.itemsize if isinstance(value, np.ndarray) else 0
        if not limit or value.size <= limit:
            result[key] = value
            continue
        flat = value.reshape(-1)
        parts = [f"{key}@@.{i}" for i in range(math.ceil(value.size / limit))]
        info[key] = {"OriginShape": value.shape, "slices": parts}
        for i, part in enumerate(parts):
            result[part] = flat[i * limit : (i + 1) * limit]
    if info:
        result[BIG_PARAM_KEY] = info
    return result


def _atomic_write(path: str, write: Callable[[IO[bytes]], None]) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pdparams")
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
