"""Pooling layers: MaxPool1D/2D, AvgPool1D/2D and their adaptive forms, as in `paddle.nn`.

`stride` defaults to `kernel_size`. Each layer calls the matching `framework.nn.functional`
function with its stored settings.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer

Size = int | Sequence[int]


class _Pool(Layer):
    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_Pool):
    """Max over windows of an `[N, C, L]` input, as `paddle.nn.MaxPool1D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        return_mask (bool, optional): also return the flat index of each maximum. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L_in]`, float32 or float64.
        - output: `[N, C, L_out]`, `L_out = (L_in + 2 * padding - kernel_size) // stride + 1`;
          the mask is int64 of the same shape.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.MaxPool1D(kernel_size=2)
        >>> pool(paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0]]]))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 5.]]])
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.return_mask = return_mask
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        return F.max_pool1d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            return_mask=self.return_mask,
            ceil_mode=self.ceil_mode,
        )


class MaxPool2D(_Pool):
    """Max over `kernel_size` windows of an NCHW (or NHWC) input, as `paddle.nn.MaxPool2D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        return_mask (bool, optional): also return the flat index of each maximum. Default: False.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H_in, W_in]`, float32 or float64.
        - output: `[N, C, H_out, W_out]`, `H_out = (H_in + 2 * padding - kernel_size) // stride
          + 1` (W likewise); the mask is int64 of the same shape.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.MaxPool2D(kernel_size=2, stride=2)
        >>> pool(paddle.randn([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 4, 4])
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
        >>> out, mask = paddle.nn.MaxPool2D(2, return_mask=True)(x)
        >>> float(out), int(mask)
        (4.0, 2)
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NCHW",
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
        return F.max_pool2d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            return_mask=self.return_mask,
            ceil_mode=self.ceil_mode,
            data_format=self.data_format,
        )


class AvgPool1D(_Pool):
    """Mean over windows of an `[N, C, L]` input, as `paddle.nn.AvgPool1D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        exclusive (bool, optional): leave padded zeros out of the mean. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L_in]`, float32 or float64.
        - output: `[N, C, L_out]`, `L_out = (L_in + 2 * padding - kernel_size) // stride + 1`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.AvgPool1D(kernel_size=2)
        >>> pool(paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]]))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2., 4.]]])
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        exclusive: bool = True,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.exclusive = exclusive
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        return F.avg_pool1d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            exclusive=self.exclusive,
            ceil_mode=self.ceil_mode,
        )


class AvgPool2D(_Pool):
    """Mean over `kernel_size` windows of an NCHW (or NHWC) input, as `paddle.nn.AvgPool2D`.

    Args:
        kernel_size (int|list|tuple): window size, one int or one per spatial axis.
        stride (int|list|tuple, optional): window step. Default: None (`kernel_size`).
        padding (int|list|tuple|str, optional): padding on each side, or 'same' / 'valid'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up instead of down. Default: False.
        exclusive (bool, optional): leave padded zeros out of the mean. Default: True.
        divisor_override (float, optional): divide every window's sum by this instead.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H_in, W_in]`, float32 or float64.
        - output: `[N, C, H_out, W_out]`, each size as in `MaxPool2D`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.AvgPool2D(kernel_size=2, stride=2)
        >>> pool(paddle.randn([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 4, 4])
    """

    def __init__(
        self,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        ceil_mode: bool = False,
        exclusive: bool = True,
        divisor_override: float | None = None,
        data_format: str = "NCHW",
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
        return F.avg_pool2d(
            x,
            self.kernel_size,
            stride=self.stride,
            padding=self.padding,
            ceil_mode=self.ceil_mode,
            exclusive=self.exclusive,
            divisor_override=self.divisor_override,
            data_format=self.data_format,
        )


class AdaptiveAvgPool1D(Layer):
    """Average-pool an `[N, C, L]` input down to `output_size` positions, as
    `paddle.nn.AdaptiveAvgPool1D`.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L_in]`, float32 or float64.
        - output: `[N, C, output_size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.AdaptiveAvgPool1D(output_size=2)
        >>> pool(paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]]))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2., 4.]]])
    """

    def __init__(self, output_size: int, name: str | None = None) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(x, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2D(Layer):
    """Average-pool an NCHW (or NHWC) input down to `output_size`, as
    `paddle.nn.AdaptiveAvgPool2D`; `output_size=1` is global average pooling.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H_in, W_in]`, float32 or float64.
        - output: `[N, C, H_out, W_out]` from `output_size`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.AdaptiveAvgPool2D(1)(paddle.randn([2, 8, 7, 7])).shape
        paddle.Size([2, 8, 1, 1])
        >>> paddle.nn.AdaptiveAvgPool2D([3, None])(paddle.randn([2, 8, 7, 5])).shape
        paddle.Size([2, 8, 3, 5])
    """

    def __init__(
        self, output_size: Size, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._data_format = data_format

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(x, self._output_size, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveMaxPool1D(Layer):
    """Max-pool an `[N, C, L]` input down to `output_size` positions, as
    `paddle.nn.AdaptiveMaxPool1D`.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        return_mask (bool, optional): also return the index of each maximum. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L_in]`, float32 or float64.
        - output: `[N, C, output_size]`; the mask is int64 of the same shape.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.AdaptiveMaxPool1D(output_size=2)
        >>> pool(paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]]))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 6.]]])
    """

    def __init__(
        self, output_size: int, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_mask = return_mask

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_max_pool1d(x, self.output_size, return_mask=self.return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, return_mask={self.return_mask}"


class AdaptiveMaxPool2D(Layer):
    """Max-pool an NCHW input down to `output_size`, as `paddle.nn.AdaptiveMaxPool2D`.

    Args:
        output_size (int|list|tuple): the output's spatial size; one int for every axis, or one
            per axis (None keeps that axis).
        return_mask (bool, optional): also return the index of each maximum. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H_in, W_in]`, float32 or float64.
        - output: `[N, C, H_out, W_out]` from `output_size`; the mask is int64 of that shape.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.AdaptiveMaxPool2D([2, 2])(paddle.randn([1, 3, 5, 5])).shape
        paddle.Size([1, 3, 2, 2])
    """

    def __init__(
        self, output_size: Size, return_mask: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self._output_size = output_size
        self._return_mask = return_mask

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_max_pool2d(x, self._output_size, return_mask=self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


# --- Paddle's layout: `paddle.nn.layer.pooling` also holds these layers, defined in sibling
# modules of this package. Imported last: those modules import this one's base classes. -----
from framework.nn.layer.fractional_pool import (  # noqa: E402, F401
    FractionalMaxPool2D,
    FractionalMaxPool3D,
)
from framework.nn.layer.lp_pool import LPPool1D, LPPool2D  # noqa: E402, F401
from framework.nn.layer.max_unpool import (  # noqa: E402, F401
    MaxUnPool1D,
    MaxUnPool2D,
    MaxUnPool3D,
)
from framework.nn.layer.pooling3d import (  # noqa: E402, F401
    AdaptiveAvgPool3D,
    AdaptiveMaxPool3D,
    AvgPool3D,
    MaxPool3D,
)
