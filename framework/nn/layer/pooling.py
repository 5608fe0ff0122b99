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
    """Max over windows of an `[N, C, L]` input."""

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
    """Max over `kernel_size` windows of an NCHW (or NHWC) input.

    pool = framework.nn.MaxPool2D(kernel_size=2, stride=2)
    pool(framework.randn([1, 3, 32, 32])).shape   # [1, 3, 16, 16]
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
    """Mean over windows of an `[N, C, L]` input; `exclusive=True` ignores padding."""

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
    """Mean over `kernel_size` windows of an NCHW (or NHWC) input; `exclusive=True` leaves
    padding out of the count, `divisor_override` fixes the divisor."""

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
    """Average-pool an `[N, C, L]` input down to `output_size` positions."""

    def __init__(self, output_size: int, name: str | None = None) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(x, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2D(Layer):
    """Average-pool an NCHW input down to `output_size` (an int or `[H, W]`; None keeps one
    of them). `AdaptiveAvgPool2D(1)` is global average pooling."""

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
    """Max-pool an NCHW input down to `output_size`."""

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
