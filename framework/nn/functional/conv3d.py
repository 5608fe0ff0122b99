"""3-D convolutions: `conv3d` and `conv3d_transpose` (Paddle's API).

Both are composed from the 2-D ops, one per kernel depth tap: tap `a` of a convolution is a
2-D convolution of every input depth slice `o * stride + a * dilation` with `weight[:, :, a]`,
run as one batch of `N * D_out` images, and the taps add up. Gradients of any order, the CPU
backend's 2-D kernels, the GPU path and graph export (as 2-D convolutions) come from those
ops. Weights are `[out, in/groups, kd, kh, kw]` (convolution) and `[in, out/groups, kd, kh,
kw]` (transposed), as in Paddle.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.conv_geometry import as_pair, parse_padding
from framework.core.tensor import Tensor
from framework.nn.functional.conv import _same_transposed, conv2d, conv2d_transpose
from framework.ops.manipulation import pad, transpose

_LAYOUTS = ("NCDHW", "NDHWC")


def _prepare(op: str, x: Tensor, weight: Tensor, bias, groups: int, data_format: str, transposed):
    """Check the arguments; returns x as NCDHW."""
    if data_format not in _LAYOUTS:
        raise ValueError(f"{op}: data_format must be one of {_LAYOUTS}, got {data_format!r}")
    if x.ndim != 5:
        raise ValueError(f"{op}: expected a 5-D input ({data_format}), got shape {x.shape}")
    if weight.ndim != 5:
        raise ValueError(f"{op}: expected a 5-D weight, got shape {weight.shape}")
    if x.dtype != weight.dtype:
        raise TypeError(f"{op}: input is {x.dtype} but weight is {weight.dtype}")
    if data_format == "NDHWC":
        x = transpose(x, [0, 4, 1, 2, 3])
    groups = int(groups)
    if groups < 1 or weight.shape[0] % groups:
        raise ValueError(f"{op}: groups={groups} must be positive and divide {weight.shape[0]}")
    expected = weight.shape[0] if transposed else weight.shape[1] * groups
    if x.shape[1] != expected:
        role = "weight.shape[0]" if transposed else f"weight.shape[1] * groups ({groups})"
        raise ValueError(
            f"{op}: the input has {x.shape[1]} channels but {role} is {expected} "
            f"(input shape {x.shape}, weight shape {weight.shape})"
        )
    out_channels = weight.shape[1] * groups if transposed else weight.shape[0]
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise ValueError(f"{op}: bias must have shape [{out_channels}], got {bias.shape}")
    return x


def _finish(y: Tensor, bias: Tensor | None, data_format: str) -> Tensor:
    """`y` `[N, D, O, H, W]` (depth-major, as the taps produce it) -> the user's layout."""
    if bias is not None:
        y = y + bias.reshape([1, 1, -1, 1, 1])
    return transpose(y, [0, 1, 3, 4, 2] if data_format == "NDHWC" else [0, 2, 1, 3, 4])


def _pad_depth(x: Tensor, before: int, after: int, axis: int) -> Tensor:
    if before == 0 and after == 0:
        return x
    widths = [0, 0] * x.ndim
    widths[2 * axis : 2 * axis + 2] = [before, after]
    return pad(x, widths, pad_from_left_axis=True)


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """3-D convolution. x: `[N, C, D, H, W]` (or NDHWC), weight: `[O, C/groups, kd, kh, kw]`
    -> `[N, O, Do, Ho, Wo]`, `Do = (D + pad_front + pad_back - dilation * (kd - 1) - 1) //
    stride + 1` (likewise H, W). `padding` is an int, 3 ints, 6 ints, per-axis pairs, 'same'
    or 'valid'. Float dtypes.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        weight (Tensor): the filters, `[O, C / groups, kd, kh, kw]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, D_out, H_out, W_out]`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([2, 3, 4, 8, 8])
        >>> w = paddle.ones([8, 3, 3, 3, 3])
        >>> F.conv3d(x, w, padding=1).shape
        paddle.Size([2, 8, 4, 8, 8])
        >>> print(F.conv3d(paddle.ones([1, 1, 2, 2, 2]), paddle.ones([1, 1, 2, 2, 2])))
        Tensor(shape=[1, 1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[8.]]]]])
    """
    op = "conv3d"
    x = _prepare(op, x, weight, bias, groups, data_format, transposed=False)
    kernel = tuple(weight.shape[2:])
    stride = as_pair(stride, "stride", 3)
    dilation = as_pair(dilation, "dilation", 3)
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"{op}: stride and dilation must be positive")
    pads = parse_padding(padding, 3, kernel, stride, dilation, tuple(x.shape[2:]), False)
    x = _pad_depth(transpose(x, [0, 2, 1, 3, 4]), *pads[0], axis=1)  # [N, D', C, H, W]
    n_depth = x.shape[1]
    reach = dilation[0] * (kernel[0] - 1) + 1
    if n_depth < reach:
        raise ValueError(
            f"{op}: the padded input depth {n_depth} is smaller than the kernel's reach {reach}"
        )
    out_depth = (n_depth - reach) // stride[0] + 1
    channels, height, width = x.shape[2:]
    y = None
    for a in range(kernel[0]):
        start = a * dilation[0]
        taps = x[:, start : start + stride[0] * (out_depth - 1) + 1 : stride[0]]
        images = taps.reshape([-1, channels, height, width])  # [N * Do, C, H, W]
        part = conv2d(images, weight[:, :, a], None, stride[1:], [*pads[1:]], dilation[1:], groups)
        y = part if y is None else y + part
    y = y.reshape([-1, out_depth, *y.shape[1:]])
    return _finish(y, bias, data_format)


