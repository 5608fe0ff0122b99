"""MobileNetV1, as `paddle.vision.models.MobileNetV1` (same sublayer names)."""

from __future__ import annotations

from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation

# (name, out_channels1, out_channels2, groups, stride) of each depthwise-separable block.
BLOCKS = [
    ("conv2_1", 32, 64, 32, 1),
    ("conv2_2", 64, 128, 64, 2),
    ("conv3_1", 128, 128, 128, 1),
    ("conv3_2", 128, 256, 128, 2),
    ("conv4_1", 256, 256, 256, 1),
    ("conv4_2", 256, 512, 256, 2),
    *[(f"conv5_{i}", 512, 512, 512, 1) for i in range(1, 6)],
    ("conv5_6", 512, 1024, 512, 2),
    ("conv6", 1024, 1024, 1024, 1),
]


class DepthwiseSeparable(nn.Layer):
    def __init__(
        self,
        in_channels: int,
        out_channels1: int,
        out_channels2: int,
        num_groups: int,
        stride: int,
        scale: float,
    ) -> None:
        super().__init__()
        self._depthwise_conv = ConvNormActivation(
            in_channels,
            int(out_channels1 * scale),
            kernel_size=3,
            stride=stride,
            padding=1,
            groups=int(num_groups * scale),
        )
        self._pointwise_conv = ConvNormActivation(
            int(out_channels1 * scale), int(out_channels2 * scale), kernel_size=1, padding=0
        )

    def forward(self, x: Tensor) -> Tensor:
        return self._pointwise_conv(self._depthwise_conv(x))


class MobileNetV1(nn.Layer):
    """MobileNet v1, as `paddle.vision.models.MobileNetV1`.

    Args:
        scale (float, optional): the width multiplier. Default: 1.0.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        MobileNetV1: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.MobileNetV1(scale=0.25, num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        self.dwsl = []
        in_channels = int(32 * scale)
        for name, out1, out2, groups, stride in BLOCKS:
            block = DepthwiseSeparable(in_channels, out1, out2, groups, stride, scale)
            self.dwsl.append(self.add_sublayer(name, block))
            in_channels = int(out2 * scale)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x: Tensor) -> Tensor:
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.fc(x)
        return x


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV1:
    """MobileNet v1, as `paddle.vision.models.mobilenet_v1`.

    Args:
        pretrained (bool, optional): load `mobilenet_v1` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        scale (float, optional): the width multiplier. Default: 1.0.
        **kwargs: passed to `MobileNetV1`, e.g. `num_classes=10`.

    Returns:
        MobileNetV1: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.mobilenet_v1(scale=0.5, num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = MobileNetV1(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv1_{scale}") if pretrained else model
