"""Building blocks shared by the vision models: `ConvNormActivation` and `make_divisible`."""

from __future__ import annotations

from collections.abc import Callable

from framework import nn


class ConvNormActivation(nn.Sequential):
    """Conv2D, a norm layer and an activation in sequence, as torchvision's `ConvNormActivation`.

    Conv2D, then a norm layer (default BatchNorm2D), then an activation (default ReLU).

    `padding=None` keeps the spatial size for stride 1: `(kernel_size - 1) // 2 * dilation`.
    The conv has a bias only when there is no norm layer, unless `bias` says otherwise.

    Args:
        in_channels (int): the input's channels.
        out_channels (int): the output's channels.
        kernel_size (int, optional): Default: 3.
        stride (int, optional): Default: 1.
        padding (int|str, optional): None keeps the size at stride 1. Default: None.
        groups (int, optional): Default: 1.
        norm_layer (callable, optional): built as `norm_layer(out_channels)`; None for none.
            Default: BatchNorm2D.
        activation_layer (callable, optional): built with no arguments; None for none. Default:
            ReLU.
        dilation (int, optional): Default: 1.
        bias (bool, optional): None gives the conv a bias only without a norm layer. Default: None.

    Shape:
        - x: `[N, in_channels, H, W]`; float32 or float64.
        - output: `[N, out_channels, H_out, W_out]`.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.ops import ConvNormActivation
        >>> block = ConvNormActivation(3, 16, kernel_size=3, stride=2)
        >>> [type(layer).__name__ for layer in block]
        ['Conv2D', 'BatchNorm2D', 'ReLU']
        >>> block(paddle.ones([2, 3, 32, 32])).shape
        paddle.Size([2, 16, 16, 16])
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
    """Round a channel count to a multiple of `divisor`, never dropping more than 10%.

    Round channels to a multiple of `divisor`, never dropping more than 10%.

    Args:
        value (float): the channel count wanted.
        divisor (int, optional): the multiple. Default: 8.
        min_value (int, optional): the smallest result; None is `divisor`. Default: None.

    Returns:
        int: the nearest multiple of `divisor`, at least 90% of `value`.

    Examples:
        >>> from framework.vision.ops import make_divisible
        >>> make_divisible(37), make_divisible(32 * 0.75), make_divisible(10, 8)
        (40, 24, 16)
    """
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    if rounded < 0.9 * value:
        rounded += divisor
    return rounded
