"""MobileNetV3 Small and Large, as `paddle.vision.models.MobileNetV3Small/Large`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation, make_divisible


class SqueezeExcitation(nn.Layer):
    def __init__(
        self,
        input_channels: int,
        squeeze_channels: int,
        activation: Callable[..., nn.Layer] = nn.ReLU,
        scale_activation: Callable[..., nn.Layer] = nn.Sigmoid,
    ) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input: Tensor) -> Tensor:
        scale = self.activation(self.fc1(self.avgpool(input)))
        return self.scale_activation(self.fc2(scale)) * input


class InvertedResidualConfig:
    def __init__(
        self,
        in_channels: int,
        kernel: int,
        expanded_channels: int,
        out_channels: int,
        use_se: bool,
        activation: str | None,
        stride: int,
        scale: float = 1.0,
    ) -> None:
        self.in_channels = make_divisible(in_channels * scale, 8)
        self.kernel = kernel
        self.expanded_channels = make_divisible(expanded_channels * scale, 8)
        self.out_channels = make_divisible(out_channels * scale, 8)
        self.use_se = use_se
        activations = {None: None, "relu": nn.ReLU, "hardswish": nn.Hardswish}
        if activation not in activations:
            raise ValueError(f"unsupported activation {activation!r}")
        self.activation_layer = activations[activation]
        self.stride = stride


class InvertedResidual(nn.Layer):
    def __init__(
        self,
        in_channels: int,
        expanded_channels: int,
        out_channels: int,
        filter_size: int,
        stride: int,
        use_se: bool,
        activation_layer: Callable[..., nn.Layer] | None,
        norm_layer: Callable[..., nn.Layer],
    ) -> None:
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        if self.expand:
            self.expand_conv = ConvNormActivation(
                in_channels,
                expanded_channels,
                kernel_size=1,
                padding=0,
                norm_layer=norm_layer,
                activation_layer=activation_layer,
            )
        self.bottleneck_conv = ConvNormActivation(
            expanded_channels,
            expanded_channels,
            kernel_size=filter_size,
            stride=stride,
            padding=(filter_size - 1) // 2,
            groups=expanded_channels,
            norm_layer=norm_layer,
            activation_layer=activation_layer,
        )
        if use_se:
            self.mid_se = SqueezeExcitation(
                expanded_channels,
                make_divisible(expanded_channels // 4),
                scale_activation=nn.Hardsigmoid,
            )
        self.linear_conv = ConvNormActivation(
            expanded_channels,
            out_channels,
            kernel_size=1,
            padding=0,
            norm_layer=norm_layer,
            activation_layer=None,
        )

    def forward(self, x: Tensor) -> Tensor:
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return identity + x if self.use_res_connect else x


class MobileNetV3(nn.Layer):
    def __init__(
        self,
        config: list[InvertedResidualConfig],
        last_channel: int,
        scale: float = 1.0,
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(
            3,
            self.firstconv_in_channels,
            kernel_size=3,
            stride=2,
            padding=1,
            activation_layer=nn.Hardswish,
            norm_layer=norm_layer,
        )
        self.blocks = nn.Sequential(
            *[
                InvertedResidual(
                    c.in_channels,
                    c.expanded_channels,
                    c.out_channels,
                    c.kernel,
                    c.stride,
                    c.use_se,
                    c.activation_layer,
                    norm_layer,
                )
                for c in config
            ]
        )
        self.lastconv = ConvNormActivation(
            self.lastconv_in_channels,
            self.lastconv_out_channels,
            kernel_size=1,
            padding=0,
            norm_layer=norm_layer,
            activation_layer=nn.Hardswish,
        )
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(self.lastconv_out_channels, last_channel),
                nn.Hardswish(),
                nn.Dropout(p=0.2),
                nn.Linear(last_channel, num_classes),
            )

    def forward(self, x: Tensor) -> Tensor:
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.classifier(x)
        return x


_SMALL = [
    (16, 3, 16, 16, True, "relu", 2),
    (16, 3, 72, 24, False, "relu", 2),
    (24, 3, 88, 24, False, "relu", 1),
    (24, 5, 96, 40, True, "hardswish", 2),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 120, 48, True, "hardswish", 1),
    (48, 5, 144, 48, True, "hardswish", 1),
    (48, 5, 288, 96, True, "hardswish", 2),
    (96, 5, 576, 96, True, "hardswish", 1),
    (96, 5, 576, 96, True, "hardswish", 1),
]
_LARGE = [
    (16, 3, 16, 16, False, "relu", 1),
    (16, 3, 64, 24, False, "relu", 2),
    (24, 3, 72, 24, False, "relu", 1),
    (24, 5, 72, 40, True, "relu", 2),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 3, 240, 80, False, "hardswish", 2),
    (80, 3, 200, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 480, 112, True, "hardswish", 1),
    (112, 3, 672, 112, True, "hardswish", 1),
    (112, 5, 672, 160, True, "hardswish", 2),
    (160, 5, 960, 160, True, "hardswish", 1),
    (160, 5, 960, 160, True, "hardswish", 1),
]


class MobileNetV3Small(MobileNetV3):
    """MobileNet v3 small, as `paddle.vision.models.MobileNetV3Small`.

    Args:
        scale (float, optional): the width multiplier. Default: 1.0.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        MobileNetV3Small: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.MobileNetV3Small(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        config = [InvertedResidualConfig(*row, scale) for row in _SMALL]
        super().__init__(config, make_divisible(1024 * scale, 8), scale, num_classes, with_pool)


class MobileNetV3Large(MobileNetV3):
    """MobileNet v3 large, as `paddle.vision.models.MobileNetV3Large`.

    Args:
        scale (float, optional): the width multiplier. Default: 1.0.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        MobileNetV3Large: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.MobileNetV3Large(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        config = [InvertedResidualConfig(*row, scale) for row in _LARGE]
        super().__init__(config, make_divisible(1280 * scale, 8), scale, num_classes, with_pool)


def mobilenet_v3_small(pretrained: bool = False, scale: float = 1.0, **kwargs: Any):
    """MobileNet v3 small, as `paddle.vision.models.mobilenet_v3_small`.

    Args:
        pretrained (bool, optional): load `mobilenet_v3_small` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        scale (float, optional): the width multiplier. Default: 1.0.
        **kwargs: passed to `MobileNetV3Small`, e.g. `num_classes=10`.

    Returns:
        MobileNetV3Small: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.mobilenet_v3_small(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = MobileNetV3Small(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_small_x{scale}") if pretrained else model


def mobilenet_v3_large(pretrained: bool = False, scale: float = 1.0, **kwargs: Any):
    """MobileNet v3 large, as `paddle.vision.models.mobilenet_v3_large`.

    Args:
        pretrained (bool, optional): load `mobilenet_v3_large` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        scale (float, optional): the width multiplier. Default: 1.0.
        **kwargs: passed to `MobileNetV3Large`, e.g. `num_classes=10`.

    Returns:
        MobileNetV3Large: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.mobilenet_v3_large(scale=0.5, num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = MobileNetV3Large(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_large_x{scale}") if pretrained else model
