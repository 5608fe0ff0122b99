"""`framework.Size` and the typed tensor constructors (`FloatTensor`, `LongTensor`, ...), as
Paddle 3 names them for code written against PyTorch."""

from __future__ import annotations

from framework.core import dtype as dtypes
from framework.core.size import Size as Size  # re-exported: `framework` takes it from here
from framework.core.tensor import Tensor, to_tensor


def _typed_tensor(name: str, dtype: object) -> type:
    """A constructor class whose call makes a tensor of `dtype`, as Paddle's factories do:
    `()` an empty tensor, `(list)` the data, `(2, 3)` an uninitialised (here zero) tensor."""

    def __new__(cls, *args: object, **kwargs: object) -> Tensor:
        if not args:
            return to_tensor([], dtype=dtype)
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return to_tensor(list(args[0]), dtype=dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            from framework.ops.creation import zeros

            return zeros(list(args), dtype=dtype)
        kwargs.setdefault("dtype", dtype)
        return to_tensor(*args, **kwargs)

    doc = f"`{name}(data)` or `{name}(*shape)`: a tensor of dtype {dtype}."
    return type(name, (), {"__new__": __new__, "__doc__": doc})


FloatTensor = _typed_tensor("FloatTensor", dtypes.float32)
DoubleTensor = _typed_tensor("DoubleTensor", dtypes.float64)
HalfTensor = _typed_tensor("HalfTensor", dtypes.float16)
ByteTensor = _typed_tensor("ByteTensor", dtypes.uint8)
CharTensor = _typed_tensor("CharTensor", dtypes.int8)
ShortTensor = _typed_tensor("ShortTensor", dtypes.int16)
IntTensor = _typed_tensor("IntTensor", dtypes.int32)
LongTensor = _typed_tensor("LongTensor", dtypes.int64)
BoolTensor = _typed_tensor("BoolTensor", dtypes.bool_)
