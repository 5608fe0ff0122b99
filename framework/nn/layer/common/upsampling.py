"""Upsampling layers: Upsample, UpsamplingNearest2D and UpsamplingBilinear2D, as in
`paddle.nn`.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer


class Upsample(Layer):
    """Resize the spatial axes, as `paddle.nn.Upsample`.

    Resize by `size` or `scale_factor` with `mode` 'nearest' (default), 'bilinear', ...

    Args:
        size (list|tuple, optional): the output's spatial size. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier, when `size` is None.
            Default: None.
        mode (str, optional): 'nearest', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.
            Default: 'nearest'.
        align_corners (bool, optional): as `F.interpolate`. Default: False.
        align_mode (int, optional): as `F.interpolate`. Default: 0.
        data_format (str, optional): None picks by rank. Default: None.
        recompute_scale_factor (bool, optional): as `F.interpolate`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: 3-, 4- or 5-D, channels first by default; float32 or float64.
        - output: `[N, C, *size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.Upsample(scale_factor=2, mode='nearest')
        >>> print(up(paddle.to_tensor([[[[1.0, 2.0]]]])))
        Tensor(shape=[1, 1, 2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        mode: str = "nearest",
        align_corners: bool = False,
        align_mode: int = 0,
        data_format: str | None = None,
        recompute_scale_factor: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode.lower()
        self.align_corners = align_corners
        self.align_mode = align_mode
        self.data_format = data_format
        self.recompute_scale_factor = recompute_scale_factor
        self.name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.interpolate(
            x,
            size=self.size,
            scale_factor=self.scale_factor,
            mode=self.mode,
            align_corners=self.align_corners,
            align_mode=self.align_mode,
            data_format=self.data_format,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor else f"size={self.size}"
        name = f", name={self.name}" if self.name else ""
        return (
            f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
            f"align_mode={self.align_mode}, data_format={self.data_format}{name}"
        )


class UpsamplingNearest2D(Upsample):
    """Nearest-neighbour 2-D upsampling, as `paddle.nn.UpsamplingNearest2D`.

    Args:
        size (list|tuple, optional): the output's `[H, W]`. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier. Default: None.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, H_out, W_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.UpsamplingNearest2D(scale_factor=2)
        >>> print(up(paddle.to_tensor([[[[1.0, 2.0]]]])))
        Tensor(shape=[1, 1, 2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(size, scale_factor, "nearest", data_format=data_format, name=name)


class UpsamplingBilinear2D(Upsample):
    """Bilinear 2-D upsampling with aligned corners, as `paddle.nn.UpsamplingBilinear2D`.

    Bilinear resize with `align_corners=True`, as in Paddle.

    Args:
        size (list|tuple, optional): the output's `[H, W]`. Default: None.
        scale_factor (float|list|tuple, optional): the spatial multiplier. Default: None.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C, H_out, W_out]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> up = paddle.nn.UpsamplingBilinear2D(size=[1, 3])
        >>> print(up(paddle.to_tensor([[[[1.0, 3.0]]]])))
        Tensor(shape=[1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 2., 3.]]]])
    """

    def __init__(
        self,
        size: Sequence[int] | None = None,
        scale_factor: float | Sequence[float] | None = None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(
            size, scale_factor, "bilinear", align_corners=True, data_format=data_format, name=name
        )
