"""What a weight pickle may name besides its format's own tensors: NumPy arrays, dtypes and
scalars, and plain builtin containers -- each re-implemented to check its arguments and to
charge what it allocates to the load's budget (`safe_unpickle.charge`) before allocating it.

A plain `bytearray(n)` or `numpy.ndarray(shape)` would allocate whatever the file asks;
`list(x)` called a million times on one memoized `x` copies it a million times.

    obj = load_pickle(stream, NUMPY_GLOBALS | BUILTIN_GLOBALS, "'model.pdparams'")
"""

from __future__ import annotations

import math
import pickle
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from framework.interop.safe_unpickle import (
    CheckpointError,
    UnsafePickleError,
    brief_repr,
    charge,
    marker_class,
)

__all__ = ["BUILTIN_GLOBALS", "MAX_DIMS", "NDARRAY_MARKER", "NUMPY_GLOBALS", "ints"]

NDARRAY_MARKER = marker_class("numpy.ndarray")
MAX_DIMS = 64  # NumPy's own limit; a longer shape is corrupt
# What a container costs per item it copies: a pointer for a list, a hash-table entry for sets
# and dicts, a new object when iterating a string (non-Latin-1 characters are not cached).
_ITEM_BYTES = 64
_ORDERED_ITEM_BYTES = 128  # a dict entry plus OrderedDict's linked-list node


def ints(values: object) -> bool:
    """Whether `values` is a list or tuple of non-negative ints (a shape, a stride)."""
    return isinstance(values, tuple | list) and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values
    )


def _shape(shape: object, what: str) -> tuple[int, ...]:
    if not isinstance(shape, tuple) or not ints(shape) or len(shape) > MAX_DIMS:
        raise CheckpointError(f"corrupt pickled {what}: bad shape {brief_repr(shape)}")
    return shape


# --- NumPy -------------------------------------------------------------------------------------
def _dtype(obj: object, align: object = False, copy: object = True) -> np.dtype:
    """`numpy.dtype` as NumPy pickles it: from a short type string ('f4', 'V16', '<U8');
    fields and subarrays come afterwards through `dtype.__setstate__` (BUILD)."""
    if isinstance(obj, bytes):
        obj = obj.decode("latin-1")
    if not isinstance(obj, str | np.dtype) or len(str(obj)) > 64:
        raise CheckpointError(f"corrupt pickled NumPy dtype {brief_repr(obj)}")
    return np.dtype(obj, align=bool(align), copy=bool(copy))


def _reconstruct(subtype: object, shape: object, dtype: object) -> np.ndarray:
    """`numpy.core.multiarray._reconstruct`: an empty base array that `BUILD` then fills with
    `ndarray.__setstate__` (shape, dtype and the raw bytes)."""
    if subtype is not NDARRAY_MARKER:
        raise UnsafePickleError(
            "numpy.core.multiarray._reconstruct", why="its subtype must be numpy.ndarray"
        )
    shape = _shape(shape, "NumPy array")
    dtype = dtype if isinstance(dtype, np.dtype) else _dtype(dtype)
    # a subarray dtype ('f4', (1000,)) counts in itemsize
    charge(math.prod(shape) * dtype.itemsize, f"a NumPy array of shape {brief_repr(shape)}")
    return np.ndarray.__new__(np.ndarray, shape, dtype)


def _scalar(dtype: object, data: object = None) -> Any:
    """`numpy.core.multiarray.scalar`: a NumPy scalar from its dtype and raw bytes."""
    if not isinstance(dtype, np.dtype):
        raise CheckpointError(f"corrupt pickled NumPy scalar: dtype {brief_repr(dtype)}")
    if dtype.hasobject:
        return data
    if isinstance(data, str):  # Python 2 pickles read with encoding='latin1'
        data = data.encode("latin1")
    if not isinstance(data, bytes | bytearray) or len(data) != dtype.itemsize:
        raise CheckpointError(f"corrupt pickled NumPy scalar of dtype {dtype}")
    charge(dtype.itemsize, "a NumPy scalar")
    return np.frombuffer(bytes(data), dtype=dtype)[0]


def _frombuffer(buffer: object, dtype: object, shape: object, order: object) -> np.ndarray:
    """`numpy.core.numeric._frombuffer` (protocol 5 arrays): checked size, then a reshape."""
    if isinstance(buffer, pickle.PickleBuffer):
        buffer = buffer.raw()
    if not isinstance(buffer, bytes | bytearray | memoryview) or not isinstance(dtype, np.dtype):
        raise CheckpointError("corrupt pickled NumPy array (protocol 5)")
    if order not in ("C", "F"):
        raise CheckpointError("corrupt pickled NumPy array (protocol 5)")
    shape = _shape(shape, "NumPy array (protocol 5)")
    nbytes = memoryview(buffer).nbytes
    if math.prod(shape) * dtype.itemsize != nbytes:
        raise CheckpointError(f"pickled NumPy array: {nbytes} bytes for shape {shape}")
    charge(nbytes, f"a NumPy array of shape {brief_repr(shape)}")
    return np.frombuffer(bytearray(buffer), dtype=dtype).reshape(shape, order=order)


