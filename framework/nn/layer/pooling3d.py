"""3-D pooling layers: MaxPool3D, AvgPool3D, AdaptiveAvgPool3D and AdaptiveMaxPool3D, as in
`paddle.nn`; each calls the matching `framework.nn.functional` function."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer
from framework.nn.layer.pooling import _Pool

Size = int | Sequence[int]


class MaxPool3D(_Pool):
    """Max over `kernel_size` windows of an NCDHW (or NDHWC) input, as `paddle.nn.MaxPool3D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        return_mask (bool, optional): also return the flat index of each maximum. Default: False.
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D_in, H_in, W_in]`, float32 or float64.
        - output: `[N, C, D_out, H_out, W_out]`, each size as in `MaxPool2D`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.MaxPool3D(kernel_size=2)(paddle.randn([1, 2, 4, 4, 4])).shape
        paddle.Size([1, 2, 2, 2, 2])
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.return_mask = return_mask
        self.ceil_mode = ceil_mode
        self.data_format = data_format

    def forward(self, x: Tensor) -> Tensor:
        return F.max_pool3d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            ceil_mode=self.ceil_mode,
            return_mask=self.return_mask,
            data_format=self.data_format,
        )


class AvgPool3D(_Pool):
    """Mean over `kernel_size` windows of an NCDHW (or NDHWC) input, as `paddle.nn.AvgPool3D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        exclusive (bool, optional): leave padded zeros out of the mean. Default: True.
        divisor_override (float, optional): divide every window's sum by this instead.
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D_in, H_in, W_in]`, float32 or float64.
        - output: `[N, C, D_out, H_out, W_out]`, each size as in `MaxPool2D`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.AvgPool3D(kernel_size=2)(paddle.ones([1, 2, 4, 4, 4])).shape
        paddle.Size([1, 2, 2, 2, 2])
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        ceil_mode: bool = False,
        exclusive: bool = True,
        divisor_override: float | None = None,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.exclusive = exclusive
        self.divisor_override = divisor_override
        self.data_format = data_format

    def forward(self, x: Tensor) -> Tensor:
        return F.avg_pool3d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            ceil_mode=self.ceil_mode,
            exclusive=self.exclusive,
            divisor_override=self.divisor_override,
            data_format=self.data_format,
        )


class AdaptiveAvgPool3D(Layer):
    """Average-pool an NCDHW (or NDHWC) input down to `output_size`, as
    `paddle.nn.AdaptiveAvgPool3D`.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D_in, H_in, W_in]`, float32 or float64.
        - output: `[N, C, D_out, H_out, W_out]` from `output_size`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.AdaptiveAvgPool3D(2)(paddle.randn([1, 3, 4, 6, 6])).shape
        paddle.Size([1, 3, 2, 2, 2])
    """

    def __init__(
        self, output_size: Size, data_format: str = "NCDHW", name: str | None = None
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._data_format = data_format

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(x, self._output_size, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveMaxPool3D(Layer):
    """Max-pool an NCDHW input down to `output_size`, as `paddle.nn.AdaptiveMaxPool3D`.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        return_mask (bool, optional): also return the index of each maximum. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D_in, H_in, W_in]`, float32 or float64.
        - output: `[N, C, D_out, H_out, W_out]`; the mask is int64 of that shape.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.AdaptiveMaxPool3D(1)(paddle.randn([1, 3, 4, 4, 4])).shape
        paddle.Size([1, 3, 1, 1, 1])
    """

    def __init__(
        self, output_size: Size, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._return_mask = return_mask

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_max_pool3d(x, self._output_size, return_mask=self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"
