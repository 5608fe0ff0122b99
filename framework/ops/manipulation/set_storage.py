"""`Tensor.set_`: point a tensor at another tensor's storage, as `paddle.Tensor.set_`.

The storage of `source` is its elements in row-major order; `x` becomes a NumPy (or CuPy)
view of it with the given shape, strides (in elements) and offset (in bytes, as Paddle). Two
deliberate differences from Paddle, which reads whatever bytes lie there: a window that
reaches past the storage, or a source of another dtype, raises instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.inplace import bump_version


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(int(size), 1)
    return strides[::-1]


def _check_x(x: Tensor) -> None:
    if x.is_leaf and not x.stop_gradient:
        raise ValueError(
            f"(InvalidArgument) Leaf Tensor {x.name} that doesn't stop gradient can't use "
            "inplace strategy."
        )


def _check_window(storage_size: int, shape: list[int], stride: list[int], start: int) -> None:
    if len(shape) != len(stride):
        raise ValueError(f"set_: shape {shape} and stride {stride} differ in length")
    if any(s < 0 for s in shape + stride):
        raise ValueError(f"set_: shape {shape} and stride {stride} must be non-negative")
    if 0 in shape:
        return
    last = start + sum((size - 1) * step for size, step in zip(shape, stride, strict=True))
    if last >= storage_size:
        raise ValueError(
            f"set_: the window (shape {shape}, stride {stride}, offset {start} elements) "
            f"reaches element {last}, but the source holds {storage_size}"
        )


def set_(
    x: Tensor,
    source: Tensor | None = None,
    shape: Sequence[int] | None = None,
    stride: Sequence[int] | None = None,
    offset: int = 0,
    name: str | None = None,
) -> Tensor:
    """Make `x` share `source`'s storage, viewed with `shape`, `stride` (elements) and
    `offset` (bytes from the storage's start), and return `x`.

    `shape` defaults to `source`'s shape; `stride` to `source`'s strides when `shape` is None,
    else to the row-major strides of `shape`. With no `source`, `x` becomes an empty `[0]`
    tensor of its dtype. `x` and `source` must have one dtype; `x` keeps no gradient history.

        src = framework.to_tensor([11.0, 22.0, 33.0, 44.0, 55.0, 66.0])
        x = framework.to_tensor([1.0, 2.0])
        x.set_(src, shape=[3], stride=[2])   # [11., 33., 55.]
        x.set_(src, shape=[5], offset=4)     # [22., 33., 44., 55., 66.]
    """
    _check_x(x)
    xp = get_array_module(x._data)
    if source is None:
        view = xp.empty([0], dtype=x._data.dtype)
    else:
        if not isinstance(source, Tensor):
            raise ValueError(f"Input (source) should be paddle.Tensor but received {type(source)}")
        if source._data.dtype != x._data.dtype:
            raise TypeError(
                f"set_: x is {x._data.dtype.name} but source is {source._data.dtype.name}; "
                "cast one of them first"
            )
        view = _view(source, shape, stride, offset)
    bump_version(x)
    x._data = view
    x._node = None
    x._out_index = 0
    return x


def _view(source: Tensor, shape, stride, offset: int):
    data = source._data
    xp = get_array_module(data)
    itemsize = data.dtype.itemsize
    if int(offset) < 0 or int(offset) % itemsize:
        raise ValueError(
            f"set_: offset {offset} must be a non-negative multiple of the item size "
            f"({itemsize} bytes for {data.dtype.name})"
        )
    if shape is None and stride is None and offset == 0:
        return data.view()
    if not data.flags.c_contiguous:
        # A strided window is defined on row-major storage: give source one, same values.
        source._data = data = xp.ascontiguousarray(data)
    shape = list(data.shape) if shape is None else [int(s) for s in shape]
    if stride is None:
        stride = _row_major_strides(shape)
    stride = [int(s) for s in stride]
    start = int(offset) // itemsize
    _check_window(data.size, shape, stride, start)
    flat = data.reshape(-1)
    return xp.lib.stride_tricks.as_strided(
        flat[start:] if start < flat.size else flat[:0],
        shape=shape,
        strides=[s * itemsize for s in stride],
    )
