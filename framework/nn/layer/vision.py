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
    """`[N, C * r * r, H, W] -> [N, C, H * r, W * r]` (r = `upscale_factor`; NCHW or NHWC).

    shuffle = framework.nn.PixelShuffle(3)
    shuffle(framework.randn([2, 9, 4, 4])).shape   # [2, 1, 12, 12]
    """

    _factor_name = "upscale_factor"

    def __init__(
        self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(upscale_factor, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.pixel_shuffle(x, self._factor, self._data_format)


class PixelUnshuffle(_Rearrange):
    """`[N, C, H * r, W * r] -> [N, C * r * r, H, W]` (r = `downscale_factor`), the inverse of
    PixelShuffle.

        unshuffle = framework.nn.PixelUnshuffle(3)
        unshuffle(framework.randn([2, 1, 12, 12])).shape   # [2, 9, 4, 4]
    """

    _factor_name = "downscale_factor"

    def __init__(
        self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(downscale_factor, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.pixel_unshuffle(x, self._factor, self._data_format)


class ChannelShuffle(_Rearrange):
    """Interleave the channels of `groups` groups (ShuffleNet); `[N, C, H, W]` in and out, C
    divisible by `groups`.

        framework.nn.ChannelShuffle(3)(framework.randn([1, 6, 4, 4])).shape   # [1, 6, 4, 4]
    """

    _factor_name = "groups"

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(groups, data_format, name)

    def forward(self, x: Tensor) -> Tensor:
        return F.channel_shuffle(x, self._factor, self._data_format)
