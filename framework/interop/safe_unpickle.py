"""A restricted unpickler for weight files: tensors and plain containers in, nothing else.

Torch `.pth` and Paddle `.pdparams` files are pickles, and a pickle can name any importable
callable (`os.system`, `builtins.exec`) and have the loader call it. `RestrictedUnpickler` only
resolves the globals in an explicit table, each mapped to OUR implementation (never the original
callable of another library), so loading a file cannot run code from it. Anything else stops the
load with `UnsafePickleError`, naming the global, before it is called.

    with open(path, "rb") as stream:
        obj = RestrictedUnpickler(stream, NUMPY_GLOBALS | BUILTIN_GLOBALS).load()
"""

from __future__ import annotations

import _compat_pickle
import copyreg
import os
import pickle
import pickletools
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import IO, Any

import numpy as np

__all__ = [
    "BUILTIN_GLOBALS",
    "NUMPY_GLOBALS",
    "CheckpointError",
    "RestrictedUnpickler",
    "UnsafePickleError",
    "check_readable",
    "marker_class",
]


class CheckpointError(ValueError):
    """A weight file that cannot be read: truncated, corrupt, or of an unsupported kind."""


class UnsafePickleError(CheckpointError, pickle.UnpicklingError):
    """The pickle names a global outside the allow-list (`os.system`, an arbitrary class...).

    Raised by `find_class`, before anything the file names is called.
    """

    def __init__(self, qualified_name: str, where: str = "the pickle", why: str = "") -> None:
        self.qualified_name = qualified_name
        reason = why or "it is not a tensor, an array or a plain container"
        super().__init__(
            f"refusing to load {where}: it asks for '{qualified_name}', and {reason}. "
            "Only tensors, NumPy arrays and plain containers are admitted; nothing from the "
            "file was executed."
        )


def marker_class(qualified_name: str) -> type:
    """A stand-in for a class that may appear as an argument (a type tag) but never be built.

    `numpy.ndarray` is the `subtype` argument of `_reconstruct`, and `torch.Tensor` that of
    `_rebuild_from_type_v2`; returning the real class would let `REDUCE` or `NEWOBJ` call it
    with arguments of the file's choosing.
    """

    def refuse(cls: type, *args: object, **kwargs: object) -> None:
        raise UnsafePickleError(qualified_name, why="it may only be used as a type tag")

    return type(f"Marker[{qualified_name}]", (), {"__new__": refuse, "name": qualified_name})


NDARRAY_MARKER = marker_class("numpy.ndarray")


def _reconstruct(subtype: object, shape: object, dtype: object) -> np.ndarray:
    """`numpy.core.multiarray._reconstruct`: an empty base array that `BUILD` then fills with
    `ndarray.__setstate__` (shape, dtype and the raw bytes)."""
    if subtype is not NDARRAY_MARKER:
        raise UnsafePickleError(
            "numpy.core.multiarray._reconstruct", why="its subtype must be numpy.ndarray"
        )
    if not isinstance(shape, tuple) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise CheckpointError(f"corrupt pickled NumPy array: bad shape {shape!r}")
    if isinstance(dtype, bytes):
        dtype = dtype.decode("latin1")
    return np.ndarray.__new__(np.ndarray, shape, np.dtype(dtype))


def _scalar(dtype: object, data: object = None) -> Any:
    """`numpy.core.multiarray.scalar`: a NumPy scalar from its dtype and raw bytes."""
    if not isinstance(dtype, np.dtype):
        raise CheckpointError(f"corrupt pickled NumPy scalar: dtype {dtype!r}")
    if dtype.hasobject:
        return data
    if isinstance(data, str):  # Python 2 pickles read with encoding='latin1'
        data = data.encode("latin1")
    if not isinstance(data, bytes | bytearray) or len(data) != dtype.itemsize:
        raise CheckpointError(f"corrupt pickled NumPy scalar of dtype {dtype}")
    return np.frombuffer(bytes(data), dtype=dtype)[0]


def _frombuffer(buffer: object, dtype: object, shape: object, order: object) -> np.ndarray:
    """`numpy.core.numeric._frombuffer` (protocol 5 arrays): checked size, then a reshape."""
    if isinstance(buffer, pickle.PickleBuffer):
        buffer = buffer.raw()
    if not isinstance(buffer, bytes | bytearray | memoryview) or not isinstance(dtype, np.dtype):
        raise CheckpointError("corrupt pickled NumPy array (protocol 5)")
    if not isinstance(shape, tuple) or order not in ("C", "F"):
        raise CheckpointError("corrupt pickled NumPy array (protocol 5)")
    count = int(np.prod(shape, dtype=np.int64))
    if count * dtype.itemsize != len(memoryview(buffer).cast("B")):
        raise CheckpointError(f"pickled NumPy array: {len(buffer)} bytes for shape {shape}")
    return np.frombuffer(bytearray(buffer), dtype=dtype).reshape(shape, order=order)


