"""VGG 11/13/16/19, with or without batch norm, as `paddle.vision.models.vgg*`."""

from __future__ import annotations

from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained

CONFIGS: dict[str, list[int | str]] = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M"]
    + [512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


class VGG(nn.Layer):
    """VGG, as `paddle.vision.models.VGG`.

    Args:
        features (Layer): the convolutional part, ending with 512 channels.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        VGG: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images (H, W >= 32).

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.models import VGG
        >>> from framework.vision.models.vgg import make_layers
        >>> features = make_layers([64, 'M', 128, 'M', 256, 'M', 512, 'M', 512, 'M'])
        >>> model = VGG(features, num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, features: nn.Layer, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, num_classes),
            )

    def forward(self, x: Tensor) -> Tensor:
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.classifier(x)
        return x


def make_layers(config: list[int | str], batch_norm: bool = False) -> nn.Sequential:
    layers: list[nn.Layer] = []
    in_channels = 3
    for value in config:
        if value == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(in_channels, value, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(value))
        layers.append(nn.ReLU())
        in_channels = value
    return nn.Sequential(*layers)


def _vgg(name: str, config: str, batch_norm: bool, pretrained: bool, **kwargs: Any) -> VGG:
    name += "_bn" if batch_norm else ""
    model = VGG(make_layers(CONFIGS[config], batch_norm=batch_norm), **kwargs)
    return load_pretrained(model, name) if pretrained else model


def vgg11(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-11, as `paddle.vision.models.vgg11`.

    Args:
        pretrained (bool, optional): load `vgg11` from the local weight store (never downloaded; a
            missing file is an error that says how to install it). Default: False.
        batch_norm (bool, optional): a BatchNorm after each convolution. Default: False.
        **kwargs: passed to `VGG`, e.g. `num_classes=10`.

    Returns:
        VGG: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.vgg11(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _vgg("vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-13, as `paddle.vision.models.vgg13`.

    Args:
        pretrained (bool, optional): load `vgg13` from the local weight store (never downloaded; a
            missing file is an error that says how to install it). Default: False.
        batch_norm (bool, optional): a BatchNorm after each convolution. Default: False.
        **kwargs: passed to `VGG`, e.g. `num_classes=10`.

    Returns:
        VGG: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.vgg13(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _vgg("vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-16, as `paddle.vision.models.vgg16`.

    Args:
        pretrained (bool, optional): load `vgg16` from the local weight store (never downloaded; a
            missing file is an error that says how to install it). Default: False.
        batch_norm (bool, optional): a BatchNorm after each convolution. Default: False.
        **kwargs: passed to `VGG`, e.g. `num_classes=10`.

    Returns:
        VGG: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.vgg16(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _vgg("vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    """VGG-19, as `paddle.vision.models.vgg19`.

    Args:
        pretrained (bool, optional): load `vgg19` from the local weight store (never downloaded; a
            missing file is an error that says how to install it). Default: False.
        batch_norm (bool, optional): a BatchNorm after each convolution. Default: False.
        **kwargs: passed to `VGG`, e.g. `num_classes=10`.

    Returns:
        VGG: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.vgg19(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _vgg("vgg19", "E", batch_norm, pretrained, **kwargs)
