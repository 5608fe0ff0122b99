"""What a `torch.save` pickle may name, re-implemented on NumPy: storages, tensors, dtypes.

`torch.save` pickles each tensor as `torch._utils._rebuild_tensor_v2(storage, offset, size,
stride, ...)`, where `storage` is a persistent id naming a storage type (`torch.FloatStorage`)
and a key whose bytes sit elsewhere in the file. Here those globals resolve to the functions
below, which record what to build (`PendingTensor`); `materialize` turns the result into NumPy
arrays once the storage bytes are known. Nothing imports torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from framework.interop.pickle_globals import BUILTIN_GLOBALS, MAX_DIMS, NUMPY_GLOBALS, ints
from framework.interop.safe_unpickle import (
    MAX_NESTING,
    CheckpointError,
    MemoryBudget,
    UnsafePickleError,
    brief_repr,
    charge,
    marker_class,
)

__all__ = ["TORCH_GLOBALS", "PendingTensor", "Storage", "StorageType", "explain", "materialize"]

_PENDING_TENSOR_BYTES = 512  # the PendingTensor and its size and stride tuples, roughly


@dataclass(frozen=True)
class StorageType:
    """`torch.FloatStorage` and friends: the element dtype of a storage ('bfloat16' is kept as
    its name; its elements are read as uint16 and widened to float32)."""

    name: str
    dtype: str

    @property
    def numpy_dtype(self) -> np.dtype:
        return np.dtype(np.uint16 if self.dtype == "bfloat16" else self.dtype)


@dataclass(frozen=True)
class TorchDtype:
    """A pickled `torch.float32` (the dtype argument of `_rebuild_tensor_v3`)."""

    name: str
    dtype: str

    def __str__(self) -> str:
        return f"torch.{self.name}"


STORAGE_DTYPES = {
    "FloatStorage": "float32",
    "DoubleStorage": "float64",
    "HalfStorage": "float16",
    "BFloat16Storage": "bfloat16",
    "LongStorage": "int64",
    "IntStorage": "int32",
    "ShortStorage": "int16",
    "CharStorage": "int8",
    "ByteStorage": "uint8",
    "BoolStorage": "bool",
    "ComplexFloatStorage": "complex64",
    "ComplexDoubleStorage": "complex128",
    "UntypedStorage": "uint8",
}
TORCH_DTYPES = {
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
    "float16": "float16",
    "half": "float16",
    "bfloat16": "bfloat16",
    "int64": "int64",
    "long": "int64",
    "int32": "int32",
    "int": "int32",
    "int16": "int16",
    "short": "int16",
    "int8": "int8",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "bool": "bool",
    "complex64": "complex64",
    "cfloat": "complex64",
    "complex128": "complex128",
    "cdouble": "complex128",
}


@dataclass(eq=False)
class Storage:
    """A storage referenced by the pickle: `count` elements of `dtype` starting `offset`
    elements into the root storage `key`, whose bytes (`buffer`) are filled in by the reader."""

    key: str
    dtype: StorageType
    count: int
    offset: int = 0
    root: Storage | None = None
    buffer: np.ndarray | None = field(default=None, repr=False)  # the root's raw uint8 bytes
    big_endian: bool = False

    def elements(self, dtype: np.dtype | None = None) -> np.ndarray:
        """The storage's elements as a 1-D array (of `dtype` for untyped storages)."""
        root = self.root or self
        if root.buffer is None:
            raise CheckpointError(
                f"the checkpoint holds no data for storage {brief_repr(root.key)}"
            )
        order = ">" if root.big_endian else "<"
        typed_dtype = self.dtype.numpy_dtype.newbyteorder(order)
        item = typed_dtype.itemsize
        if root.buffer.size < (self.offset + self.count) * item:
            raise CheckpointError(
                f"storage {brief_repr(root.key)} is truncated: {root.buffer.size} bytes for "
                f"{self.offset + self.count} elements of {self.dtype.dtype}"
            )
        whole = root.buffer[: root.buffer.size // item * item].view(typed_dtype)
        typed = whole[self.offset : self.offset + self.count]
        if dtype is None:
            return typed
        raw = typed.view(np.uint8)
        if raw.size % dtype.itemsize:
            raise CheckpointError(
                f"storage {brief_repr(self.key)} does not hold whole {dtype} elements"
            )
        return raw.view(dtype.newbyteorder(order))


@dataclass(eq=False)
class PendingTensor:
    """A tensor to cut out of `storage` once its bytes are read."""

    storage: Storage
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]
    dtype: str | None = None  # set by _rebuild_tensor_v3 (an untyped storage)

    def materialize(self, budget: MemoryBudget) -> np.ndarray:
        """The tensor as a C-contiguous array of native byte order: a view of the storage
        when it is one already, else exactly one copy, charged to `budget` first."""
        name = self.dtype or self.storage.dtype.dtype
        wide = np.dtype(np.uint16 if name == "bfloat16" else name)
        elements = self.storage.elements(wide if self.dtype else None)
        view = _strided(elements, self.offset, self.size, self.stride, self.storage.key)
        key = brief_repr(self.storage.key)
        what = f"a tensor of size {brief_repr(list(self.size))} in storage {key}"
        if name == "bfloat16":  # numpy has no bfloat16: its bits are a float32's top half
            budget.charge(view.size * 4, f"{what}, widened from bfloat16 to float32")
            widened = view.astype(np.uint32, order="C")
            widened <<= 16
            return widened.view(np.float32)
        if view.dtype.isnative and view.flags.c_contiguous:
            return view
        budget.charge(view.nbytes, f"a contiguous copy of {what}")
        return view.astype(view.dtype.newbyteorder("="), order="C")


