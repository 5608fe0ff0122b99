"""Building blocks shared by the vision models: `ConvNormActivation` and `make_divisible`."""

from __future__ import annotations

from collections.abc import Callable

from framework import nn


class ConvNormActivation(nn.Sequential):
    """Conv2D, then a norm layer (default BatchNorm2D), then an activation (default ReLU).

    `padding=None` keeps the spatial size for stride 1: `(kernel_size - 1) // 2 * dilation`.
    The conv has a bias only when there is no norm layer, unless `bias` says otherwise.
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int = 3,
        stride: int = 1,
        padding: int | str | None = None,
        groups: int = 1,
        norm_layer: Callable[..., nn.Layer] | None = nn.BatchNorm2D,
        activation_layer: Callable[..., nn.Layer] | None = nn.ReLU,
        dilation: int = 1,
        bias: bool | None = None,
    ) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers: list[nn.Layer] = [
            nn.Conv2D(
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation=dilation,
                groups=groups,
                bias_attr=None if bias else False,
            )
        ]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def make_divisible(value: float, divisor: int = 8, min_value: int | None = None) -> int:
    """Round channels to a multiple of `divisor`, never dropping more than 10%."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * value:
        rounded += divisor
    return rounded
