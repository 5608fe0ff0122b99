"""ShuffleNetV2, as `paddle.vision.models.ShuffleNetV2` (same sublayer names)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.models._pretrained import load_pretrained
from framework.vision.ops import ConvNormActivation

STAGE_OUT_CHANNELS = {
    0.25: [-1, 24, 24, 48, 96, 512],
    0.33: [-1, 24, 32, 64, 128, 512],
    0.5: [-1, 24, 48, 96, 192, 1024],
    1.0: [-1, 24, 116, 232, 464, 1024],
    1.5: [-1, 24, 176, 352, 704, 1024],
    2.0: [-1, 24, 224, 488, 976, 2048],
}


def create_activation_layer(act: str | None) -> Callable[..., nn.Layer] | None:
    activations = {"swish": nn.Swish, "relu": nn.ReLU, None: None}
    if act not in activations:
        raise ValueError(f"unsupported activation {act!r}; use 'relu', 'swish' or None")
    return activations[act]


def channel_shuffle(x: Tensor, groups: int) -> Tensor:
    batch_size, num_channels, height, width = x.shape[0:4]
    x = framework.reshape(x, [batch_size, groups, num_channels // groups, height, width])
    x = framework.transpose(x, perm=[0, 2, 1, 3, 4])
    return framework.reshape(x, [batch_size, num_channels, height, width])


def _conv(cin: int, cout: int, kernel: int, stride: int, groups: int, act) -> ConvNormActivation:
    return ConvNormActivation(
        cin, cout, kernel, stride, padding=(kernel - 1) // 2, groups=groups, activation_layer=act
    )


class InvertedResidual(nn.Layer):
    def __init__(
        self, in_channels: int, out_channels: int, stride: int, activation_layer=nn.ReLU
    ) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_pw = _conv(in_channels // 2, half, 1, 1, 1, activation_layer)
        self._conv_dw = _conv(half, half, 3, stride, half, None)
        self._conv_linear = _conv(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs: Tensor) -> Tensor:
        half = inputs.shape[1] // 2
        x1, x2 = framework.split(inputs, num_or_sections=[half, half], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(framework.concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    def __init__(
        self, in_channels: int, out_channels: int, stride: int, activation_layer=nn.ReLU
    ) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = _conv(in_channels, in_channels, 3, stride, in_channels, None)
        self._conv_linear_1 = _conv(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_pw_2 = _conv(in_channels, half, 1, 1, 1, activation_layer)
        self._conv_dw_2 = _conv(half, half, 3, stride, half, None)
        self._conv_linear_2 = _conv(half, half, 1, 1, 1, activation_layer)

    def forward(self, inputs: Tensor) -> Tensor:
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(framework.concat([x1, x2], axis=1), 2)


class ShuffleNetV2(nn.Layer):
    """ShuffleNet v2, as `paddle.vision.models.ShuffleNetV2`.

    Args:
        scale (float, optional): the width multiplier. Default: 1.0.
        act (str, optional): 'relu' or 'swish'. Default: 'relu'.
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        ShuffleNetV2: logits `[N, num_classes]` for float32 `[N, 3, H, W]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.ShuffleNetV2(scale=0.5, num_classes=10)
        >>> model(paddle.ones([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(
        self,
        scale: float = 1.0,
        act: str | None = "relu",
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        if scale not in STAGE_OUT_CHANNELS:
            raise ValueError(f"scale must be one of {sorted(STAGE_OUT_CHANNELS)}, got {scale}")
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        channels = STAGE_OUT_CHANNELS[scale]
        activation = create_activation_layer(act)
        self._conv1 = _conv(3, channels[1], 3, 2, 1, activation)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(
                        channels[stage + 1], channels[stage + 2], 2, activation
                    )
                else:
                    block = InvertedResidual(
                        channels[stage + 2], channels[stage + 2], 1, activation
                    )
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = _conv(channels[-2], channels[-1], 1, 1, 1, activation)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs: Tensor) -> Tensor:
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = framework.flatten(x, start_axis=1, stop_axis=-1)
            x = self._fc(x)
        return x


def _shufflenet(name: str, scale: float, pretrained: bool, **kwargs: Any) -> ShuffleNetV2:
    model = ShuffleNetV2(scale=scale, **kwargs)
    return load_pretrained(model, name) if pretrained else model


def shufflenet_v2_x0_25(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (0.25), as `paddle.vision.models.shufflenet_v2_x0_25`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x0_25` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x0_25(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x0_25", 0.25, pretrained, **kwargs)


def shufflenet_v2_x0_33(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (0.33), as `paddle.vision.models.shufflenet_v2_x0_33`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x0_33` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x0_33(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x0_33", 0.33, pretrained, **kwargs)


def shufflenet_v2_x0_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (0.5), as `paddle.vision.models.shufflenet_v2_x0_5`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x0_5` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x0_5(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x0_5", 0.5, pretrained, **kwargs)


def shufflenet_v2_x1_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (1.0), as `paddle.vision.models.shufflenet_v2_x1_0`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x1_0` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x1_0(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x1_0", 1.0, pretrained, **kwargs)


def shufflenet_v2_x1_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (1.5), as `paddle.vision.models.shufflenet_v2_x1_5`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x1_5` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x1_5(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x1_5", 1.5, pretrained, **kwargs)


def shufflenet_v2_x2_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (2.0), as `paddle.vision.models.shufflenet_v2_x2_0`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_x2_0` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_x2_0(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    return _shufflenet("shufflenet_v2_x2_0", 2.0, pretrained, **kwargs)


def shufflenet_v2_swish(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet v2 (1.0, swish), as `paddle.vision.models.shufflenet_v2_swish`.

    Args:
        pretrained (bool, optional): load `shufflenet_v2_swish` from the local weight store (never
            downloaded; a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `ShuffleNetV2`, e.g. `num_classes=10`.

    Returns:
        ShuffleNetV2: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.shufflenet_v2_swish(num_classes=10)
        >>> model(paddle.ones([1, 3, 32, 32])).shape
        paddle.Size([1, 10])
    """
    kwargs["act"] = "swish"
    return _shufflenet("shufflenet_v2_swish", 1.0, pretrained, **kwargs)
