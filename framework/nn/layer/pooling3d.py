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
    """Max over `kernel_size` windows of an NCDHW (or NDHWC) input; `stride` defaults to
    `kernel_size`, `return_mask` also returns the winners' flat D*H*W positions.

        pool = framework.nn.MaxPool3D(kernel_size=2)
        pool(framework.randn([1, 3, 8, 16, 16])).shape   # [1, 3, 4, 8, 8]
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
    """Mean over `kernel_size` windows of an NCDHW (or NDHWC) input; `exclusive=True` leaves
    padding out of the count, `divisor_override` fixes the divisor.

        pool = framework.nn.AvgPool3D(kernel_size=3, stride=2, padding=1)
        pool(framework.randn([1, 3, 8, 16, 16])).shape   # [1, 3, 4, 8, 8]
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
    """Average-pool an NCDHW (or NDHWC) input down to `output_size` (an int or `[D, H, W]`;
    None keeps a size). `AdaptiveAvgPool3D(1)` is global average pooling."""

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
    """Max-pool an NCDHW input down to `output_size`; `return_mask` also returns positions."""

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
