"""SqueezeNet 1.0 and 1.1, as `paddle.vision.models.SqueezeNet` (same sublayer names)."""

from __future__ import annotations

from typing import Any

import framework
import framework.nn.functional as F
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained

# Fire modules: (input channels, squeeze, expand 1x1, expand 3x3); a max pool follows the
# fires whose index is in the version's POOL_AFTER.
FIRES = [
    (None, 16, 64, 64),
    (128, 16, 64, 64),
    (128, 32, 128, 128),
    (256, 32, 128, 128),
    (256, 48, 192, 192),
    (384, 48, 192, 192),
    (384, 64, 256, 256),
    (512, 64, 256, 256),
]
POOL_AFTER = {"1.0": (3, 7), "1.1": (2, 4)}


class MakeFireConv(nn.Layer):
    def __init__(self, input_channels: int, output_channels: int, filter_size: int, padding=0):
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x: Tensor) -> Tensor:
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    def __init__(self, input_channels: int, squeeze: int, expand1x1: int, expand3x3: int):
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze, 1)
        self._conv_path1 = MakeFireConv(squeeze, expand1x1, 1)
        self._conv_path2 = MakeFireConv(squeeze, expand3x3, 3, padding=1)

    def forward(self, inputs: Tensor) -> Tensor:
        x = self._conv(inputs)
        return framework.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


class SqueezeNet(nn.Layer):
    """SqueezeNet, as `paddle.vision.models.SqueezeNet`.

    Args:
        version (str): '1.0' or '1.1'.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        SqueezeNet: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.SqueezeNet('1.1', num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        if version not in POOL_AFTER:
            raise ValueError(f"version must be '1.0' or '1.1', got {version!r}")
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2)
            first_channels = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1)
            first_channels = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        for index, (cin, squeeze, e1, e3) in enumerate(FIRES, start=1):
            fire = MakeFire(cin or first_channels, squeeze, e1, e3)
            setattr(self, f"_conv{index}", fire)
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs: Tensor) -> Tensor:
        x = self._pool(F.relu(self._conv(inputs)))
        pool_after = POOL_AFTER[self.version]
        for index in range(1, len(FIRES) + 1):
            x = getattr(self, f"_conv{index}")(x)
            if index in pool_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = self._avg_pool(F.relu(x))
            x = framework.squeeze(x, axis=[2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.0, as `paddle.vision.models.squeezenet1_0`.

    Args:
        pretrained (bool, optional): load `squeezenet1_0` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `SqueezeNet`, e.g. `num_classes=10`.

    Returns:
        SqueezeNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.squeezenet1_0(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = SqueezeNet("1.0", **kwargs)
    return load_pretrained(model, "squeezenet1_0") if pretrained else model


def squeezenet1_1(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.1, as `paddle.vision.models.squeezenet1_1`.

    Args:
        pretrained (bool, optional): load `squeezenet1_1` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `SqueezeNet`, e.g. `num_classes=10`.

    Returns:
        SqueezeNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.squeezenet1_1(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    model = SqueezeNet("1.1", **kwargs)
    return load_pretrained(model, "squeezenet1_1") if pretrained else model
