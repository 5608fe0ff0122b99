"""Loading pickles that may come from anywhere, without letting them run code.

A pickle can name any importable callable and call it (`os.system`, `eval`, ...). This
unpickler admits only what data files such as CIFAR's batches are made of: dicts, lists,
tuples, bytes, str, numbers, booleans, None and NumPy arrays and scalars of non-object
dtypes. Any other global is refused with `pickle.UnpicklingError` before anything is called.

    with open("data_batch_1", "rb") as f:
        batch = restricted_load(f, encoding="bytes")
"""

from __future__ import annotations

import io
import pickle
from typing import IO, Any

import numpy as np


def _checked_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.hasobject:
        raise pickle.UnpicklingError(
            f"refusing a NumPy array of dtype {dtype}: object arrays can hold arbitrary objects"
        )
    return dtype


def _dtype(*args: Any) -> np.dtype:
    return _checked_dtype(np.dtype(*args))


def _reconstruct(subtype: type, shape: Any, dtype: Any) -> np.ndarray:
    # An empty placeholder; its real dtype and data arrive in BUILD, from `_dtype` above.
    from numpy._core.multiarray import _reconstruct

    if subtype is not np.ndarray:
        raise pickle.UnpicklingError(f"refusing to build an array of type {subtype!r}")
    return _reconstruct(np.ndarray, shape, dtype)


def _scalar(dtype: np.dtype, *args: Any) -> np.generic:
    from numpy._core.multiarray import scalar

    return scalar(_checked_dtype(dtype), *args)


def _frombuffer(buffer: Any, dtype: np.dtype, shape: Any, order: str) -> np.ndarray:
    from numpy._core.numeric import _frombuffer

    return _frombuffer(buffer, _checked_dtype(dtype), shape, order)


def _encode(text: str, encoding: str = "latin1") -> bytes:
    # Python 3 writes bytes in protocol 2 as _codecs.encode(str, 'latin1').
    return text.encode(encoding)


_ALLOWED = {
    ("numpy", "dtype"): _dtype,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy.core.multiarray", "scalar"): _scalar,
    ("numpy._core.multiarray", "scalar"): _scalar,
    ("numpy.core.numeric", "_frombuffer"): _frombuffer,
    ("numpy._core.numeric", "_frombuffer"): _frombuffer,
    ("_codecs", "encode"): _encode,
    ("builtins", "bytes"): bytes,
    ("builtins", "bytearray"): bytearray,
    # protocol 0-2 pickles written by Python 2, or by Python 3 with fix_imports
    ("__builtin__", "bytes"): bytes,
    ("__builtin__", "bytearray"): bytearray,
}


class RestrictedUnpickler(pickle.Unpickler):
    """`pickle.Unpickler` that resolves only the globals NumPy data needs (see module doc)."""

    source = "pickle"

    def find_class(self, module: str, name: str) -> Any:
        try:
            return _ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(
                f"{self.source}: refusing to load global '{module}.{name}'. Only dicts, lists, "
                "tuples, bytes, str, numbers and NumPy arrays are allowed in this file; "
                "anything else could run code when loaded."
            ) from None


def restricted_load(file: IO[bytes], encoding: str = "ASCII", source: str | None = None) -> Any:
    """`pickle.load(file, encoding=...)` through `RestrictedUnpickler`. `source` names the
    file in error messages."""
    unpickler = RestrictedUnpickler(file, encoding=encoding)
    if source is not None:
        unpickler.source = source
    return unpickler.load()


def restricted_loads(data: bytes, encoding: str = "ASCII") -> Any:
    return restricted_load(io.BytesIO(data), encoding=encoding)
