"""Convolution layers: Conv1D, Conv2D, Conv1DTranspose, Conv2DTranspose, as in `paddle.nn`.

Weights are `[out_channels, in_channels / groups, *kernel_size]` (transposed:
`[in_channels, out_channels / groups, *kernel_size]`). Paddle's defaults: a convolution's
weight is drawn from `Normal(0, sqrt(2 / (in_channels * prod(kernel_size))))`, a transposed
one's from XavierUniform, biases start at zero. `padding_mode` other than 'zeros' pads the
input with `F.pad` first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.initializer import Normal
from framework.nn.layer.checks import check_channels, check_dtype_and_device
from framework.nn.layer.layers import Layer, default_dtype

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")
_LAYOUTS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _as_list(value: int | Sequence[int], dims: int, what: str) -> list[int]:
    if isinstance(value, int):
        return [value] * dims
    values = [int(v) for v in value]
    if len(values) != dims:
        raise ValueError(f"{what} must be an int or {dims} ints, got {value!r}")
    return values


class _ConvNd(Layer):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        transposed: bool,
        dims: int,
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence = 0,
        padding_mode: str = "zeros",
        output_padding: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
        dtype: object = None,
        device: object = None,
    ) -> None:
        super().__init__()
        if weight_attr is False:
            raise ValueError("weight_attr should not be False in Conv.")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {set(_PADDING_MODES)}, but got "
                f"padding_mode='{padding_mode}'"
            )
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError(
                "when padding_mode in ['reflect', 'replicate', 'circular'], "
                "type of padding must be int"
            )
        if data_format not in _LAYOUTS[dims]:
            raise ValueError(f"data_format must be one of {_LAYOUTS[dims]}, got {data_format!r}")
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(
                f"groups={groups} must divide in_channels={in_channels} and "
                f"out_channels={out_channels}"
            )
        self._dtype = dtype if dtype is not None else default_dtype()
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._kernel_size = _as_list(kernel_size, dims, "kernel_size")
        self._stride = _as_list(stride, dims, "stride")
        self._dilation = _as_list(dilation, dims, "dilation")
        self._padding = padding
        self._padding_mode = padding_mode
        self.output_padding = output_padding
        self._groups = groups
        self._data_format = data_format
        self._channel_last = data_format == _LAYOUTS[dims][1]
        self._dims = dims
        self._transposed = transposed
        if transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            initializer = None
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            fan_in = in_channels * math.prod(self._kernel_size)
            initializer = Normal(0.0, (2.0 / fan_in) ** 0.5)
        self.weight = self.create_parameter(
            shape, attr=weight_attr, default_initializer=initializer, device=device
        )
        self.bias = self.create_parameter(
            [out_channels], attr=bias_attr, is_bias=True, device=device
        )

    def _check(self, x: Tensor) -> None:
        check_channels(
            self,
            x,
            self._in_channels,
            self._dims + 2,
            self._channel_last,
            self._data_format,
        )
        weight = self.weight
        if x._data.dtype != weight._data.dtype or type(x._data) is not type(weight._data):
            check_dtype_and_device(self, x, weight)

    def _short(self) -> str:
        name = type(self).__name__
        return f"{name}({self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size})"

    def _padded(self, x: Tensor) -> tuple[Tensor, object]:
        if self._padding_mode == "zeros":
            return x, self._padding
        pads = [self._padding] * (2 * self._dims)
        return F.pad(x, pads, mode=self._padding_mode, data_format=self._data_format), 0

    def extra_repr(self) -> str:
        text = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._dims:
            text += f", stride={self._stride}"
        if self._padding != 0:
            text += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            text += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            text += f", output_padding={self.output_padding}"
        if self._dilation != [1] * self._dims:
            text += f", dilation={self._dilation}"
        if self._groups != 1:
            text += f", groups={self._groups}"
        return text + f", data_format={self._data_format}"


class Conv1D(_ConvNd):
    """1-D convolution over `[N, C, L]` (or NLC) inputs, as `paddle.nn.Conv1D`.

    The weight is `[out_channels, in_channels / groups, kernel_size]`, drawn from
    `Normal(0, sqrt(2 / (in_channels * kernel_size)))`; the bias starts at zero.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output, one per filter.
        kernel_size (int|list|tuple): filter size, one int for every spatial axis or one per axis.
        stride (int|list|tuple, optional): step of the filter. Default: 1.
        padding (int|list|tuple|str, optional): zeros added to each side, or 'same' / 'valid'.
            Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups=in_channels` is depthwise. Default: 1.
        padding_mode (str, optional): 'zeros', 'reflect', 'replicate' or 'circular'.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        data_format (str, optional): the layout of the input, channels first by default.

    Shape:
        - x: `[N, C_in, L_in]` ('NCL') or `[N, L_in, C_in]` ('NLC'); float32 or float64.
        - output: `[N, C_out, L_out]`, with
          `L_out = (L_in + 2 * padding - dilation * (kernel_size - 1) - 1) // stride + 1`.

    Examples:
        >>> import framework as paddle
        >>> conv = paddle.nn.Conv1D(4, 8, kernel_size=3, padding=1)
        >>> conv(paddle.ones([2, 4, 10])).shape
        paddle.Size([2, 8, 10])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        *,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCL",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=False,
            dims=1,
            stride=stride,
            padding=padding,
            padding_mode=padding_mode,
            dilation=dilation,
            groups=groups,
            weight_attr=weight_attr,
            bias_attr=bias_attr if bias else False,
            data_format=data_format,
            dtype=dtype,
            device=device,
        )

    def forward(self, x: Tensor) -> Tensor:
        self._check(x)
        x, padding = self._padded(x)
        return F.conv1d(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=padding,
            dilation=self._dilation,
            groups=self._groups,
            data_format=self._data_format,
        )


