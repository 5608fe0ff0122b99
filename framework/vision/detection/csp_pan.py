"""CSP-PAN, PP-PicoDet's neck: a path-aggregation network (top-down, then bottom-up) whose
merge blocks are cross-stage-partial layers of depthwise-separable convolutions, plus an extra
coarser level made by strided convolutions (strides 8/16/32 in, 8/16/32/64 out).

    neck = CSPPAN([32, 96, 320], out_channels=96, num_features=4)
    p3, p4, p5, p6 = neck([c3, c4, c5])   # each [N, 96, H/s, W/s]
"""

from __future__ import annotations

from collections.abc import Sequence

import framework
import framework.nn.functional as F
from framework import nn
from framework.core.tensor import Tensor


class ConvBN(nn.Layer):
    """Conv2D (no bias), BatchNorm2D, then hard-swish (or no activation)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int = 1,
        stride: int = 1,
        groups: int = 1,
        act: bool = True,
    ) -> None:
        super().__init__()
        self.conv = nn.Conv2D(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            (kernel_size - 1) // 2,
            groups=groups,
            weight_attr=nn.ParamAttr(initializer=nn.initializer.KaimingUniform()),
            bias_attr=False,
        )
        self.bn = nn.BatchNorm2D(out_channels)
        self.act = act

    def forward(self, x: Tensor) -> Tensor:
        x = self.bn(self.conv(x))
        return F.hardswish(x) if self.act else x


class DepthwiseSeparable(nn.Layer):
    """Depthwise k×k ConvBN then pointwise 1×1 ConvBN (PaddleDetection's `DPModule`); the
    input and output widths are equal. `act_out=False` leaves the result linear."""

    def __init__(
        self, channels: int, kernel_size: int = 5, stride: int = 1, act_out: bool = True
    ) -> None:
        super().__init__()
        self.depthwise = ConvBN(channels, channels, kernel_size, stride, groups=channels)
        self.pointwise = ConvBN(channels, channels, 1, act=act_out)

    def forward(self, x: Tensor) -> Tensor:
        return self.pointwise(self.depthwise(x))


class CSPLayer(nn.Layer):
    """Cross-stage-partial block: half the width through `num_blocks` bottlenecks (1×1 ConvBN
    then a depthwise-separable k×k), half straight through, concatenated and mixed by 1×1."""

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: int = 5, num_blocks: int = 1
    ) -> None:
        super().__init__()
        mid = out_channels // 2
        self.main_conv = ConvBN(in_channels, mid)
        self.short_conv = ConvBN(in_channels, mid)
        self.blocks = nn.Sequential(
            *[
                nn.Sequential(ConvBN(mid, mid), DepthwiseSeparable(mid, kernel_size))
                for _ in range(num_blocks)
            ]
        )
        self.final_conv = ConvBN(2 * mid, out_channels)

    def forward(self, x: Tensor) -> Tensor:
        main = self.blocks(self.main_conv(x))
        return self.final_conv(framework.concat([main, self.short_conv(x)], axis=1))


class CSPPAN(nn.Layer):
    """Path aggregation over backbone features with CSP merge blocks.

    Args:
        in_channels: channels of the backbone features, finest first (strides 8, 16, 32).
        out_channels: the width of every output level.
        kernel_size: depthwise kernel of the separable convolutions.
        num_features: output levels; one more than the inputs adds a stride-64 level.
        num_csp_blocks: bottlenecks per CSP block.

    Shapes: inputs `[N, in_channels[i], H/8/2^i, W/8/2^i]`; outputs `[N, out_channels, ...]`
    at strides 8, 16, 32 (and 64). H and W must be multiples of the coarsest stride.

    Example:
        >>> neck = CSPPAN([32, 96, 320], 96)
        >>> [o.shape for o in neck([c3, c4, c5])]   # [N, 96, 40, 40] ... [N, 96, 5, 5] at 320
    """

    def __init__(
        self,
        in_channels: Sequence[int],
        out_channels: int,
        kernel_size: int = 5,
        num_features: int = 4,
        num_csp_blocks: int = 1,
    ) -> None:
        super().__init__()
        levels = len(in_channels)
        if num_features not in (levels, levels + 1):
            raise ValueError(f"num_features must be {levels} or {levels + 1}, got {num_features}")
        self.out_channels = out_channels
        self.num_features = num_features
        self.lateral = nn.LayerList([ConvBN(c, out_channels) for c in in_channels])
        self.top_down = nn.LayerList(
            [CSPLayer(2 * out_channels, out_channels, kernel_size, num_csp_blocks)
             for _ in range(levels - 1)]
        )  # fmt: skip
        self.downsample = nn.LayerList(
            [DepthwiseSeparable(out_channels, kernel_size, stride=2) for _ in range(levels - 1)]
        )
        self.bottom_up = nn.LayerList(
            [CSPLayer(2 * out_channels, out_channels, kernel_size, num_csp_blocks)
             for _ in range(levels - 1)]
        )  # fmt: skip
        if num_features > levels:
            self.extra_from_input = DepthwiseSeparable(out_channels, kernel_size, stride=2)
            self.extra_from_output = DepthwiseSeparable(out_channels, kernel_size, stride=2)

    def forward(self, features: Sequence[Tensor]) -> list[Tensor]:
        inputs = [lateral(f) for lateral, f in zip(self.lateral, features, strict=True)]
        levels = len(inputs)
        inner = [inputs[-1]]  # top-down: coarse to fine
        for index in range(levels - 1, 0, -1):
            upsampled = F.interpolate(inner[0], scale_factor=2, mode="nearest")
            block = self.top_down[levels - 1 - index]
            inner.insert(0, block(framework.concat([upsampled, inputs[index - 1]], axis=1)))
        outs = [inner[0]]  # bottom-up: fine to coarse
        for index in range(levels - 1):
            down = self.downsample[index](outs[-1])
            outs.append(self.bottom_up[index](framework.concat([down, inner[index + 1]], axis=1)))
        if self.num_features > levels:
            outs.append(self.extra_from_input(inputs[-1]) + self.extra_from_output(outs[-1]))
        return outs
