"""ResNet 18/34/50/101/152, ResNeXt and Wide ResNet, as `paddle.vision.models.resnet*`."""

from __future__ import annotations

from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained

DEPTHS = {
    18: [2, 2, 2, 2],
    34: [3, 4, 6, 3],
    50: [3, 4, 6, 3],
    101: [3, 4, 23, 3],
    152: [3, 8, 36, 3],
}


class BasicBlock(nn.Layer):
    expansion = 1

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride: int = 1,
        downsample: nn.Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: type[nn.Layer] | None = None,
    ) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        if dilation > 1:
            raise ValueError("BasicBlock supports dilation 1 only")
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Tensor) -> Tensor:
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class BottleneckBlock(nn.Layer):
    expansion = 4

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride: int = 1,
        downsample: nn.Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: type[nn.Layer] | None = None,
    ) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = nn.Conv2D(
            width,
            width,
            3,
            padding=dilation,
            stride=stride,
            groups=groups,
            dilation=dilation,
            bias_attr=False,
        )
        self.bn2 = norm_layer(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Tensor) -> Tensor:
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + identity)


class ResNet(nn.Layer):
    """ResNet with Paddle's layer names, as `paddle.vision.models.ResNet`.

    ResNet with Paddle's layer names, so Paddle `.pdparams` map one to one.

    Args:
        block (type): `BasicBlock` (ResNet-18/34) or `BottleneckBlock` (50 and deeper).
        depth (int, optional): 18, 34, 50, 101 or 152. Default: 50.
        width (int, optional): the bottleneck's base width (ResNeXt / wide variants). Default: 64.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.
        groups (int, optional): bottleneck groups (ResNeXt). Default: 1.

    Returns:
        ResNet: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.models.resnet import BasicBlock, ResNet
        >>> model = ResNet(BasicBlock, depth=18, num_classes=10)
        >>> model(paddle.ones([2, 3, 64, 64])).shape
        paddle.Size([2, 10])
    """

    def __init__(
        self,
        block: type[BasicBlock | BottleneckBlock],
        depth: int = 50,
        width: int = 64,
        num_classes: int = 1000,
        with_pool: bool = True,
        groups: int = 1,
    ) -> None:
        super().__init__()
        if depth not in DEPTHS:
            raise ValueError(f"depth must be one of {sorted(DEPTHS)}, got {depth}")
        layers = DEPTHS[depth]
        self.groups = groups
        self.base_width = width
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes = 64
        self.dilation = 1
        self.conv1 = nn.Conv2D(
            3, self.inplanes, kernel_size=7, stride=2, padding=3, bias_attr=False
        )
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(
        self, block: type[BasicBlock | BottleneckBlock], planes: int, blocks: int, stride: int = 1
    ) -> nn.Sequential:
        norm_layer = self._norm_layer
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2D(
                    self.inplanes, planes * block.expansion, 1, stride=stride, bias_attr=False
                ),
                norm_layer(planes * block.expansion),
            )
        layers = [
            block(
                self.inplanes,
                planes,
                stride,
                downsample,
                self.groups,
                self.base_width,
                self.dilation,
                norm_layer,
            )
        ]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(
                block(
                    self.inplanes,
                    planes,
                    groups=self.groups,
                    base_width=self.base_width,
                    norm_layer=norm_layer,
                )
            )
        return nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = framework.flatten(x, 1)
            x = self.fc(x)
        return x


def _resnet(name: str, block: type, depth: int, pretrained: bool, **kwargs: Any) -> ResNet:
    model = ResNet(block, depth, **kwargs)
    return load_pretrained(model, name) if pretrained else model


def resnet18(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-18, as `paddle.vision.models.resnet18`.

    Args:
        pretrained (bool, optional): load `resnet18` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnet18(num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """
    return _resnet("resnet18", BasicBlock, 18, pretrained, **kwargs)


def resnet34(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-34, as `paddle.vision.models.resnet34`.

    Args:
        pretrained (bool, optional): load `resnet34` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnet34(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _resnet("resnet34", BasicBlock, 34, pretrained, **kwargs)


def resnet50(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-50, as `paddle.vision.models.resnet50`.

    Args:
        pretrained (bool, optional): load `resnet50` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnet50(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _resnet("resnet50", BottleneckBlock, 50, pretrained, **kwargs)


def resnet101(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-101, as `paddle.vision.models.resnet101`.

    Args:
        pretrained (bool, optional): load `resnet101` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnet101(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _resnet("resnet101", BottleneckBlock, 101, pretrained, **kwargs)


def resnet152(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNet-152, as `paddle.vision.models.resnet152`.

    Args:
        pretrained (bool, optional): load `resnet152` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnet152(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _resnet("resnet152", BottleneckBlock, 152, pretrained, **kwargs)


def resnext50_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-50 with 32 groups of width 4, as `paddle.vision.models.resnext50_32x4d`.

    Args:
        pretrained (bool, optional): load `resnext50_32x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext50_32x4d(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    kwargs.update(groups=32, width=4)
    return _resnet("resnext50_32x4d", BottleneckBlock, 50, pretrained, **kwargs)


def resnext50_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-50 with 64 groups of width 4, as `paddle.vision.models.resnext50_64x4d`.

    Args:
        pretrained (bool, optional): load `resnext50_64x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext50_64x4d(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(groups=64, width=4)
    return _resnet("resnext50_64x4d", BottleneckBlock, 50, pretrained, **kwargs)


def resnext101_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-101 with 32 groups of width 4, as `paddle.vision.models.resnext101_32x4d`.

    Args:
        pretrained (bool, optional): load `resnext101_32x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext101_32x4d(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(groups=32, width=4)
    return _resnet("resnext101_32x4d", BottleneckBlock, 101, pretrained, **kwargs)


def resnext101_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-101 with 64 groups of width 4, as `paddle.vision.models.resnext101_64x4d`.

    Args:
        pretrained (bool, optional): load `resnext101_64x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext101_64x4d(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(groups=64, width=4)
    return _resnet("resnext101_64x4d", BottleneckBlock, 101, pretrained, **kwargs)


def resnext152_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-152 with 32 groups of width 4, as `paddle.vision.models.resnext152_32x4d`.

    Args:
        pretrained (bool, optional): load `resnext152_32x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext152_32x4d(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(groups=32, width=4)
    return _resnet("resnext152_32x4d", BottleneckBlock, 152, pretrained, **kwargs)


def resnext152_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """ResNeXt-152 with 64 groups of width 4, as `paddle.vision.models.resnext152_64x4d`.

    Args:
        pretrained (bool, optional): load `resnext152_64x4d` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.resnext152_64x4d(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(groups=64, width=4)
    return _resnet("resnext152_64x4d", BottleneckBlock, 152, pretrained, **kwargs)


def wide_resnet50_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """Wide ResNet-50-2 (bottlenecks twice as wide), as `paddle.vision.models.wide_resnet50_2`.

    Args:
        pretrained (bool, optional): load `wide_resnet50_2` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.wide_resnet50_2(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(width=128)
    return _resnet("wide_resnet50_2", BottleneckBlock, 50, pretrained, **kwargs)


def wide_resnet101_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    """Wide ResNet-101-2 (bottlenecks twice as wide), as `paddle.vision.models.wide_resnet101_2`.

    Args:
        pretrained (bool, optional): load `wide_resnet101_2` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ResNet`, e.g. `num_classes=10`.

    Returns:
        ResNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.wide_resnet101_2(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    kwargs.update(width=128)
    return _resnet("wide_resnet101_2", BottleneckBlock, 101, pretrained, **kwargs)