def _latin1_encode(text: object, encoding: object = "utf-8", errors: object = "strict") -> bytes:
    """`_codecs.encode`, as protocol-2 pickles use it for `bytes`: latin-1 text only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise UnsafePickleError("_codecs.encode", why="only latin-1 text is admitted")
    return text.encode("latin1")


def _ordered_dict(*args: object) -> OrderedDict:
    if args and not isinstance(args[0], Mapping | list | tuple):
        raise CheckpointError("corrupt pickled OrderedDict")
    return OrderedDict(*args)


_NUMPY_MODULES = ("numpy.core.multiarray", "numpy._core.multiarray")

NUMPY_GLOBALS: dict[tuple[str, str], object] = {
    ("numpy", "ndarray"): NDARRAY_MARKER,
    ("numpy", "dtype"): np.dtype,
    **{(module, "_reconstruct"): _reconstruct for module in _NUMPY_MODULES},
    **{(module, "scalar"): _scalar for module in _NUMPY_MODULES},
    ("numpy.core.numeric", "_frombuffer"): _frombuffer,
    ("numpy._core.numeric", "_frombuffer"): _frombuffer,
}

BUILTIN_GLOBALS: dict[tuple[str, str], object] = {
    ("collections", "OrderedDict"): _ordered_dict,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("builtins", "slice"): slice,
    ("builtins", "complex"): complex,
    ("builtins", "bytearray"): bytearray,
    ("builtins", "bytes"): bytes,
    ("builtins", "tuple"): tuple,
    ("builtins", "list"): list,
    ("_codecs", "encode"): _latin1_encode,
}


class RestrictedUnpickler(pickle.Unpickler):
    """An Unpickler that resolves only the globals in `allowed` and hands persistent ids to
    `persistent_load` (a callable), refusing them when none is given.

    `allowed` maps `(module, name)` to the object to use instead; `refuse` may map a module
    prefix or a qualified name to an explanation for a better error message.
    """

    def __init__(
        self,
        file: IO[bytes],
        allowed: Mapping[tuple[str, str], object],
        persistent_load: Callable[[object], object] | None = None,
        where: str = "the pickle",
        encoding: str = "ASCII",
        explain: Callable[[str, str], object] | None = None,
    ) -> None:
        super().__init__(file, encoding=encoding)
        self._allowed = allowed
        self._persistent = persistent_load
        self._where = where
        self._explain = explain

    def find_class(self, module: str, name: str) -> Any:
        # Protocol 0-2 pickles name Python 2 modules (`__builtin__`, `copy_reg`); map them as
        # pickle's own find_class does, then check the Python 3 name against the table.
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        found = self._allowed.get((module, name))
        if found is not None:
            return found
        if self._explain is not None:
            special = self._explain(module, name)  # may raise a more specific error
            if special is not None:
                return special
        raise UnsafePickleError(f"{module}.{name}", self._where)

    def persistent_load(self, pid: object) -> Any:
        if self._persistent is None:
            raise UnsafePickleError(
                f"persistent id {pid!r}", self._where, "this format has no persistent ids"
            )
        return self._persistent(pid)


def check_readable(path: str | os.PathLike) -> str:
    """The path as a string, or FileNotFoundError / IsADirectoryError with a plain message."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(2, f"no such weight file: {path!r}", path)
    if os.path.isdir(path):
        raise IsADirectoryError(21, f"expected a weight file, got the folder {path!r}", path)
    return path


def load_pickle(
    stream: IO[bytes],
    allowed: Mapping[tuple[str, str], object],
    where: str,
    persistent_load: Callable[[object], object] | None = None,
    encoding: str = "ASCII",
    explain: Callable[[str, str], object] | None = None,
) -> Any:
    """One pickle from `stream` through `RestrictedUnpickler`; a corrupt or truncated pickle
    raises CheckpointError (UnsafePickleError and CheckpointError pass through)."""
    _refuse_extension_codes(stream, where)
    unpickler = RestrictedUnpickler(stream, allowed, persistent_load, where, encoding, explain)
    try:
        return unpickler.load()
    except CheckpointError:
        raise
    except RecursionError as exc:
        raise CheckpointError(f"{where} is nested too deeply to load") from exc
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise CheckpointError(
            f"{where} is not a valid pickle (truncated or corrupt): {exc}"
        ) from exc
    except (AttributeError, UnicodeDecodeError, OverflowError, MemoryError) as exc:
        raise CheckpointError(
            f"{where} is not a valid pickle (truncated or corrupt): {exc}"
        ) from exc


def _refuse_extension_codes(stream: IO[bytes], where: str) -> None:
    """The EXT1/2/4 opcodes name a global by a number from `copyreg`'s extension registry, and
    the unpickler resolves a number it has seen before from a cache, without `find_class`.
    The registry is empty unless some library fills it; when it is not, scan for them first."""
    if not copyreg._inverted_registry:  # no codes registered: EXT* fails as unregistered
        return
    start = stream.tell()
    try:
        for opcode, argument, _ in pickletools.genops(stream):
            if opcode.name.startswith("EXT"):
                module, name = copyreg._inverted_registry.get(argument, ("?", str(argument)))
                raise UnsafePickleError(
                    f"{module}.{name}", where, "it is named by a copyreg extension code"
                )
    except CheckpointError:
        raise
    except Exception as exc:  # genops raises ValueError and others on a corrupt pickle
        raise CheckpointError(
            f"{where} is not a valid pickle (truncated or corrupt): {exc}"
        ) from exc
    stream.seek(start)