def _strided(elements: np.ndarray, offset: int, size: tuple, stride: tuple, key: str) -> np.ndarray:
    """`elements[offset]` viewed with torch's size/stride (in elements), bounds-checked so a
    crafted file cannot read past its storage: a contiguous view, or a read-only strided one
    (a stride-0 `expand` included), which the caller copies."""
    if not ints(size) or not ints(stride) or len(size) != len(stride) or not ints((offset,)):
        raise CheckpointError(
            f"corrupt tensor in storage {brief_repr(key)}: size {brief_repr(size)}, "
            f"stride {brief_repr(stride)}"
        )
    if len(size) > MAX_DIMS:
        raise CheckpointError(
            f"corrupt tensor in storage {brief_repr(key)}: {len(size)} dimensions"
        )
    if 0 in size:
        return np.empty(size, elements.dtype)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride, strict=True))
    if last >= elements.size:
        raise CheckpointError(
            f"corrupt tensor: size {list(size)} stride {list(stride)} offset {offset} reaches "
            f"element {last}, but storage {brief_repr(key)} holds {elements.size}"
        )
    count = math.prod(size)
    contiguous = tuple(math.prod(size[i + 1 :]) for i in range(len(size)))
    if all(s == c or n == 1 for n, s, c in zip(size, stride, contiguous, strict=True)):
        return elements[offset : offset + count].reshape(size)
    item = elements.itemsize
    return np.lib.stride_tricks.as_strided(
        elements[offset:], size, [s * item for s in stride], writeable=False
    )


# --- the rebuild functions a torch pickle calls ------------------------------------------------
def _storage_arg(storage: object, where: str) -> Storage:
    if not isinstance(storage, Storage):
        raise CheckpointError(
            f"corrupt checkpoint: {where} got {type(storage).__name__}, not a storage"
        )
    return storage


def _rebuild_tensor(storage: object, offset: int, size: tuple, stride: tuple) -> PendingTensor:
    storage = _storage_arg(storage, "_rebuild_tensor")
    if not ints(size) or not ints(stride) or len(size) != len(stride) or len(size) > MAX_DIMS:
        raise CheckpointError(
            f"corrupt tensor in storage {brief_repr(storage.key)}: size {brief_repr(size)}, "
            f"stride {brief_repr(stride)}"
        )
    charge(_PENDING_TENSOR_BYTES + 16 * len(size), "a tensor")
    return PendingTensor(storage, offset, tuple(size), tuple(stride))


def _rebuild_tensor_v2(
    storage: object,
    offset: int,
    size: tuple,
    stride: tuple,
    requires_grad: bool = False,
    backward_hooks: object = None,
    metadata: object = None,
) -> PendingTensor:
    return _rebuild_tensor(storage, offset, size, stride)


def _rebuild_tensor_v3(
    storage: object,
    offset: int,
    size: tuple,
    stride: tuple,
    requires_grad: bool,
    backward_hooks: object,
    dtype: object,
    metadata: object = None,
) -> PendingTensor:
    if not isinstance(dtype, TorchDtype):
        raise CheckpointError(
            f"corrupt checkpoint: _rebuild_tensor_v3 got dtype {brief_repr(dtype)}"
        )
    tensor = _rebuild_tensor(storage, offset, size, stride)
    tensor.dtype = dtype.dtype
    return tensor


def _rebuild_parameter(data: object, requires_grad: bool = True, hooks: object = None) -> object:
    return data  # a Parameter is its tensor here


def _rebuild_parameter_with_state(
    data: object, requires_grad: bool, hooks: object, state: object
) -> object:
    return data


