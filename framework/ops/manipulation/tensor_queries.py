"""PyTorch-style Tensor methods Paddle 3 binds for casting, gradient switches and questions
about a tensor: `x.float()`, `x.long()`, `x.type_as(y)`, `x.requires_grad`, `x.ndimension()`,
`x.is_same_shape(y)`, `x.itemsize`, `x.is_cuda`, `x.get_device()`, `x.is_dense()`, and the
in-place `x.resize_(shape)` and `x.apply_(fn)`. `TENSOR_METHODS` binds them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from framework.core import backend
from framework.core.autograd import is_grad_enabled
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.cast import cast
from framework.ops.manipulation.inplace import check_inplace, rebind

# Method name -> dtype, as Paddle's Tensor binds them (`x.half()` is float16, `x.char()` int8).
CAST_METHOD_DTYPES = {
    "bool": "bool",
    "byte": "uint8",
    "char": "int8",
    "short": "int16",
    "int": "int32",
    "long": "int64",
    "half": "float16",
    "float": "float32",
    "double": "float64",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "uint8": "uint8",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
}


def _cast_method(name: str, dtype: str) -> Callable[[Tensor], Tensor]:
    def method(self: Tensor) -> Tensor:
        return cast(self, dtype)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (
        f"`x` cast to {dtype} (`x` itself when it already is), as `paddle.Tensor.{name}`; "
        "float and complex casts pass the gradient back.\n\n"
        f"    framework.to_tensor([1.5, 2.5]).{name}().dtype   # {dtype}\n"
    )
    return method


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """`self` cast to `other`'s dtype, as `paddle.Tensor.type_as`.

    framework.ones([2]).type_as(framework.to_tensor([1, 2])).dtype   # int64
    """
    return cast(self, other.dtype)


def _requires_grad(self: Tensor) -> bool:
    return not self.stop_gradient


def _set_requires_grad(self: Tensor, value: bool) -> None:
    self.stop_gradient = not bool(value)


def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """Turn gradient tracking of `self` on (or off) and return it, as Paddle's `requires_grad_`.

    w = framework.ones([3]).requires_grad_()   # w.stop_gradient is False
    """
    _set_requires_grad(self, requires_grad)
    return self


def ndimension(self: Tensor) -> int:
    """The number of dims, as `x.ndim`."""
    return self._data.ndim


def is_same_shape(self: Tensor, y: Tensor) -> bool:
    """Whether `self` and `y` have exactly the same shape (no broadcasting)."""
    return tuple(self._data.shape) == tuple(y._data.shape)


def _itemsize(self: Tensor) -> int:
    return int(self._data.dtype.itemsize)


def _is_cuda(self: Tensor) -> bool:
    return backend.is_gpu_array(self._data)


def get_device(self: Tensor) -> int:
    """The GPU id `self` lives on, or -1 on the CPU, as `paddle.Tensor.get_device`."""
    place = backend.place_of(self._data)
    return place.get_device_id() if place.is_gpu_place() else -1


def is_dense(self: Tensor) -> bool:
    """True: every framework tensor is dense (there are no sparse tensors)."""
    return True


def _is_sparse(self: Tensor) -> bool:
    return False


def resize_(self: Tensor, shape: Sequence[int], fill_zero: bool = False, name=None) -> Tensor:
    """Give `self` the new `shape` in place and return it, as `paddle.Tensor.resize_`: its
    elements in row-major order are kept up to the new size. The new elements past the old
    size are zeros (Paddle leaves them uninitialised unless `fill_zero`; zeros are one of the
    values it may hold). The result carries no gradient history.

        x = framework.arange(6.0); x.resize_([2, 2])   # [[0., 1.], [2., 3.]]
    """
    check_inplace(self, "resize_")
    if is_grad_enabled() and not self.stop_gradient:
        raise RuntimeError(
            "resize_: a tensor in a gradient computation cannot be resized in place; resize a "
            "detached copy (`x.detach().clone().resize_(...)`)"
        )
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"resize_: the shape {list(dims)} has a negative dim")
    xp = get_array_module(self._data)
    size = 1
    for d in dims:
        size *= d
    flat = self._data.reshape(-1)
    new = xp.zeros(size, dtype=self._data.dtype)
    kept = min(size, flat.size)
    new[:kept] = flat[:kept]
    return rebind(self, Tensor._wrap(new.reshape(dims)))


def apply(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """`func(self)` as a new tensor, refused on a tensor that requires a gradient, as in Paddle.

    framework.ones([2]).apply(lambda t: t + 1)   # [2., 2.]
    """
    if not self.stop_gradient:
        raise RuntimeError("Cannot apply function on a tensor that required gradient.")
    return func(self)


def apply_(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """In-place `apply`: `self` takes `func(self)` (same shape, cast to its dtype) and is
    returned; refused on a tensor that requires a gradient, as in Paddle."""
    result = apply(self, func)
    if not isinstance(result, Tensor) or tuple(result._data.shape) != tuple(self._data.shape):
        raise ValueError("apply_: func must return a Tensor of the same shape as the tensor")
    if result._data.dtype != self._data.dtype:
        result = cast(result, self._data.dtype)
    return rebind(self, result)


TENSOR_METHODS = {
    **{name: _cast_method(name, dtype) for name, dtype in CAST_METHOD_DTYPES.items()},
    "type_as": type_as,
    "requires_grad": property(_requires_grad, _set_requires_grad),
    "requires_grad_": requires_grad_,
    "ndimension": ndimension,
    "is_same_shape": is_same_shape,
    "itemsize": property(_itemsize),
    "is_cuda": property(_is_cuda),
    "get_device": get_device,
    "is_dense": is_dense,
    "is_sparse": _is_sparse,
    "is_sparse_coo": _is_sparse,
    "is_sparse_csr": _is_sparse,
    "resize_": resize_,
    "apply": apply,
    "apply_": apply_,
}
