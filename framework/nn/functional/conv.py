"""Convolutions: `conv1d`, `conv2d`, `conv1d_transpose`, `conv2d_transpose` (Paddle's API).

Weights are laid out as in Paddle: `[out, in/groups, k...]` for a convolution and
`[in, out/groups, k...]` for a transposed one. Arrays stay float32 unless given otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.amp.auto_cast import amp_cast
from framework.core.conv_geometry import ConvGeometry, as_pair, parse_padding
from framework.core.tensor import Tensor
from framework.ops.nn.conv import Conv, ConvTranspose

_LAYOUTS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC")}


def _check(op: str, x: Tensor, weight: Tensor, dims: int, data_format: str) -> bool:
    if data_format not in _LAYOUTS[dims]:
        raise ValueError(f"{op}: data_format must be one of {_LAYOUTS[dims]}, got {data_format!r}")
    if x.ndim != dims + 2:
        raise ValueError(
            f"{op}: expected a {dims + 2}-D input ({_LAYOUTS[dims][0]}), got shape {x.shape}"
        )
    if weight.ndim != dims + 2:
        raise ValueError(f"{op}: expected a {dims + 2}-D weight, got shape {weight.shape}")
    if x.dtype != weight.dtype:
        raise TypeError(f"{op}: input is {x.dtype} but weight is {weight.dtype}")
    return data_format == _LAYOUTS[dims][1]


def _to_2d(dims: int, values: tuple[int, ...], fill: int) -> tuple[int, int]:
    return (fill, values[0]) if dims == 1 else values


def _geometry(
    op: str,
    x: Tensor,
    weight: Tensor,
    stride,
    padding,
    dilation,
    groups: int,
    data_format: str,
    dims: int,
    transposed: bool,
) -> tuple[ConvGeometry, tuple[int, ...], bool]:
    channel_last = _check(op, x, weight, dims, data_format)
    shape = x.shape
    channels = shape[-1] if channel_last else shape[1]
    spatial = tuple(shape[1:-1] if channel_last else shape[2:])
    kernel = tuple(weight.shape[2:])
    stride = as_pair(stride, "stride", dims)
    dilation = as_pair(dilation, "dilation", dims)
    groups = int(groups)
    if groups < 1 or min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"{op}: stride, dilation and groups must be positive")
    expected = weight.shape[0] if transposed else weight.shape[1] * groups
    if channels != expected:
        role = "weight.shape[0]" if transposed else f"weight.shape[1] * groups ({groups})"
        raise ValueError(
            f"{op}: the input has {channels} channels but {role} is {expected} "
            f"(input shape {shape}, weight shape {weight.shape})"
        )
    if weight.shape[0] % groups:
        raise ValueError(f"{op}: groups={groups} does not divide weight.shape[0]={weight.shape[0]}")
    if transposed and isinstance(padding, str) and padding.lower() == "same":
        pads = tuple(
            _same_transposed(k, s, d) for k, s, d in zip(kernel, stride, dilation, strict=True)
        )
    else:
        pads = parse_padding(padding, dims, kernel, stride, dilation, spatial, channel_last)
    if dims == 1:
        return (
            (
                (1,) + kernel,
                (1,) + stride,
                ((0, 0),) + pads,
                (1,) + dilation,
            ),
            spatial,
            channel_last,
        )
    return (kernel, stride, pads, dilation), spatial, channel_last


def _same_transposed(kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """Padding of a 'same' transposed convolution: the output is `stride` times the input."""
    total = max(dilation * (kernel - 1) + 1 - stride, 0)
    return total // 2, total - total // 2


def _conv(
    op: str,
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride,
    padding,
    dilation,
    groups: int,
    data_format: str,
    dims: int,
) -> Tensor:
    (kernel, stride, pads, dilation), spatial, channel_last = _geometry(
        op, x, weight, stride, padding, dilation, groups, data_format, dims, transposed=False
    )
    in_size = (1,) + spatial if dims == 1 else spatial
    geom = ConvGeometry.for_input(
        in_size, kernel, stride, pads, dilation, int(groups), channel_last, dims
    )
    if min(geom.out_size) < 1:
        raise ValueError(
            f"{op}: the input's spatial size {list(spatial)} is smaller than the kernel "
            f"{list(weight.shape[2:])} (padding {[p for p in pads]}, dilation {list(dilation)})"
        )
    _check_bias(op, bias, weight.shape[0])
    inputs = (x, weight) if bias is None else (x, weight, bias)
    return Conv(geom).apply(*amp_cast(op, *inputs))


def _conv_transpose(
    op: str,
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride,
    padding,
    output_padding,
    dilation,
    groups: int,
    output_size,
    data_format: str,
    dims: int,
) -> Tensor:
    (kernel, stride, pads, dilation), spatial, channel_last = _geometry(
        op, x, weight, stride, padding, dilation, groups, data_format, dims, transposed=True
    )
    spatial_2d = (1,) + spatial if dims == 1 else spatial
    base = tuple(
        (size - 1) * s - lo - hi + d * (k - 1) + 1
        for size, s, (lo, hi), d, k in zip(spatial_2d, stride, pads, dilation, kernel, strict=True)
    )
    extra = _output_padding(op, output_padding, output_size, base, stride, dilation, dims)
    out_size = tuple(b + e for b, e in zip(base, extra, strict=True))
    if min(out_size) < 1:
        raise ValueError(f"{op}: the output would have spatial size {list(out_size[-dims:])}")
    geom = ConvGeometry(
        kernel, stride, pads, dilation, int(groups), out_size, spatial_2d, channel_last, dims
    )
    _check_bias(op, bias, weight.shape[1] * int(groups))
    inputs = (x, weight) if bias is None else (x, weight, bias)
    return ConvTranspose(geom).apply(*amp_cast(op, *inputs))


def _output_padding(op, output_padding, output_size, base, stride, dilation, dims):
    if output_size is None:
        extra = as_pair(output_padding, "output_padding", dims)
    else:
        if isinstance(output_size, Tensor):
            output_size = output_size.tolist()
        wanted = as_pair(output_size, "output_size", dims)
        extra = tuple(w - b for w, b in zip(wanted, base[-dims:], strict=True))
    extra = (0,) * (2 - dims) + tuple(extra)
    for e, s, d in zip(extra, stride, dilation, strict=True):
        if e < 0 or e >= max(s, d):
            raise ValueError(
                f"{op}: output_padding/output_size gives an extra {e} rows or columns, which must "
                f"be in [0, max(stride, dilation)); the smallest output is {list(base[-dims:])}"
            )
    return extra


def _check_bias(op: str, bias: Tensor | None, channels: int) -> None:
    if bias is not None and tuple(bias.shape) != (channels,):
        raise ValueError(f"{op}: bias must have shape [{channels}], got {bias.shape}")


def conv1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """1-D convolution. x: `[N, C, L]` (or NLC), weight: `[O, C/groups, k]` -> `[N, O, Lo]`.

    Args:
        x (Tensor): `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        weight (Tensor): the filters, `[O, C / groups, k]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, L_out]` with `L_out = (L + pad - dilation * (k - 1) - 1) // stride + 1`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0, 4.0]]])
        >>> w = paddle.to_tensor([[[1.0, 0.0, -1.0]]])
        >>> print(F.conv1d(x, w, padding=1))
        Tensor(shape=[1, 1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-2., -2., -2.,  3.]]])
    """
    return _conv("conv1d", x, weight, bias, stride, padding, dilation, groups, data_format, 1)


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """2-D convolution. x: `[N, C, H, W]` (or NHWC), weight: `[O, C/groups, kh, kw]`.

    `padding` is an int, `[ph, pw]`, `[top, bottom, left, right]`, per-axis pairs, 'same' or
    'valid'; `groups == C` is a depthwise convolution. Returns `[N, O, Ho, Wo]`.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        weight (Tensor): the filters, `[O, C / groups, kh, kw]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, H_out, W_out]`, `H_out = (H + pad - dilation * (kh - 1) - 1) // stride + 1`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(9, dtype='float32').reshape([1, 1, 3, 3])
        >>> w = paddle.ones([1, 1, 2, 2])
        >>> print(F.conv2d(x, w))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[8. , 12.],
                  [20., 24.]]]])
        >>> F.conv2d(paddle.ones([8, 3, 32, 32]), paddle.ones([16, 3, 3, 3]), padding=1).shape
        paddle.Size([8, 16, 32, 32])
    """
    return _conv("conv2d", x, weight, bias, stride, padding, dilation, groups, data_format, 2)


def conv1d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    output_padding: int | Sequence[int] = 0,
    groups: int = 1,
    dilation: int | Sequence[int] = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """1-D transposed convolution. x: `[N, C, L]`, weight: `[C, O/groups, k]` -> `[N, O, Lo]`.

    Args:
        x (Tensor): `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        weight (Tensor): `[C, O / groups, k]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        output_padding (int|list|tuple, optional): extra size on one side of the output. Default: 0.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        output_size (int|list|tuple, optional): the output's spatial size; picks `output_padding`.
            Default: None.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, L_out]`, `L_out = (L - 1) * stride - pad + dilation * (k - 1) + 1 +
            output_padding`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 2.0]]])
        >>> w = paddle.to_tensor([[[1.0, 10.0]]])
        >>> print(F.conv1d_transpose(x, w, stride=2))
        Tensor(shape=[1, 1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[1. , 10., 2. , 20.]]])
    """
    return _conv_transpose(
        "conv1d_transpose",
        x,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        dilation,
        groups,
        output_size,
        data_format,
        1,
    )


def conv2d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    output_padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """2-D transposed convolution (the gradient of conv2d in its input).

    x: `[N, C, H, W]`, weight: `[C, O/groups, kh, kw]` -> `[N, O, Ho, Wo]` with
    `Ho = (H - 1) * stride - pad_top - pad_bottom + dilation * (kh - 1) + 1 + output_padding`.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        weight (Tensor): `[C, O / groups, kh, kw]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        output_padding (int|list|tuple, optional): extra size on one side of the output. Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        output_size (int|list|tuple, optional): the output's spatial size; picks `output_padding`.
            Default: None.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, H_out, W_out]`, `H_out = (H - 1) * stride - pad + dilation * (kh - 1) + 1 +
            output_padding`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([1, 4, 5, 5])
        >>> w = paddle.ones([4, 2, 3, 3])
        >>> F.conv2d_transpose(x, w, stride=2, padding=1, output_padding=1).shape
        paddle.Size([1, 2, 10, 10])
    """
    return _conv_transpose(
        "conv2d_transpose",
        x,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        dilation,
        groups,
        output_size,
        data_format,
        2,
    )
