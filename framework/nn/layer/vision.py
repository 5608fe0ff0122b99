"""PixelShuffle, PixelUnshuffle and ChannelShuffle, as in `paddle.nn` (layers over the
rearrangements in `framework.nn.functional.rearrange`)."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer

_LAYOUTS = ("NCHW", "NHWC")


class _Rearrange(Layer):
    """Checks and `extra_repr` shared by the three layers: one positive int factor."""

    _factor_name = ""

    def __init__(self, factor: int, data_format: str, name: str | None) -> None:
        super().__init__()
        if not isinstance(factor, int):
            raise TypeError(f"{type(self).__name__}: {self._factor_name} must be an int")
        if factor <= 0:
            raise ValueError(f"{type(self).__name__}: {self._factor_name} must be positive")
        if data_format not in _LAYOUTS:
            raise ValueError(
                f"{type(self).__name__}: data_format must be one of {_LAYOUTS}, got {data_format!r}"
            )
        self._factor = factor
        self._data_format = data_format
        self._name = name

    def extra_repr(self) -> str:
        text = f"{self._factor_name}={self._factor}"
        if self._data_format != "NCHW":
            text += f", data_format={self._data_format}"
        if self._name is not None:
            text += f", name={self._name}"
        return text


class PixelShuffle(_Rearrange):
    """Channels into space, as `paddle.nn.PixelShuffle`.

    `[N, C * r * r, H, W] -> [N, C, H * r, W * r]` (r = `upscale_factor`; NCHW or NHWC).

    Args:
        upscale_factor (int): r.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C * r * r, H, W]`; any dtype.
        - output: `[N, C, H * r, W * r]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(4, dtype='float32').reshape([1, 4, 1, 1])
        >>> print(paddle.nn.PixelShuffle(2)(x))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0., 1.],
                  [2., 3.]]]])
        >>> paddle.nn.PixelShuffle(3)(paddle.ones([2, 9, 4, 4])).shape
        paddle.Size([2, 1, 12, 12])
    """

    _factor_name = "upscale_factor"

    def __init__(
        self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(upscale_factor, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.pixel_shuffle(x, self._factor, self._data_format)


class PixelUnshuffle(_Rearrange):
    """Space into channels, as `paddle.nn.PixelUnshuffle`.

    `[N, C, H * r, W * r] -> [N, C * r * r, H, W]` (r = `downscale_factor`), the inverse of
    PixelShuffle.

    Args:
        downscale_factor (int): r.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H * r, W * r]`; any dtype.
        - output: `[N, C * r * r, H, W]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> paddle.nn.PixelUnshuffle(3)(paddle.ones([2, 1, 12, 12])).shape
        paddle.Size([2, 9, 4, 4])
    """

    _factor_name = "downscale_factor"

    def __init__(
        self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(downscale_factor, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.pixel_unshuffle(x, self._factor, self._data_format)


class ChannelShuffle(_Rearrange):
    """Interleave channel groups (ShuffleNet), as `paddle.nn.ChannelShuffle`.

    Interleave the channels of `groups` groups (ShuffleNet); `[N, C, H, W]` in and out, C
    divisible by `groups`.

    Args:
        groups (int): divides C.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` (or NHWC); any dtype.
        - output: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(6, dtype='float32').reshape([1, 6, 1, 1])
        >>> print(paddle.nn.ChannelShuffle(3)(x).flatten())
        Tensor(shape=[6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 4., 1., 3., 5.])
    """

    _factor_name = "groups"

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(groups, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.channel_shuffle(x, self._factor, self._data_format)
