"""Inception v3, as `paddle.vision.models.InceptionV3` (same sublayer names)."""

from __future__ import annotations

import math
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.nn.initializer import Uniform
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation

__all__ = ["InceptionV3", "inception_v3"]

Size = int | tuple[int, int]


def _conv(
    in_channels: int, out_channels: int, kernel_size: Size, stride: int = 1, padding: Size = 0
) -> ConvNormActivation:
    """Convolution, BatchNorm, ReLU -- every convolution of Inception v3."""
    return ConvNormActivation(
        in_channels, out_channels, kernel_size, stride=stride, padding=padding
    )


def _same_avg_pool() -> nn.AvgPool2D:
    return nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)


class InceptionStem(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv_1a_3x3 = _conv(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _conv(32, 32, 3)
        self.conv_2b_3x3 = _conv(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _conv(64, 80, 1)
        self.conv_4a_3x3 = _conv(80, 192, 3)

    def forward(self, x: Tensor) -> Tensor:
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionA(nn.Layer):
    def __init__(self, num_channels: int, pool_features: int) -> None:
        super().__init__()
        self.branch1x1 = _conv(num_channels, 64, 1)
        self.branch5x5_1 = _conv(num_channels, 48, 1)
        self.branch5x5_2 = _conv(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _conv(num_channels, 64, 1)
        self.branch3x3dbl_2 = _conv(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _conv(96, 96, 3, padding=1)
        self.branch_pool = _same_avg_pool()
        self.branch_pool_conv = _conv(num_channels, pool_features, 1)

    def forward(self, x: Tensor) -> Tensor:
        branches = [
            self.branch1x1(x),
            self.branch5x5_2(self.branch5x5_1(x)),
            self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x))),
            self.branch_pool_conv(self.branch_pool(x)),
        ]
        return framework.concat(branches, axis=1)


class InceptionB(nn.Layer):
    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3 = _conv(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _conv(num_channels, 64, 1)
        self.branch3x3dbl_2 = _conv(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _conv(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x: Tensor) -> Tensor:
        branches = [
            self.branch3x3(x),
            self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x))),
            self.branch_pool(x),
        ]
        return framework.concat(branches, axis=1)


class InceptionC(nn.Layer):
    def __init__(self, num_channels: int, channels_7x7: int) -> None:
        super().__init__()
        c7 = channels_7x7
        self.branch1x1 = _conv(num_channels, 192, 1)
        self.branch7x7_1 = _conv(num_channels, c7, 1)
        self.branch7x7_2 = _conv(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _conv(c7, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _conv(num_channels, c7, 1)
        self.branch7x7dbl_2 = _conv(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _conv(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _conv(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _conv(c7, 192, (1, 7), padding=(0, 3))
        self.branch_pool = _same_avg_pool()
        self.branch_pool_conv = _conv(num_channels, 192, 1)

    def forward(self, x: Tensor) -> Tensor:
        branch7x7 = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        dbl = self.branch7x7dbl_2(self.branch7x7dbl_1(x))
        dbl = self.branch7x7dbl_5(self.branch7x7dbl_4(self.branch7x7dbl_3(dbl)))
        branches = [
            self.branch1x1(x),
            branch7x7,
            dbl,
            self.branch_pool_conv(self.branch_pool(x)),
        ]
        return framework.concat(branches, axis=1)


class InceptionD(nn.Layer):
    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3_1 = _conv(num_channels, 192, 1)
        self.branch3x3_2 = _conv(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _conv(num_channels, 192, 1)
        self.branch7x7x3_2 = _conv(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _conv(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _conv(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x: Tensor) -> Tensor:
        branch7x7x3 = self.branch7x7x3_2(self.branch7x7x3_1(x))
        branch7x7x3 = self.branch7x7x3_4(self.branch7x7x3_3(branch7x7x3))
        branches = [self.branch3x3_2(self.branch3x3_1(x)), branch7x7x3, self.branch_pool(x)]
        return framework.concat(branches, axis=1)


class InceptionE(nn.Layer):
    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch1x1 = _conv(num_channels, 320, 1)
        self.branch3x3_1 = _conv(num_channels, 384, 1)
        self.branch3x3_2a = _conv(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _conv(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _conv(num_channels, 448, 1)
        self.branch3x3dbl_2 = _conv(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _conv(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _conv(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = _same_avg_pool()
        self.branch_pool_conv = _conv(num_channels, 192, 1)

    def forward(self, x: Tensor) -> Tensor:
        b3 = self.branch3x3_1(x)
        b3 = framework.concat([self.branch3x3_2a(b3), self.branch3x3_2b(b3)], axis=1)
        dbl = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        dbl = framework.concat([self.branch3x3dbl_3a(dbl), self.branch3x3dbl_3b(dbl)], axis=1)
        branches = [self.branch1x1(x), b3, dbl, self.branch_pool_conv(self.branch_pool(x))]
        return framework.concat(branches, axis=1)


class InceptionV3(nn.Layer):
    """Inception v3, as `paddle.vision.models.InceptionV3`.

    Inception v3 (Szegedy et al., 2015) without the auxiliary head, as Paddle builds it:
    a stem, then 3 InceptionA, 1 B, 4 C, 1 D and 2 E blocks (`inception_block_list`).

    Input: float32 [N, 3, H, W] with H, W >= 75. Output: [N, num_classes] logits, or the
    2048-channel features ([N, 2048, 1, 1] pooled) when `num_classes <= 0`. The classifier
    reshapes to [-1, 2048], so with `with_pool=False` it needs an 8x8-to-1x1 map (H = W = 75..106
    gives 1x1).

    Args:
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        InceptionV3: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images (H, W at least 75).

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.InceptionV3(num_classes=10)
        >>> model(paddle.ones([1, 3, 96, 96])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {
            "inception_a": [[192, 256, 288], [32, 64, 64]],
            "inception_b": [288],
            "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]],
            "inception_d": [768],
            "inception_e": [1280, 2048],
        }
        config = self.layers_config
        self.inception_stem = InceptionStem()
        self.inception_block_list = nn.LayerList()
        for channels, pool_features in zip(*config["inception_a"], strict=True):
            self.inception_block_list.append(InceptionA(channels, pool_features))
        for channels in config["inception_b"]:
            self.inception_block_list.append(InceptionB(channels))
        for channels, channels_7x7 in zip(*config["inception_c"], strict=True):
            self.inception_block_list.append(InceptionC(channels, channels_7x7))
        for channels in config["inception_d"]:
            self.inception_block_list.append(InceptionD(channels))
        for channels in config["inception_e"]:
            self.inception_block_list.append(InceptionE(channels))
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(
                2048, num_classes, weight_attr=framework.ParamAttr(initializer=Uniform(-stdv, stdv))
            )

    def forward(self, x: Tensor) -> Tensor:
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(framework.reshape(x, shape=[-1, 2048])))
        return x


def inception_v3(pretrained: bool = False, **kwargs: Any) -> InceptionV3:
    """Inception v3, as `paddle.vision.models.inception_v3`.

    Inception v3; `pretrained=True` loads "inception_v3" from the local weight store.

    Args:
        pretrained (bool, optional): load `inception_v3` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `InceptionV3`, e.g. `num_classes=10`.

    Returns:
        InceptionV3: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.inception_v3(num_classes=10)
        >>> model(paddle.ones([1, 3, 96, 96])).shape
        paddle.Size([1, 10])
    """
    model = InceptionV3(**kwargs)
    return load_pretrained(model, "inception_v3") if pretrained else model
