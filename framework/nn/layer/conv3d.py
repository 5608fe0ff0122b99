"""3-D convolution layers: Conv3D and Conv3DTranspose, as in `paddle.nn` (see
`framework.nn.functional.conv3d` for how they compute)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.conv import _ConvNd


class Conv3D(_ConvNd):
    """3-D convolution over `[N, C, D, H, W]` (or NDHWC) inputs; weight `[out_channels,
    in_channels / groups, kd, kh, kw]`. `padding` may be an int, 3 or 6 ints, pairs, 'same'
    or 'valid'; `padding_mode` other than 'zeros' pads with `F.pad` first.

        conv = framework.nn.Conv3D(3, 8, kernel_size=3, padding=1)
        conv(framework.randn([2, 3, 8, 16, 16])).shape   # [2, 8, 8, 16, 16]
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
    """3-D transposed convolution; weight `[in_channels, out_channels / groups, kd, kh, kw]`;
    `forward(x, output_size=None)`.

        up = framework.nn.Conv3DTranspose(8, 4, kernel_size=2, stride=2)
        up(framework.randn([1, 8, 4, 8, 8])).shape   # [1, 4, 8, 16, 16]
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