class Conv2D(_ConvNd):
    """2-D convolution over `[N, C, H, W]` (or NHWC) inputs, as `paddle.nn.Conv2D`.

    The weight is `[out_channels, in_channels / groups, kh, kw]`, drawn from
    `Normal(0, sqrt(2 / (in_channels * kh * kw)))`; the bias starts at zero.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output, one per filter.
        kernel_size (int|list|tuple): filter size, one int for every spatial axis or one per axis.
        stride (int|list|tuple, optional): step of the filter. Default: 1.
        padding (int|list|tuple|str, optional): zeros added to each side, or 'same' / 'valid'.
            Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups; `groups=in_channels` is depthwise. Default: 1.
        padding_mode (str, optional): 'zeros', 'reflect', 'replicate' or 'circular'.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        data_format (str, optional): the layout of the input, channels first by default.

    Shape:
        - x: `[N, C_in, H_in, W_in]` ('NCHW') or `[N, H_in, W_in, C_in]` ('NHWC'); float32 or
          float64.
        - output: `[N, C_out, H_out, W_out]`, with
          `H_out = (H_in + 2 * padding - dilation * (kh - 1) - 1) // stride + 1` (W likewise).

    Examples:
        >>> import framework as paddle
        >>> conv = paddle.nn.Conv2D(3, 16, kernel_size=3, padding=1)
        >>> conv
        Conv2D(3, 16, kernel_size=[3, 3], padding=1, data_format=NCHW)
        >>> conv(paddle.ones([2, 3, 8, 8])).shape
        paddle.Size([2, 16, 8, 8])
        >>> conv.weight.shape
        paddle.Size([16, 3, 3, 3])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        *,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: object = None,
        dtype: object = None,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=False,
            dims=2,
            stride=stride,
            padding=padding,
            padding_mode=padding_mode,
            dilation=dilation,
            groups=groups,
            weight_attr=weight_attr,
            bias_attr=bias_attr if bias else False,
            data_format=data_format,
            dtype=dtype,
            device=device,
        )

    def forward(self, x: Tensor) -> Tensor:
        self._check(x)
        x, padding = self._padded(x)
        return F.conv2d(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=padding,
            dilation=self._dilation,
            groups=self._groups,
            data_format=self._data_format,
        )


class Conv1DTranspose(_ConvNd):
    """1-D transposed convolution (the gradient of `Conv1D`), as `paddle.nn.Conv1DTranspose`.

    The weight is `[in_channels, out_channels / groups, kernel_size]`, drawn XavierUniform.
    `forward(x, output_size=None)` may ask for an exact output length.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output.
        kernel_size (int|list|tuple): filter size, one int for every spatial axis or one per axis.
        stride (int|list|tuple, optional): upsampling step. Default: 1.
        padding (int|list|tuple|str, optional): padding removed from each side of the output.
            Default: 0.
        output_padding (int|list|tuple, optional): extra size added to one side of the output.
            Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups. Default: 1.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        data_format (str, optional): the layout of the input, channels first by default.

    Shape:
        - x: `[N, C_in, L_in]` ('NCL') or `[N, L_in, C_in]` ('NLC'); float32 or float64.
        - output: `[N, C_out, L_out]`, with `L_out = (L_in - 1) * stride - 2 * padding +
          dilation * (kernel_size - 1) + output_padding + 1`.

    Examples:
        >>> import framework as paddle
        >>> deconv = paddle.nn.Conv1DTranspose(4, 2, kernel_size=2, stride=2)
        >>> deconv(paddle.ones([1, 4, 5])).shape
        paddle.Size([1, 2, 10])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence = 0,
        output_padding: int | Sequence[int] = 0,
        groups: int = 1,
        dilation: int | Sequence[int] = 1,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCL",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=True,
            dims=1,
            stride=stride,
            padding=padding,
            output_padding=output_padding,
            dilation=dilation,
            groups=groups,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format=data_format,
        )

    def forward(self, x: Tensor, output_size: Sequence[int] | None = None) -> Tensor:
        self._check(x)
        return F.conv1d_transpose(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=self._padding,
            output_padding=self.output_padding,
            groups=self._groups,
            dilation=self._dilation,
            output_size=output_size,
            data_format=self._data_format,
        )


