"""Loading data pickles that may come from anywhere, such as CIFAR's batches, through the one
restricted unpickler the weight files use (`framework.interop.safe_unpickle`).

It admits dicts, lists, tuples, bytes, str, numbers, booleans, None and NumPy arrays and
scalars, each global mapped to a checked re-implementation (`interop.pickle_globals`); any
other global raises `UnsafePickleError` (a `pickle.UnpicklingError`) before anything is called.
Every load is charged to a `MemoryBudget` sized by the pickle, so a 50-byte pickle asking for a
4 GiB bytearray raises `CheckpointTooLargeError` before allocating it. Unlike weight files, data
files may not hold object arrays: their dtype is refused as it is unpickled.

    with open("data_batch_1", "rb") as f:
        batch = restricted_load(f, encoding="bytes", where="'data_batch_1'")
"""

from __future__ import annotations

import io
from typing import IO, Any

import numpy as np

from framework.interop.pickle_globals import BUILTIN_GLOBALS, NUMPY_GLOBALS
from framework.interop.safe_unpickle import UnsafePickleError, load_pickle

__all__ = ["restricted_load", "restricted_loads"]

_make_dtype = NUMPY_GLOBALS[("numpy", "dtype")]


def _data_globals(where: str) -> dict[tuple[str, str], object]:
    """The weight files' NumPy and builtin globals, with `numpy.dtype` refusing object dtypes
    (named after `where`, the file being loaded)."""

    def dtype(*args: object) -> np.dtype:
        made = _make_dtype(*args)
        if made.hasobject:
            raise UnsafePickleError(
                "numpy.dtype", where, f"its dtype {made} holds Python objects, not data"
            )
        return made

    return {**NUMPY_GLOBALS, **BUILTIN_GLOBALS, ("numpy", "dtype"): dtype}


def restricted_load(file: IO[bytes], encoding: str = "ASCII", where: str = "the pickle") -> Any:
    """The object pickled in `file` (seekable: its opcodes are priced before it is unpickled),
    as `pickle.load(file, encoding=...)` would return it, or UnsafePickleError /
    CheckpointTooLargeError / CheckpointError (all ValueErrors) saying why not. Messages call
    the file `where` ("'data_batch_1' in 'cifar-10-python.tar.gz'").

    The load may allocate at most what `MemoryBudget` allows a file of the bytes left in `file`.
    Python 2 pickles (CIFAR's) need `encoding="bytes"` or `"latin1"`.
    """
    return load_pickle(file, _data_globals(where), where, encoding=encoding)


def restricted_loads(data: bytes, encoding: str = "ASCII", where: str = "the pickle") -> Any:
    """`restricted_load` of a pickle held in memory."""
    return restricted_load(io.BytesIO(data), encoding, where)