TENSOR_MARKER = marker_class("torch.Tensor")
PARAMETER_MARKER = marker_class("torch.nn.parameter.Parameter")
_REBUILDERS = (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3, _rebuild_parameter)


def _rebuild_from_type_v2(func: object, new_type: object, args: object, state: object) -> object:
    """How torch pickles a tensor that carries Python attributes: the attributes are dropped."""
    if func not in _REBUILDERS or new_type not in (TENSOR_MARKER, PARAMETER_MARKER):
        raise UnsafePickleError(
            "torch._tensor._rebuild_from_type_v2", why="only plain tensors may be rebuilt"
        )
    if not isinstance(args, tuple):
        raise CheckpointError("corrupt checkpoint: _rebuild_from_type_v2 without arguments")
    return func(*args)


def _size(dims: object = ()) -> tuple:
    if not ints(dims) or len(dims) > MAX_DIMS:
        raise CheckpointError(f"corrupt torch.Size {brief_repr(dims)}")
    charge(8 * len(dims), "a torch.Size")
    return tuple(dims)


TORCH_GLOBALS: dict[tuple[str, str], object] = {
    **NUMPY_GLOBALS,
    **BUILTIN_GLOBALS,
    ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_tensor_v3"): _rebuild_tensor_v3,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
    ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2,
    ("torch", "Tensor"): TENSOR_MARKER,
    ("torch._tensor", "Tensor"): TENSOR_MARKER,
    ("torch.nn.parameter", "Parameter"): PARAMETER_MARKER,
    ("torch", "Size"): _size,
    **{("torch", name): StorageType(name, dtype) for name, dtype in STORAGE_DTYPES.items()},
    ("torch.storage", "UntypedStorage"): StorageType("UntypedStorage", "uint8"),
    **{("torch", name): TorchDtype(name, dtype) for name, dtype in TORCH_DTYPES.items()},
}


def explain(module: str, name: str) -> None:
    """A clearer error for torch globals outside the table; returns None for everything else
    (which RestrictedUnpickler then rejects as unsafe)."""
    if module in ("torch", "torch.storage", "torch.cuda") and name.endswith("Storage"):
        raise CheckpointError(
            f"unsupported storage type '{module}.{name}' (quantized, float8 or CUDA-only "
            "storages are not supported); supported: "
            + ", ".join(f"torch.{n}" for n in STORAGE_DTYPES)
        )
    if module == "torch._utils" and name.startswith("_rebuild_"):
        raise CheckpointError(
            f"unsupported tensor kind '{module}.{name}' (sparse, quantized, nested or meta "
            "tensors are not supported); only dense tensors can be read"
        )
    return None


# --- from pickled objects to plain Python and NumPy --------------------------------------------
def materialize(obj: Any, where: str, budget: MemoryBudget) -> Any:
    """Replace every PendingTensor and Storage by a NumPy array, OrderedDicts by dicts and
    torch dtypes by their names; shared objects stay shared. Copies are charged to `budget`;
    nesting deeper than MAX_NESTING is refused."""
    try:
        return _Materializer(where, budget).convert(obj, 0)
    except CheckpointError:
        raise
    except RecursionError as exc:
        raise CheckpointError(f"{where} is nested too deeply to load") from exc
    except (AttributeError, TypeError, ValueError) as exc:
        # a pickle may BUILD (set attributes of) the objects the rebuild functions return
        raise CheckpointError(f"{where} holds a corrupt tensor: {exc}") from exc


class _Materializer:
    def __init__(self, where: str, budget: MemoryBudget) -> None:
        self.where = where
        self.budget = budget
        self.memo: dict[int, Any] = {}  # id of a pickled object -> its result

    def convert(self, obj: Any, depth: int) -> Any:
        found = self.memo.get(id(obj))
        if found is not None:
            return found
        if depth > MAX_NESTING:
            raise CheckpointError(
                f"{self.where} is nested too deeply to load (over {MAX_NESTING} levels)"
            )
        if isinstance(obj, PendingTensor):
            result: Any = obj.materialize(self.budget)
        elif isinstance(obj, Storage):
            result = PendingTensor(obj, 0, (obj.count,), (1,)).materialize(self.budget)
        elif isinstance(obj, TorchDtype):
            result = str(obj)
        elif isinstance(obj, dict):
            result = {}
            self.memo[id(obj)] = result
            for key, value in obj.items():
                result[key] = self.convert(value, depth + 1)
        elif isinstance(obj, list):
            result = []
            self.memo[id(obj)] = result
            result.extend(self.convert(value, depth + 1) for value in obj)
        elif isinstance(obj, tuple):
            result = tuple(self.convert(value, depth + 1) for value in obj)
        else:
            return obj
        self.memo[id(obj)] = result
        return result
