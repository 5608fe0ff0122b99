"""Max unpooling: `max_unpool1d/2d/3d`, as in `paddle.nn.functional`.

The partial inverse of `max_pool*d(..., return_mask=True)`: each pooled value goes back to the
position its mask names (a flat index into the L, H*W or D*H*W of every `[N, C]` plane), and
every other output element is zero. One `put_along_axis` into a zero tensor, so the gradient
(the output gradient gathered at the mask) and those of higher order come from that op.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.conv_geometry import as_pair
from framework.core.tensor import Tensor
from framework.ops.manipulation import put_along_axis

Size = int | Sequence[int]
_LAYOUTS = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


def _output_size(
    op: str, x: Tensor, kernel, stride, padding, output_size: Sequence[int] | None, dims: int
) -> list[int]:
    """Paddle's rule: by default `(in - 1) * stride + kernel - 2 * padding` per axis; a given
    size (the spatial sizes, or the whole `[N, C, ...]` shape) must lie strictly within one
    stride of that."""
    default = [
        (size - 1) * s + k - 2 * p
        for size, k, s, p in zip(x.shape[2:], kernel, stride, padding, strict=True)
    ]
    if output_size is None:
        return default
    sizes = [int(s) for s in output_size]
    if len(sizes) == dims + 2:
        sizes = sizes[2:]
    if len(sizes) != dims:
        raise ValueError(
            f"{op}: output_size must have {dims} or {dims + 2} elements, got {list(output_size)}"
        )
    for axis, (size, base, s) in enumerate(zip(sizes, default, stride, strict=True)):
        if not base - s < size < base + s:
            raise ValueError(
                f"{op}: invalid output_size {sizes} (dim {axis} must be between "
                f"{base - s} and {base + s}, exclusive)"
            )
    return sizes


def _max_unpool(
    op: str,
    x: Tensor,
    indices: Tensor,
    kernel_size: Size,
    stride: Size | None,
    padding: Size,
    data_format: str,
    output_size: Sequence[int] | None,
    dims: int,
) -> Tensor:
    if data_format != _LAYOUTS[dims]:
        raise ValueError(f"{op}: data_format must be {_LAYOUTS[dims]!r}, got {data_format!r}")
    if x.ndim != dims + 2 or list(indices.shape) != list(x.shape):
        raise ValueError(
            f"{op}: expected x and indices of one {dims + 2}-D {_LAYOUTS[dims]} shape, got "
            f"{x.shape} and {indices.shape}"
        )
    kernel = as_pair(kernel_size, "kernel_size", dims)
    stride = kernel if stride is None else as_pair(stride, "stride", dims)
    padding = as_pair(padding, "padding", dims)
    sizes = _output_size(op, x, kernel, stride, padding, output_size, dims)
    n, c = x.shape[:2]
    plane = math.prod(sizes)
    positions = indices.reshape([n, c, -1])
    if positions.size and (int(positions.min()) < 0 or int(positions.max()) >= plane):
        raise ValueError(
            f"{op}: indices must lie in [0, {plane}) for the output size {sizes}, got "
            f"[{int(positions.min())}, {int(positions.max())}]"
        )
    canvas = Tensor._wrap(get_array_module(x._data).zeros((n, c, plane), dtype=x.dtype))
    out = put_along_axis(canvas, positions, x.reshape([n, c, -1]), axis=2)
    return out.reshape([n, c, *sizes])


def max_unpool1d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Size,
    stride: Size | None = None,
    padding: Size = 0,
    data_format: str = "NCL",
    output_size: Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The partial inverse of 1-D max pooling, as `paddle.nn.functional.max_unpool1d`.

    `[N, C, L]` pooled values and their int32 `indices` (from `max_pool1d(...,
    return_mask=True)`) -> `[N, C, L_out]`, zeros where no maximum came from.

    `L_out = (L - 1) * stride + kernel_size - 2 * padding` unless `output_size` is given.

    Args:
        x (Tensor): pooled values `[N, C, L]`; float32 or float64.
        indices (Tensor): int32 flat positions of the maxima, from max pooling with
            `return_mask=True`; the shape of `x`.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, L_out]`, zeros where no maximum came from.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0]]])
        >>> out, idx = F.max_pool1d(x, 2, return_mask=True)
        >>> print(F.max_unpool1d(out, idx, 2))
        Tensor(shape=[1, 1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 3., 0., 5.]]])
    """
    return _max_unpool(
        "max_unpool1d", x, indices, kernel_size, stride, padding, data_format, output_size, 1
    )


def max_unpool2d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Size,
    stride: Size | None = None,
    padding: Size = 0,
    data_format: str = "NCHW",
    output_size: Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The partial inverse of 2-D max pooling, as `paddle.nn.functional.max_unpool2d`.

    `[N, C, H, W]` pooled values and their `indices` (flat positions in each output H*W
    plane, as `max_pool2d(..., return_mask=True)` gives) -> `[N, C, H_out, W_out]`.

    Args:
        x (Tensor): pooled values `[N, C, H, W]`; float32 or float64.
        indices (Tensor): int32 flat positions of the maxima, from max pooling with
            `return_mask=True`; the shape of `x`.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, H_out, W_out]`, zeros where no maximum came from.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> out, idx = F.max_pool2d(x, 2, return_mask=True)
        >>> print(F.max_unpool2d(out, idx, 2))
        Tensor(shape=[1, 1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0. , 0. , 0. , 0. ],
                  [0. , 5. , 0. , 7. ],
                  [0. , 0. , 0. , 0. ],
                  [0. , 13., 0. , 15.]]]])
    """
    return _max_unpool(
        "max_unpool2d", x, indices, kernel_size, stride, padding, data_format, output_size, 2
    )


def max_unpool3d(
    x: Tensor,
    indices: Tensor,
    kernel_size: Size,
    stride: Size | None = None,
    padding: Size = 0,
    data_format: str = "NCDHW",
    output_size: Sequence[int] | None = None,
    name: str | None = None,
) -> Tensor:
    """The partial inverse of 3-D max pooling, as `paddle.nn.functional.max_unpool3d`.

    `[N, C, D, H, W]` pooled values and their `indices` (flat positions in each D*H*W
    volume, from `max_pool3d(..., return_mask=True)`) -> `[N, C, D_out, H_out, W_out]`.

    Args:
        x (Tensor): pooled values `[N, C, D, H, W]`; float32 or float64.
        indices (Tensor): int32 flat positions of the maxima, from max pooling with
            `return_mask=True`; the shape of `x`.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple, optional): Default: 0.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        output_size (list|tuple, optional): the output's size. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, D_out, H_out, W_out]`, zeros where no maximum came from.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(8, dtype='float32').reshape([1, 1, 2, 2, 2])
        >>> out, idx = F.max_pool3d(x, 2, return_mask=True)
        >>> y = F.max_unpool3d(out, idx, 2)
        >>> print(y[0, 0, 1, 1])
        Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 7.])
        >>> y.shape
        paddle.Size([1, 1, 2, 2, 2])
    """
    return _max_unpool(
        "max_unpool3d", x, indices, kernel_size, stride, padding, data_format, output_size, 3
    )
