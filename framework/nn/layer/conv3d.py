"""3-D convolution layers: Conv3D and Conv3DTranspose, as in `paddle.nn` (see
`framework.nn.functional.conv3d` for how they compute)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.conv import _ConvNd


class Conv3D(_ConvNd):
    """3-D convolution over `[N, C, D, H, W]` (or NDHWC) inputs, as `paddle.nn.Conv3D`.

    The weight is `[out_channels, in_channels / groups, kd, kh, kw]`; the bias starts at zero.

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
        - x: `[N, C_in, D_in, H_in, W_in]` ('NCDHW') or channels last ('NDHWC'); float32 or
          float64.
        - output: `[N, C_out, D_out, H_out, W_out]`, each spatial size as in `Conv2D`.

    Examples:
        >>> import framework as paddle
        >>> conv = paddle.nn.Conv3D(2, 4, kernel_size=3, stride=2, padding=1)
        >>> conv(paddle.ones([1, 2, 6, 6, 6])).shape
        paddle.Size([1, 4, 3, 3, 3])
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
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=False,
            dims=3,
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
        return F.conv3d(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=padding,
            dilation=self._dilation,
            groups=self._groups,
            data_format=self._data_format,
        )


class Conv3DTranspose(_ConvNd):
    """3-D transposed convolution (the gradient of `Conv3D`), as `paddle.nn.Conv3DTranspose`.

    The weight is `[in_channels, out_channels / groups, kd, kh, kw]`, drawn XavierUniform.

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
        - x: `[N, C_in, D_in, H_in, W_in]` ('NCDHW') or channels last ('NDHWC'); float32 or
          float64.
        - output: `[N, C_out, D_out, H_out, W_out]`, each size as in `Conv2DTranspose`.

    Examples:
        >>> import framework as paddle
        >>> deconv = paddle.nn.Conv3DTranspose(2, 1, kernel_size=2, stride=2)
        >>> deconv(paddle.ones([1, 2, 3, 3, 3])).shape
        paddle.Size([1, 1, 6, 6, 6])
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
        data_format: str = "NCDHW",
    ) -> None:
        super().__init__(
            in_channels=in_channels,
            out_channels=out_channels,
            kernel_size=kernel_size,
            transposed=True,
            dims=3,
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
        return F.conv3d_transpose(
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