class Conv2DTranspose(_ConvNd):
    """2-D transposed convolution (the gradient of `Conv2D`), as `paddle.nn.Conv2DTranspose`.

    The weight is `[in_channels, out_channels / groups, kh, kw]`, drawn XavierUniform.
    `forward(x, output_size=None)` may ask for an exact `[H_out, W_out]`.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output.
        kernel_size (int|list|tuple): filter size, one int for every spatial axis or one per axis.
        stride (int|list|tuple, optional): upsampling step. Default: 1.
        padding (int|list|tuple|str, optional): padding removed from each side of the output.
            Default: 0.
        output_padding (int|list|tuple, optional): extra size added to one side of the output.
            Default: 0.
        dilation (int|list|tuple, optional): spacing between filter taps. Default: 1.
        groups (int, optional): channel groups. Default: 1.
        weight_attr (ParamAttr, optional): the weight's attribute (initializer, name).
        bias_attr (ParamAttr|bool, optional): the bias's attribute; False drops the bias.
        data_format (str, optional): the layout of the input, channels first by default.

    Shape:
        - x: `[N, C_in, H_in, W_in]` ('NCHW') or `[N, H_in, W_in, C_in]` ('NHWC'); float32 or
          float64.
        - output: `[N, C_out, H_out, W_out]`, with `H_out = (H_in - 1) * stride - 2 * padding +
          dilation * (kh - 1) + output_padding + 1` (W likewise).

    Examples:
        >>> import framework as paddle
        >>> deconv = paddle.nn.Conv2DTranspose(8, 4, kernel_size=4, stride=2, padding=1)
        >>> deconv(paddle.ones([2, 8, 5, 5])).shape
        paddle.Size([2, 4, 10, 10])
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        padding: str | int | Sequence = 0,
        output_padding: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        weight_attr: object = None,
        bias_attr: object = None,
        data_format: str = "NCHW",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=True,
            dims=2,
            stride=stride,
            padding=padding,
            output_padding=output_padding,
            dilation=dilation,
            groups=groups,
            weight_attr=weight_attr,
            bias_attr=bias_attr,
            data_format=data_format,
        )

    def forward(self, x: Tensor, output_size: Sequence[int] | None = None) -> Tensor:
        self._check(x)
        return F.conv2d_transpose(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=self._padding,
            output_padding=self.output_padding,
            dilation=self._dilation,
            groups=self._groups,
            output_size=output_size,
            data_format=self._data_format,
        )


# --- Paddle's layout: `paddle.nn.layer.conv` also holds these layers, defined in sibling
# modules of this package. Imported last: those modules import this one's base classes. -----
from framework.nn.layer.conv3d import (  # noqa: E402, F401
    Conv3D,
    Conv3DTranspose,
)
