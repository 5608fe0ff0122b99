"""DenseNet 121/161/169/201/264, as `paddle.vision.models.DenseNet` (same sublayer names)."""

from __future__ import annotations

import math
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.nn.initializer import Uniform
from framework.vision.models._pretrained import load_pretrained

__all__ = [
    "DenseNet",
    "densenet121",
    "densenet161",
    "densenet169",
    "densenet201",
    "densenet264",
]

# layers: (initial features, growth rate, dense layers per block)
SPECS: dict[int, tuple[int, int, list[int]]] = {
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (64, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
    264: (64, 32, [6, 12, 64, 48]),
}


class BNACConvLayer(nn.Layer):
    """Pre-activation unit: BatchNorm with ReLU, then a bias-free convolution."""

    def __init__(
        self,
        num_channels: int,
        num_filters: int,
        filter_size: int,
        stride: int = 1,
        pad: int = 0,
        groups: int = 1,
        act: str = "relu",
    ) -> None:
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(
            num_channels,
            num_filters,
            filter_size,
            stride=stride,
            padding=pad,
            groups=groups,
            bias_attr=False,
        )

    def forward(self, input: Tensor) -> Tensor:
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """Bottleneck (1x1 to `bn_size * growth_rate`, 3x3 to `growth_rate`) appended to its input."""

    def __init__(self, num_channels: int, growth_rate: int, bn_size: int, dropout: float):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input: Tensor) -> Tensor:
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return framework.concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    def __init__(
        self,
        num_channels: int,
        num_layers: int,
        bn_size: int,
        growth_rate: int,
        dropout: float,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        channels = num_channels
        for index in range(num_layers):
            layer = DenseLayer(channels, growth_rate, bn_size, dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{index + 1}", layer))
            channels += growth_rate

    def forward(self, input: Tensor) -> Tensor:
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(nn.Layer):
    """Between blocks: BN-ReLU-1x1 convolution, then a 2x2 average pool."""

    def __init__(self, num_channels: int, num_output_features: int) -> None:
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input: Tensor) -> Tensor:
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    def __init__(
        self,
        num_channels: int,
        num_filters: int,
        filter_size: int,
        stride: int = 1,
        pad: int = 0,
        groups: int = 1,
        act: str = "relu",
    ) -> None:
        super().__init__()
        self._conv = nn.Conv2D(
            num_channels,
            num_filters,
            filter_size,
            stride=stride,
            padding=pad,
            groups=groups,
            bias_attr=False,
        )
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input: Tensor) -> Tensor:
        return self._batch_norm(self._conv(input))


class DenseNet(nn.Layer):
    """DenseNet, as `paddle.vision.models.DenseNet`.

    DenseNet (Huang et al., 2017): dense blocks whose layers each see every earlier layer's
    features, joined by transitions that halve channels and resolution.

    Input: float32 [N, 3, H, W] with H, W >= 32. Output: [N, num_classes] logits, or the
    features ([N, C, 1, 1] pooled, [N, C, H/32, W/32] without pooling) when num_classes <= 0.

    Args:
        layers (int, optional): 121, 161, 169, 201 or 264 (161 uses 96 initial features and
            growth rate 48; the others 64 and 32). Default: 121.
        bn_size (int, optional): the bottleneck's width, in multiples of the growth rate.
            Default: 4.
        dropout (float, optional): dropout after each dense layer (0 for none). Default: 0.0.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        DenseNet: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.DenseNet(layers=121, num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """

    def __init__(
        self,
        layers: int = 121,
        bn_size: int = 4,
        dropout: float = 0.0,
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        if layers not in SPECS:
            raise ValueError(f"supported layers are {sorted(SPECS)} but input layer is {layers}")
        self.num_classes = num_classes
        self.with_pool = with_pool
        num_features, growth_rate, block_config = SPECS[layers]
        self.conv1_func = ConvBNLayer(3, num_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        for i, num_layers in enumerate(block_config):
            block = DenseBlock(
                num_features, num_layers, bn_size, growth_rate, dropout, name=f"conv{i + 2}"
            )
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                transition = TransitionLayer(num_features, num_features // 2)
                self.transition_func_list.append(
                    self.add_sublayer(f"tr_conv{i + 2}_blk", transition)
                )
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(
                num_features,
                num_classes,
                weight_attr=framework.ParamAttr(initializer=Uniform(-stdv, stdv)),
            )

    def forward(self, input: Tensor) -> Tensor:
        x = self.pool2d_max(self.conv1_func(input))
        for i, block in enumerate(self.dense_block_func_list):
            x = block(x)
            if i < len(self.transition_func_list):
                x = self.transition_func_list[i](x)
        x = self.batch_norm(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.out(framework.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _densenet(layers: int, pretrained: bool, **kwargs: Any) -> DenseNet:
    model = DenseNet(layers=layers, **kwargs)
    return load_pretrained(model, f"densenet{layers}") if pretrained else model


def densenet121(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-121, as `paddle.vision.models.densenet121`.

    DenseNet-121 (8.0M parameters with 1000 classes).

    Args:
        pretrained (bool, optional): load `densenet121` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `DenseNet`, e.g. `num_classes=10`.

    Returns:
        DenseNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.densenet121(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _densenet(121, pretrained, **kwargs)


def densenet161(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-161, as `paddle.vision.models.densenet161`.

    Args:
        pretrained (bool, optional): load `densenet161` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `DenseNet`, e.g. `num_classes=10`.

    Returns:
        DenseNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.densenet161(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _densenet(161, pretrained, **kwargs)


def densenet169(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-169, as `paddle.vision.models.densenet169`.

    Args:
        pretrained (bool, optional): load `densenet169` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `DenseNet`, e.g. `num_classes=10`.

    Returns:
        DenseNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.densenet169(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _densenet(169, pretrained, **kwargs)


def densenet201(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-201, as `paddle.vision.models.densenet201`.

    Args:
        pretrained (bool, optional): load `densenet201` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `DenseNet`, e.g. `num_classes=10`.

    Returns:
        DenseNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.densenet201(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _densenet(201, pretrained, **kwargs)


def densenet264(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    """DenseNet-264, as `paddle.vision.models.densenet264`.

    Args:
        pretrained (bool, optional): load `densenet264` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `DenseNet`, e.g. `num_classes=10`.

    Returns:
        DenseNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.densenet264(pretrained=False)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 1000])
    """
    return _densenet(264, pretrained, **kwargs)