def conv3d_transpose(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: str | int | Sequence = 0,
    output_padding: int | Sequence[int] = 0,
    groups: int = 1,
    dilation: int | Sequence[int] = 1,
    output_size: int | Sequence[int] | None = None,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """3-D transposed convolution, as `paddle.nn.functional.conv3d_transpose`.

    3-D transposed convolution (the gradient of conv3d in its input). x: `[N, C, D, H,
    W]`, weight: `[C, O/groups, kd, kh, kw]` -> `[N, O, Do, Ho, Wo]` with `Do = (D - 1) *
    stride - pad_front - pad_back + dilation * (kd - 1) + 1 + output_padding` (likewise H, W);
    `output_size` picks the output padding instead.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        weight (Tensor): `[C, O / groups, kd, kh, kw]`, the dtype of `x`.
        bias (Tensor, optional): `[O]`, added per output channel. Default: None.
        stride (int|list|tuple, optional): the filter's step, one int or one per axis. Default: 1.
        padding (int|list|tuple|str, optional): an int, one per axis, `(before, after)` pairs, or
            'same' / 'valid'. Default: 0.
        output_padding (int|list|tuple, optional): extra size on one side of the output. Default: 0.
        groups (int, optional): channel groups; `groups == C` is depthwise. Default: 1.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        output_size (int|list|tuple, optional): the output's spatial size; picks `output_padding`.
            Default: None.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, O, D_out, H_out, W_out]`, `D_out = (D - 1) * stride - pad + dilation * (kd - 1)
            + 1 + output_padding`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([1, 4, 3, 5, 5])
        >>> w = paddle.ones([4, 2, 3, 3, 3])
        >>> F.conv3d_transpose(x, w, stride=2, padding=1, output_padding=1).shape
        paddle.Size([1, 2, 6, 10, 10])
    """
    op = "conv3d_transpose"
    x = _prepare(op, x, weight, bias, groups, data_format, transposed=True)
    kernel = tuple(weight.shape[2:])
    stride = as_pair(stride, "stride", 3)
    dilation = as_pair(dilation, "dilation", 3)
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"{op}: stride and dilation must be positive")
    if isinstance(padding, str) and padding.lower() == "same":
        pads = tuple(
            _same_transposed(k, s, d) for k, s, d in zip(kernel, stride, dilation, strict=True)
        )
    else:
        pads = parse_padding(padding, 3, kernel, stride, dilation, tuple(x.shape[2:]), False)
    depth, (front, back) = x.shape[2], pads[0]
    base = (depth - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1
    if output_size is not None:
        wanted = as_pair(
            output_size.tolist() if isinstance(output_size, Tensor) else output_size,
            "output_size",
            3,
        )
        extra = wanted[0] - (base - front - back)
        hw_size = wanted[1:]
    else:
        extra = as_pair(output_padding, "output_padding", 3)[0]
        hw_size = None
    if not 0 <= extra < max(stride[0], dilation[0]):
        raise ValueError(
            f"{op}: output_padding/output_size gives an extra {extra} depth slices, which must "
            f"be in [0, max(stride, dilation))"
        )
    out_depth = base - front - back + extra
    if out_depth < 1:
        raise ValueError(f"{op}: the output would have depth {out_depth}")
    hw_padding = 0 if hw_size is not None else as_pair(output_padding, "output_padding", 3)[1:]
    x = transpose(x, [0, 2, 1, 3, 4])  # [N, D, C, H, W]
    channels, height, width = x.shape[2:]
    images = x.reshape([-1, channels, height, width])
    # Every tap lands on the depth positions i * stride + a * dilation of an uncropped buffer
    # that the crop [front, front + out_depth) then reads.
    length = max(base, front + out_depth)
    spread = (depth - 1) * stride[0] + 1
    y = None
    for a in range(kernel[0]):
        part = conv2d_transpose(
            images,
            weight[:, :, a],
            None,
            stride[1:],
            [*pads[1:]],
            hw_padding,
            dilation[1:],
            groups,
            hw_size,
        )
        part = part.reshape([-1, depth, 1, *part.shape[1:]])  # [N, D, 1, O, Ho, Wo]
        if stride[0] > 1:  # interleave stride - 1 empty slices after each input slice
            part = _pad_depth(part, 0, stride[0] - 1, axis=2)
        part = part.reshape([-1, depth * stride[0], *part.shape[3:]])[:, :spread]
        offset = a * dilation[0]
        part = _pad_depth(part, offset, length - offset - spread, axis=1)
        y = part if y is None else y + part
    return _finish(y[:, front : front + out_depth], bias, data_format)
