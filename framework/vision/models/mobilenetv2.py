"""MobileNetV2, as `paddle.vision.models.MobileNetV2` (same sublayer names)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation, make_divisible

# (expand ratio t, channels c, repeats n, first stride s)
SETTINGS = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1]]
SETTINGS += [[6, 160, 3, 2], [6, 320, 1, 1]]


class InvertedResidual(nn.Layer):
    def __init__(
        self,
        inp: int,
        oup: int,
        stride: int,
        expand_ratio: float,
        norm_layer: Callable[..., nn.Layer] = nn.BatchNorm2D,
    ) -> None:
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"stride must be 1 or 2, got {stride}")
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: list[nn.Layer] = []
        if expand_ratio != 1:
            layers.append(
                ConvNormActivation(
                    inp, hidden_dim, kernel_size=1, norm_layer=norm_layer, activation_layer=nn.ReLU6
                )
            )
        layers += [
            ConvNormActivation(
                hidden_dim,
                hidden_dim,
                stride=stride,
                groups=hidden_dim,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            ),
            nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False),
            norm_layer(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class MobileNetV2(nn.Layer):
    """MobileNet v2, as `paddle.vision.models.MobileNetV2`.

    Args:
        scale (float, optional): the width multiplier. Default: 1.0.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        MobileNetV2: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.MobileNetV2(scale=0.5, num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        norm_layer = nn.BatchNorm2D
        input_channel = make_divisible(32 * scale, 8)
        self.last_channel = make_divisible(1280 * max(1.0, scale), 8)
        features: list[nn.Layer] = [
            ConvNormActivation(
                3, input_channel, stride=2, norm_layer=norm_layer, activation_layer=nn.ReLU6
            )
        ]
        for t, c, n, s in SETTINGS:
            output_channel = make_divisible(c * scale, 8)
            for i in range(n):
                features.append(
                    InvertedResidual(
                        input_channel,
                        output_channel,
                        s if i == 0 else 1,
                        expand_ratio=t,
                        norm_layer=norm_layer,
                    )
                )
                input_channel = output_channel
        features.append(
            ConvNormActivation(
                input_channel,
                self.last_channel,
                kernel_size=1,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            )
        )
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes)
            )

    def forward(self, x: Tensor) -> Tensor:
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.classifier(x)
        return x


def mobilenet_v2(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV2:
    """MobileNet v2, as `paddle.vision.models.mobilenet_v2`.

    Args:
        pretrained (bool, optional): load `mobilenet_v2` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        scale (float, optional): the width multiplier. Default: 1.0.
        **kwargs: passed to `MobileNetV2`, e.g. `num_classes=10`.

    Returns:
        MobileNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.mobilenet_v2(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = MobileNetV2(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv2_{scale}") if pretrained else model
