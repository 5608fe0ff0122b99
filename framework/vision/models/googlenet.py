"""GoogLeNet (Inception v1), as `paddle.vision.models.GoogLeNet` (same sublayer names)."""

from __future__ import annotations

from typing import Any

import framework
import framework.nn.functional as F
from framework import nn
from framework.core.tensor import Tensor
from framework.nn.initializer import Uniform
from framework.vision.models._pretrained import load_pretrained

__all__ = ["GoogLeNet", "googlenet"]

# Inception blocks: (input channels, 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection).
_INCEPTIONS = {
    "_ince3a": (192, 64, 96, 128, 16, 32, 32),
    "_ince3b": (256, 128, 128, 192, 32, 96, 64),
    "_ince4a": (480, 192, 96, 208, 16, 48, 64),
    "_ince4b": (512, 160, 112, 224, 24, 64, 64),
    "_ince4c": (512, 128, 128, 256, 24, 64, 64),
    "_ince4d": (512, 112, 144, 288, 32, 64, 64),
    "_ince4e": (528, 256, 160, 320, 32, 128, 128),
    "_ince5a": (832, 256, 160, 320, 32, 128, 128),
    "_ince5b": (832, 384, 192, 384, 48, 128, 128),
}


def _xavier(channels: int, filter_size: int) -> framework.ParamAttr:
    stdv = (3.0 / (filter_size**2 * channels)) ** 0.5
    return framework.ParamAttr(initializer=Uniform(-stdv, stdv))


class ConvLayer(nn.Layer):
    """A 'same'-padded convolution without bias -- and, as in Paddle, without activation."""

    def __init__(
        self, num_channels: int, num_filters: int, filter_size: int, stride: int = 1, groups=1
    ) -> None:
        super().__init__()
        self._conv = nn.Conv2D(
            num_channels,
            num_filters,
            filter_size,
            stride=stride,
            padding=(filter_size - 1) // 2,
            groups=groups,
            bias_attr=False,
        )

    def forward(self, inputs: Tensor) -> Tensor:
        return self._conv(inputs)


class Inception(nn.Layer):
    """Four parallel branches (1x1; 1x1-3x3; 1x1-5x5; 3x3 max pool-1x1), concatenated, ReLU."""

    def __init__(
        self,
        input_channels: int,
        filter1: int,
        filter3r: int,
        filter3: int,
        filter5r: int,
        filter5: int,
        proj: int,
    ) -> None:
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3r, 1)
        self._conv3 = ConvLayer(filter3r, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5r, 1)
        self._conv5 = ConvLayer(filter5r, filter5, 5)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs: Tensor) -> Tensor:
        branches = [
            self._conv1(inputs),
            self._conv3(self._conv3r(inputs)),
            self._conv5(self._conv5r(inputs)),
            self._convprj(self._pool(inputs)),
        ]
        return F.relu(framework.concat(branches, axis=1))


class GoogLeNet(nn.Layer):
    """GoogLeNet, as `paddle.vision.models.GoogLeNet`.

    GoogLeNet (Szegedy et al., 2014) with its two auxiliary classifiers, as Paddle builds it.

    Input: float32 [N, 3, H, W]. `forward` returns `(out, out1, out2)` in train and eval mode
    alike: the main logits and the auxiliary heads' logits (taken after inception 4a and 4d),
    each [N, num_classes]. The auxiliary heads flatten a 128x3x3 map, so they need H, W in
    189..236 (224 in Paddle's examples). With `num_classes <= 0` the three are the pooled (or,
    with `with_pool=False`, unpooled) feature maps of inception 5b, 4a and 4d.

    Args:
        num_classes (int, optional): the classifier's outputs; 0 or less drops the classifier.
            Default: 1000.
        with_pool (bool, optional): end with global average pooling. Default: True.

    Returns:
        GoogLeNet: `(out, out1, out2)`, the main and the two auxiliary logits, each `[N,
        num_classes]`.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.GoogLeNet(num_classes=10)
        >>> [y.shape for y in model(paddle.ones([1, 3, 224, 224]))]
        [paddle.Size([1, 10]), paddle.Size([1, 10]), paddle.Size([1, 10])]
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        for name, config in _INCEPTIONS.items():
            setattr(self, name, Inception(*config))
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))
            self._conv_o1 = ConvLayer(512, 128, 1)
            self._fc_o1 = nn.Linear(1152, 1024, weight_attr=_xavier(2048, 1))
            self._drop_o1 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out1 = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))
            self._conv_o2 = ConvLayer(528, 128, 1)
            self._fc_o2 = nn.Linear(1152, 1024, weight_attr=_xavier(2048, 1))
            self._drop_o2 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out2 = nn.Linear(1024, num_classes, weight_attr=_xavier(1024, 1))

    def forward(self, inputs: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        x = self._pool(self._conv(inputs))
        x = self._pool(self._conv_2(self._conv_1(x)))
        x = self._pool(self._ince3b(self._ince3a(x)))
        ince4a = self._ince4a(x)
        ince4d = self._ince4d(self._ince4c(self._ince4b(ince4a)))
        x = self._pool(self._ince4e(ince4d))
        out, out1, out2 = self._ince5b(self._ince5a(x)), ince4a, ince4d
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            out = self._fc_out(framework.squeeze(self._drop(out), axis=[2, 3]))
            out1 = framework.flatten(self._conv_o1(out1), start_axis=1, stop_axis=-1)
            out1 = self._out1(self._drop_o1(F.relu(self._fc_o1(out1))))
            # Paddle's second head has no ReLU after its first Linear; kept for weight parity.
            out2 = framework.flatten(self._conv_o2(out2), start_axis=1, stop_axis=-1)
            out2 = self._out2(self._drop_o2(self._fc_o2(out2)))
        return out, out1, out2


def googlenet(pretrained: bool = False, **kwargs: Any) -> GoogLeNet:
    """GoogLeNet, as `paddle.vision.models.googlenet`.

    GoogLeNet; `pretrained=True` loads "googlenet" from the local weight store.

    Args:
        pretrained (bool, optional): load `googlenet` from the local weight store (never downloaded;
            a missing file is an error that says how to install it). Default: False.
        **kwargs: passed to `GoogLeNet`, e.g. `num_classes=10`.

    Returns:
        GoogLeNet: the network, its input `[N, 3, H, W]` float32 images.

    Examples:
        >>> import framework as paddle
        >>> model = paddle.vision.models.googlenet(num_classes=10)
        >>> len(model(paddle.ones([1, 3, 224, 224])))
        3
    """
    model = GoogLeNet(**kwargs)
    return load_pretrained(model, "googlenet") if pretrained else model
