"""LPPool1D and LPPool2D (power-average pooling), as in `paddle.nn`; they call
`F.lp_pool1d` / `F.lp_pool2d`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer

Size = int | Sequence[int]


class LPPool1D(Layer):
    """1-D power-average pooling, as `paddle.nn.LPPool1D`.

    `y = (sum of x ** norm_type over each window) ** (1 / norm_type)` over `[N, C, L]` (or
    NLC) -> `[N, C, L_out]`; `stride` defaults to `kernel_size`.

    Args:
        norm_type (float): the power p; `float('inf')` is max pooling.
        kernel_size (int|list|tuple): the window.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): as `AvgPool`. Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        data_format (str, optional): 'NCL' or 'NLC'. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]`; float32 or float64.
        - output: `[N, C, L_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.LPPool1D(norm_type=2, kernel_size=2)
        >>> print(pool(paddle.to_tensor([[[3.0, 4.0, 1.0, 0.0]]])))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[5., 1.]]])
    """

    def __init__(
        self,
        norm_type: float,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        ceil_mode: bool = False,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.norm_type = float(norm_type)
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.lp_pool1d(
            x,
            self.norm_type,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.data_format,
        )

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
        )


class LPPool2D(Layer):
    """2-D power-average pooling, as `paddle.nn.LPPool2D`.

    Power-average pooling over `[N, C, H, W]` (or NHWC) -> `[N, C, H_out, W_out]`; `stride`
    defaults to `kernel_size`.

    Args:
        norm_type (float): the power p; `float('inf')` is max pooling.
        kernel_size (int|list|tuple): the window.
        stride (int|list|tuple, optional): None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): as `AvgPool`. Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, H_out, W_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> pool = paddle.nn.LPPool2D(norm_type=3, kernel_size=2)
        >>> pool(paddle.ones([1, 2, 6, 6])).shape
        paddle.Size([1, 2, 3, 3])
    """

    def __init__(
        self,
        norm_type: float,
        kernel_size: Size,
        stride: Size | None = None,
        padding: str | Size = 0,
        ceil_mode: bool = False,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.norm_type = float(norm_type)
        self.ksize = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.data_format = data_format
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.lp_pool2d(
            x,
            self.norm_type,
            self.ksize,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.data_format,
        )

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.ksize}, stride={self.stride}, "
            f"padding={self.padding}"
        )