# --- builtins ----------------------------------------------------------------------------------
_SIZED = (list, tuple, dict, set, frozenset, str, bytes, bytearray)


def _items(source: object, what: str) -> int:
    """How many items `what` copies from `source`, which must be a plain container."""
    if not isinstance(source, _SIZED):
        raise CheckpointError(f"corrupt pickled {what} from a {type(source).__name__}")
    return len(source)


def _container(kind: type) -> Callable[..., object]:
    """`set`, `frozenset`, `list` or `tuple`, charged for the items they copy."""

    def build(*args: object) -> object:
        if len(args) > 1:
            raise CheckpointError(f"corrupt pickled {kind.__name__}")
        if args:
            charge(_items(args[0], kind.__name__) * _ITEM_BYTES, f"a {kind.__name__}")
        return kind(*args)

    return build


# How pickle writes a bytearray's bytes as text (protocols 0-2, Python 2's too): latin-1.
_LATIN1_ARGUMENTS = {(e, *errors) for e in ("latin-1", "latin1") for errors in ((), ("strict",))}


def _byte_string(kind: type[bytes] | type[bytearray]) -> Callable[..., object]:
    """`bytes` or `bytearray`: from a length (zero-filled), from bytes or from latin-1 text
    (as protocols 0-2 pickle a bytearray), charged for the bytes it makes. Other encodings
    are refused: some make ten bytes of a character (`unicode_escape`, an error handler's
    `backslashreplace`), and naming one imports its codec."""

    def build(source: object = b"", *encoding: object) -> object:
        if isinstance(source, int) and not isinstance(source, bool):
            nbytes = source
        elif isinstance(source, str):
            if encoding not in _LATIN1_ARGUMENTS:
                raise UnsafePickleError(
                    f"builtins.{kind.__name__}",
                    why=f"text is admitted in latin-1 only (as pickle writes it), not "
                    f"{brief_repr(encoding)}",
                )
            nbytes = len(source)  # latin-1: one byte a character
        elif isinstance(source, bytes | bytearray | memoryview):
            nbytes = memoryview(source).nbytes
        else:
            nbytes = _items(source, kind.__name__)
        charge(max(nbytes, 0), f"a {kind.__name__}")
        return kind(source, *encoding)

    return build


def _latin1_encode(text: object, encoding: object = "utf-8", errors: object = "strict") -> bytes:
    """`_codecs.encode`, as protocol-2 pickles use it for `bytes`: latin-1 text only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise UnsafePickleError("_codecs.encode", why="only latin-1 text is admitted")
    charge(len(text), "bytes")
    return text.encode("latin1")


def _ordered_dict(*args: object) -> OrderedDict:
    if len(args) > 1 or (args and not isinstance(args[0], Mapping | list | tuple)):
        raise CheckpointError("corrupt pickled OrderedDict")
    if args:
        charge(len(args[0]) * _ORDERED_ITEM_BYTES, "an OrderedDict")
    return OrderedDict(*args)


_NUMPY_MODULES = ("numpy.core.multiarray", "numpy._core.multiarray")

NUMPY_GLOBALS: dict[tuple[str, str], object] = {
    ("numpy", "ndarray"): NDARRAY_MARKER,
    ("numpy", "dtype"): _dtype,
    **{(module, "_reconstruct"): _reconstruct for module in _NUMPY_MODULES},
    **{(module, "scalar"): _scalar for module in _NUMPY_MODULES},
    ("numpy.core.numeric", "_frombuffer"): _frombuffer,
    ("numpy._core.numeric", "_frombuffer"): _frombuffer,
}

BUILTIN_GLOBALS: dict[tuple[str, str], object] = {
    ("collections", "OrderedDict"): _ordered_dict,
    ("builtins", "set"): _container(set),
    ("builtins", "frozenset"): _container(frozenset),
    ("builtins", "slice"): slice,
    ("builtins", "complex"): complex,
    ("builtins", "bytearray"): _byte_string(bytearray),
    ("builtins", "bytes"): _byte_string(bytes),
    ("builtins", "tuple"): _container(tuple),
    ("builtins", "list"): _container(list),
    ("_codecs", "encode"): _latin1_encode,
}
