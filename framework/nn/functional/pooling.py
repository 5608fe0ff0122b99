"""Pooling: `max_pool1d/2d`, `avg_pool1d/2d`, `adaptive_avg_pool1d/2d`,
`adaptive_max_pool1d/2d`, with Paddle's arguments (`ceil_mode`, `exclusive`, `return_mask`)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.backend import get_array_module
from framework.core.conv_geometry import ConvGeometry, as_pair, parse_padding
from framework.core.tensor import Tensor
from framework.ops.nn.adaptive_pooling import (
    AdaptiveMaxPool,
    GlobalAvgPool,
    SeparableLinear,
    averaging_matrix,
)
from framework.ops.nn.pooling import AvgPool, MaxPool, from_nchw, to_nchw, window_counts

_LAYOUTS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC")}


def _layout(op: str, x: Tensor, dims: int, data_format: str) -> tuple[bool, tuple[int, ...]]:
    if data_format not in _LAYOUTS[dims]:
        raise ValueError(f"{op}: data_format must be one of {_LAYOUTS[dims]}, got {data_format!r}")
    if x.ndim != dims + 2:
        raise ValueError(
            f"{op}: expected a {dims + 2}-D input ({_LAYOUTS[dims][0]}), got shape {x.shape}"
        )
    channel_last = data_format == _LAYOUTS[dims][1]
    spatial = tuple(x.shape[1:-1] if channel_last else x.shape[2:])
    return channel_last, spatial


def _two_d(dims: int, values: tuple, fill) -> tuple:
    return (fill, *values) if dims == 1 else tuple(values)


def _pool_geometry(
    op: str, x: Tensor, kernel_size, stride, padding, ceil_mode: bool, data_format: str, dims: int
) -> ConvGeometry:
    channel_last, spatial = _layout(op, x, dims, data_format)
    kernel = as_pair(kernel_size, "kernel_size", dims)
    stride = kernel if stride is None else as_pair(stride, "stride", dims)
    if min(kernel) < 1 or min(stride) < 1:
        raise ValueError(f"{op}: kernel_size and stride must be positive")
    pads = parse_padding(padding, dims, kernel, stride, (1,) * dims, spatial, channel_last)
    out = []
    for size, (lo, hi), k, s in zip(spatial, pads, kernel, stride, strict=True):
        span = size + lo + hi - k
        if span < 0:
            raise ValueError(
                f"{op}: the window {list(kernel)} is larger than the padded input "
                f"(input shape {x.shape}, padding {[list(p) for p in pads]})"
            )
        count = -(-span // s) + 1 if ceil_mode else span // s + 1
        if ceil_mode and (count - 1) * s >= size + lo:
            count -= 1  # the last window must start inside the input or its leading padding
        out.append(count)
    return ConvGeometry(
        _two_d(dims, kernel, 1),
        _two_d(dims, stride, 1),
        _two_d(dims, pads, (0, 0)),
        (1, 1),
        1,
        _two_d(dims, spatial, 1),
        _two_d(dims, out, 1),
        channel_last,
        dims,
    )


def _max_pool(op, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, dims):
    geom = _pool_geometry(op, x, kernel_size, stride, padding, ceil_mode, data_format, dims)
    pool = MaxPool(geom)
    y = pool.apply(x)
    return (y, Tensor._wrap(pool.mask())) if return_mask else y


def _avg_pool(
    op, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format, dims
):
    geom = _pool_geometry(op, x, kernel_size, stride, padding, ceil_mode, data_format, dims)
    if divisor_override:
        scale = x.dtype.type(1.0 / divisor_override)
    else:
        scale = window_counts(get_array_module(x._data), geom, exclusive, x.dtype)
    return AvgPool(geom, scale).apply(x)


def max_pool1d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: str | int | Sequence[int] = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """1-D max pooling, as `paddle.nn.functional.max_pool1d`.

    1-D max pooling over `[N, C, L]`; `return_mask` also gives the int32 argmax positions.

    Args:
        x (Tensor): `[N, C, L]`; float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        ceil_mode (bool, optional): round the output size up. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> print(F.max_pool1d(x, kernel_size=2))
        Tensor(shape=[1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 5., 4.]]])
        >>> out, mask = F.max_pool1d(x, kernel_size=3, return_mask=True)
        >>> print(mask)
        Tensor(shape=[1, 1, 2], dtype=int32, place=Place(cpu), stop_gradient=True,
               [[[1, 3]]])
    """
    return _max_pool(
        "max_pool1d", x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL", 1
    )


def max_pool2d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: str | int | Sequence = 0,
    return_mask: bool = False,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """2-D max pooling, as `paddle.nn.functional.max_pool2d`.

    2-D max pooling. `stride` defaults to `kernel_size`; padding is -inf.

    With `return_mask=True` also returns, per output, the winner's flat index in its H*W
    plane (int32), as Paddle does.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        ceil_mode (bool, optional): round the output size up. Default: False.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> print(F.max_pool2d(x, kernel_size=2))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[5. , 7. ],
                  [13., 15.]]]])
        >>> out, mask = F.max_pool2d(x, kernel_size=2, return_mask=True)
        >>> print(mask)
        Tensor(shape=[1, 1, 2, 2], dtype=int32, place=Place(cpu), stop_gradient=True,
               [[[[5 , 7 ],
                  [13, 15]]]])
    """
    return _max_pool(
        "max_pool2d", x, kernel_size, stride, padding, return_mask, ceil_mode, data_format, 2
    )


def avg_pool1d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: str | int | Sequence[int] = 0,
    exclusive: bool = True,
    ceil_mode: bool = False,
    name: str | None = None,
) -> Tensor:
    """1-D average pooling, as `paddle.nn.functional.avg_pool1d`.

    1-D average pooling over `[N, C, L]`; `exclusive` leaves padding out of the divisor.

    Args:
        x (Tensor): `[N, C, L]`; float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        exclusive (bool, optional): leave padding out of each window's divisor. Default: True.
        ceil_mode (bool, optional): round the output size up. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> print(F.avg_pool1d(x, kernel_size=2))
        Tensor(shape=[1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2.        , 3.50000000, 2.        ]]])
    """
    return _avg_pool(
        "avg_pool1d", x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL", 1
    )


def avg_pool2d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    stride: int | Sequence[int] | None = None,
    padding: str | int | Sequence = 0,
    ceil_mode: bool = False,
    exclusive: bool = True,
    divisor_override: float | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """2-D average pooling, as `paddle.nn.functional.avg_pool2d`.

    2-D average pooling. With `exclusive=True` (Paddle's default) a window's divisor counts
    only the input elements it covers, not the padding.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        exclusive (bool, optional): leave padding out of each window's divisor. Default: True.
        divisor_override (float, optional): a fixed divisor. Default: None.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> print(F.avg_pool2d(x, kernel_size=2))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[2.50000000 , 4.50000000 ],
                  [10.50000000, 12.50000000]]]])
        >>> F.avg_pool2d(paddle.ones([2, 3, 32, 32]), kernel_size=3, stride=2, padding=1).shape
        paddle.Size([2, 3, 16, 16])
    """
    return _avg_pool(
        "avg_pool2d",
        x,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        exclusive,
        divisor_override,
        data_format,
        2,
    )


def _adaptive_size(op: str, output_size, spatial: tuple[int, ...], dims: int) -> tuple[int, ...]:
    if isinstance(output_size, int) or output_size is None:
        output_size = [output_size] * dims
    sizes = tuple(s if o is None else int(o) for o, s in zip(output_size, spatial, strict=True))
    if min(sizes) < 1:
        raise ValueError(f"{op}: output_size must be positive, got {list(output_size)}")
    return sizes


def _adaptive_avg(op: str, x: Tensor, output_size, data_format: str, dims: int) -> Tensor:
    channel_last, spatial = _layout(op, x, dims, data_format)
    out = _adaptive_size(op, output_size, spatial, dims)
    size2, out2 = _two_d(dims, spatial, 1), _two_d(dims, out, 1)
    if all(s % o == 0 for s, o in zip(size2, out2, strict=True)) and out2 != (1, 1):
        kernel = tuple(s // o for s, o in zip(size2, out2, strict=True))
        geom = ConvGeometry(
            kernel, kernel, ((0, 0), (0, 0)), (1, 1), 1, size2, out2, channel_last, dims
        )
        return AvgPool(geom, x.dtype.type(1.0 / (kernel[0] * kernel[1]))).apply(x)
    layout = ConvGeometry(
        (1, 1), (1, 1), ((0, 0), (0, 0)), (1, 1), 1, size2, out2, channel_last, dims
    )
    x4 = to_nchw(layout, x)
    if out2 == (1, 1):
        y4 = GlobalAvgPool().apply(x4)
    else:
        xp = get_array_module(x._data)
        rows = xp.asarray(averaging_matrix(size2[0], out2[0], x.dtype))
        cols = xp.asarray(averaging_matrix(size2[1], out2[1], x.dtype))
        y4 = SeparableLinear(rows, cols).apply(x4)
    return from_nchw(layout, y4)


def _adaptive_max(op: str, x: Tensor, output_size, return_mask: bool, dims: int):
    _, spatial = _layout(op, x, dims, _LAYOUTS[dims][0])
    out = _adaptive_size(op, output_size, spatial, dims)
    size2, out2 = _two_d(dims, spatial, 1), _two_d(dims, out, 1)
    if all(s % o == 0 for s, o in zip(size2, out2, strict=True)):
        kernel = tuple(s // o for s, o in zip(size2, out2, strict=True))
        return _max_pool(
            op, x, kernel[-dims:], None, 0, return_mask, False, _LAYOUTS[dims][0], dims
        )
    layout = ConvGeometry((1, 1), (1, 1), ((0, 0), (0, 0)), (1, 1), 1, size2, out2, False, dims)
    pool = AdaptiveMaxPool(out2)
    y = from_nchw(layout, pool.apply(to_nchw(layout, x)))
    if not return_mask:
        return y
    return y, Tensor._wrap(layout.from_nchw(pool.mask()))


def adaptive_avg_pool1d(x: Tensor, output_size: int, name: str | None = None) -> Tensor:
    """1-D adaptive average pooling, as `paddle.nn.functional.adaptive_avg_pool1d`.

    `[N, C, L] -> [N, C, output_size]` averaging adaptive windows.

    Args:
        x (Tensor): `[N, C, L]`; float32 or float64.
        output_size (int): the output's length.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, output_size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> print(F.adaptive_avg_pool1d(x, output_size=3))
        Tensor(shape=[1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2.        , 3.50000000, 2.        ]]])
    """
    return _adaptive_avg("adaptive_avg_pool1d", x, output_size, "NCL", 1)


def adaptive_avg_pool2d(
    x: Tensor,
    output_size: int | Sequence[int | None],
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """2-D adaptive average pooling, as `paddle.nn.functional.adaptive_avg_pool2d`.

    `[N, C, H, W] -> [N, C, oh, ow]` averaging adaptive windows (`None` keeps a size).

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        output_size (int|list|tuple): `[oh, ow]`, or one int; None keeps that size.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, oh, ow]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> print(F.adaptive_avg_pool2d(x, output_size=2))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[2.50000000 , 4.50000000 ],
                  [10.50000000, 12.50000000]]]])
        >>> F.adaptive_avg_pool2d(paddle.ones([8, 64, 7, 7]), 1).shape
        paddle.Size([8, 64, 1, 1])
    """
    return _adaptive_avg("adaptive_avg_pool2d", x, output_size, data_format, 2)


def adaptive_max_pool1d(
    x: Tensor, output_size: int, return_mask: bool = False, name: str | None = None
) -> Tensor | tuple[Tensor, Tensor]:
    """1-D adaptive max pooling, as `paddle.nn.functional.adaptive_max_pool1d`.

    `[N, C, L] -> [N, C, output_size]` taking the max of adaptive windows.

    Args:
        x (Tensor): `[N, C, L]`; float32 or float64.
        output_size (int): the output's length.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, output_size]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0, 4.0, 0.0]]])
        >>> print(F.adaptive_max_pool1d(x, output_size=2))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 5.]]])
    """
    return _adaptive_max("adaptive_max_pool1d", x, output_size, return_mask, 1)


def adaptive_max_pool2d(
    x: Tensor,
    output_size: int | Sequence[int | None],
    return_mask: bool = False,
    name: str | None = None,
) -> Tensor | tuple[Tensor, Tensor]:
    """2-D adaptive max pooling, as `paddle.nn.functional.adaptive_max_pool2d`.

    `[N, C, H, W] -> [N, C, oh, ow]` taking the max of adaptive windows.

    Args:
        x (Tensor): `[N, C, H, W]`; float32 or float64.
        output_size (int|list|tuple): `[oh, ow]`, or one int; None keeps that size.
        return_mask (bool, optional): also return the int32 flat index of each maximum. Default:
            False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, oh, ow]`; with `return_mask`, `(out, mask)`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> print(F.adaptive_max_pool2d(x, output_size=[1, 2]))
        Tensor(shape=[1, 1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[13., 15.]]]])
    """
    return _adaptive_max("adaptive_max_pool2d", x, output_size, return_mask, 2)
