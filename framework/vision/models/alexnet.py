"""AlexNet, as `paddle.vision.models.AlexNet` (same sublayer names and initialisation)."""

from __future__ import annotations

import math
from typing import Any

import framework
import framework.nn.functional as F
from framework import nn
from framework.core.tensor import Tensor
from framework.nn.initializer import Uniform
from framework.vision.models._pretrained import load_pretrained

__all__ = ["AlexNet", "alexnet"]


def _uniform(fan_in: int) -> dict:
    """Paddle's AlexNet initialises weights and biases from U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    stdv = 1.0 / math.sqrt(fan_in)
    return {
        "weight_attr": framework.ParamAttr(initializer=Uniform(-stdv, stdv)),
        "bias_attr": framework.ParamAttr(initializer=Uniform(-stdv, stdv)),
    }


class ConvPoolLayer(nn.Layer):
    """Convolution, optional ReLU, then a 3x3 stride-2 max pool."""

    def __init__(
        self,
        input_channels: int,
        output_channels: int,
        filter_size: int,
        stride: int,
        padding: int,
        fan_in: int,
        groups: int = 1,
        act: str | None = None,
    ) -> None:
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = nn.Conv2D(
            input_channels,
            output_channels,
            filter_size,
            stride=stride,
            padding=padding,
            groups=groups,
            **_uniform(fan_in),
        )
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs: Tensor) -> Tensor:
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet, as `paddle.vision.models.AlexNet`.

    AlexNet (Krizhevsky et al., 2012), in Paddle's single-tower form: five convolutions and,
    when `num_classes > 0`, three fully connected layers with dropout.

    Input: float32 [N, 3, H, W]; the classifier flattens a 256x6x6 map, so H, W in 223..254
    (224 in Paddle's examples). Output: [N, num_classes] logits, or the [N, 256, h, w] feature
    map when `num_classes <= 0`.

    Args:
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.

    Returns:
        AlexNet: logits `[N, num_classes]` for float32 `[N, 3, 224, 224]` images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.AlexNet(num_classes=10)
        >>> model(paddle.ones([1, 3, 224, 224])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        self.num_classes = num_classes
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 3 * 11 * 11, act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 64 * 5 * 5, act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, **_uniform(192 * 3 * 3))
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, **_uniform(384 * 3 * 3))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 256 * 3 * 3, act="relu")
        if num_classes > 0:
            fan_in = 256 * 6 * 6
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, **_uniform(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, **_uniform(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, **_uniform(fan_in))

    def forward(self, inputs: Tensor) -> Tensor:
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = framework.flatten(x, start_axis=1, stop_axis=-1)
            x = F.relu(self._fc6(self._drop1(x)))
            x = F.relu(self._fc7(self._drop2(x)))
            x = self._fc8(x)
        return x


def alexnet(pretrained: bool = False, **kwargs: Any) -> AlexNet:
    """AlexNet, as `paddle.vision.models.alexnet`.

    AlexNet; `pretrained=True` loads "alexnet" from the local weight store.

    Args:
        pretrained (bool, optional): load `alexnet` from the local weight store (never downloaded; a
            missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `AlexNet`, e.g. `num_classes=10`.

    Returns:
        AlexNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.alexnet(num_classes=10)
        >>> model(paddle.ones([1, 3, 224, 224])).shape
        paddle.Size([1, 10])
    """
    model = AlexNet(**kwargs)
    return load_pretrained(model, "alexnet") if pretrained else model
