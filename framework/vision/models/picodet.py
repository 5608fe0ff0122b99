"""PP-PicoDet-class anchor-free detectors (Yu et al., 2021): an ImageNet backbone, a CSP-PAN
neck and a GFL-style head at strides 8/16/32/64, trained with VFL + GIoU + DFL on TAL
assignment (ATSS while warming up).

- `picodet_s`: MobileNetV2 features, 96-wide neck and head, 2 head convs, 320×320 inputs;
- `picodet_m`: EfficientNet-Lite0 features, 128 wide, 4 head convs, 416×416;
- `picodet_l`: EfficientNet-Lite1 features, 160 wide, 4 head convs, 416×416.

    model = picodet_s(num_classes=3, pretrained_backbone=True)
    outputs = model(images)                       # float32 [N, 3, H, W], H, W multiples of 32
    losses = model.loss(outputs, targets)         # {"loss", "loss_vfl", "loss_giou", "loss_dfl"}
    results = model.postprocess(outputs)          # per image: boxes, scores, labels (NumPy)
    boxes, scores = model.decode(outputs)         # the exportable part: [N, A, 4], [N, C, A]

Export: `model.export_layer()` is a Layer whose `forward(images)` returns `(boxes, scores)`;
`framework.jit.save`, the predictor and `framework.onnx.export` take it. NMS is not in the
graph: the package applies `framework.vision.ops.multiclass_nms` to its outputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.detection.csp_pan import CSPPAN
from framework.vision.detection.gfl_head import GFLHead, decode
from framework.vision.detection.gfl_loss import GFLLoss
from framework.vision.models.efficientnet_lite import VARIANTS, EfficientNetLite
from framework.vision.models.mobilenetv2 import MobileNetV2
from framework.vision.ops import make_divisible, multiclass_nms

BACKBONES = ("mobilenet_v2", "efficientnet_lite0", "efficientnet_lite1")


@dataclass
class PicoDetOutput:
    """What `PicoDet.forward` returns: per level, finest first, the class logits
    `[N, C, H/s, W/s]` and the regression logits `[N, 4 * (reg_max + 1), H/s, W/s]`, and the
    input size (height, width)."""

    cls_logits: list[Tensor]
    reg_logits: list[Tensor]
    image_size: tuple[int, int]


class MobileNetV2Features(nn.Layer):
    """MobileNetV2's feature layers up to the 320-channel block (the 1280-wide 1×1 conv is
    dropped), tapped at strides 8, 16 and 32."""

    TAPS = (6, 13, 17)

    def __init__(self, pretrained: bool = False, scale: float = 1.0) -> None:
        super().__init__()
        if pretrained:
            from framework.vision.models import mobilenet_v2

            network = mobilenet_v2(pretrained=True, scale=scale)
        else:
            network = MobileNetV2(scale=scale, num_classes=0, with_pool=False)
        self.features = nn.Sequential(*[network.features[i] for i in range(self.TAPS[-1] + 1)])
        self.out_channels = [make_divisible(c * scale, 8) for c in (32, 96, 320)]

    def forward(self, x: Tensor) -> list[Tensor]:
        taps = []
        for index, layer in enumerate(self.features):
            x = layer(x)
            if index in self.TAPS:
                taps.append(x)
        return taps


class EfficientNetLiteFeatures(nn.Layer):
    """EfficientNet-Lite's stem and MBConv blocks (its 1280-wide head is dropped), tapped after
    the last block at strides 8, 16 and 32."""

    def __init__(self, variant: str = "efficientnet_lite0", pretrained: bool = False) -> None:
        super().__init__()
        width, depth, _, _ = VARIANTS[variant]
        if pretrained:
            from framework.vision import models

            network = getattr(models, variant)(pretrained=True)
        else:
            network = EfficientNetLite(width, depth, num_classes=0, with_pool=False)
        self.stem = network.stem
        self.blocks = network.blocks
        settings = EfficientNetLite._block_settings(width, depth)
        stride, last = 2, {}
        for index, (_, out, _, block_stride, _) in enumerate(settings):
            stride *= block_stride
            last[stride] = (index, out)
        self.taps = tuple(last[s][0] for s in (8, 16, 32))
        self.out_channels = [last[s][1] for s in (8, 16, 32)]

    def forward(self, x: Tensor) -> list[Tensor]:
        x = self.stem(x)
        taps = []
        for index, block in enumerate(self.blocks):
            x = block(x)
            if index in self.taps:
                taps.append(x)
        return taps


def _backbone(name: str, pretrained: bool, scale: float) -> nn.Layer:
    if name == "mobilenet_v2":
        return MobileNetV2Features(pretrained, scale)
    return EfficientNetLiteFeatures(name, pretrained)


def _preprocessing(backbone: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    from framework.vision.models.shipped import shipped_manifests

    manifest = shipped_manifests()["mobilenetv2_1.0" if backbone == "mobilenet_v2" else backbone]
    return tuple(manifest.preprocess.mean), tuple(manifest.preprocess.std)


class PicoDet(nn.Layer):
    """An anchor-free PP-PicoDet-class detector.

    Args:
        num_classes: object classes (sigmoid scores; no background class).
        backbone: "mobilenet_v2", "efficientnet_lite0" or "efficientnet_lite1".
        pretrained_backbone: start the backbone from the shipped ImageNet weights (the local
            weight store; see `framework.vision.models.shipped_manifests`).
        channels: width of the neck and the head.
        head_convs: depthwise-separable blocks per level in the head.
        reg_max: the regression distributions cover `0..reg_max` strides.
        strides: the pyramid strides (3 levels from the backbone, a 4th made by the neck).
        input_size: the square input side the model is designed for (a multiple of 32).
        backbone_scale: MobileNetV2's width multiplier (pretrained weights: 1.0 only).
        static_assigner_epochs: with `loss(..., epoch=e)`, ATSS assigns while `e` is below it.

    Shapes: `forward(images)` takes float32 `[N, 3, H, W]`, H and W multiples of 32 (the
    stride-64 level has `ceil(H / 64)` rows), normalised with `mean` and `std` (pixels / 255
    first); it returns a `PicoDetOutput`.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.models import PicoDet
        >>> model = PicoDet(num_classes=3)
        >>> outputs = model(paddle.ones([2, 3, 128, 128]))
        >>> boxes = paddle.to_tensor([[8.0, 8.0, 64.0, 96.0]])  # one [x1, y1, x2, y2] box
        >>> labels = paddle.to_tensor([1])
        >>> losses = model.loss(outputs, [{"boxes": boxes, "labels": labels}] * 2)
        >>> losses["loss"].shape
        paddle.Size([])
        >>> losses["loss"].backward()
    """

    def __init__(
        self,
        num_classes: int,
        backbone: str = "mobilenet_v2",
        pretrained_backbone: bool = False,
        channels: int = 96,
        head_convs: int = 2,
        reg_max: int = 7,
        strides: Sequence[int] = (8, 16, 32, 64),
        input_size: int = 320,
        backbone_scale: float = 1.0,
        static_assigner_epochs: int = 0,
    ) -> None:
        super().__init__()
        if backbone not in BACKBONES:
            raise ValueError(f"backbone must be one of {BACKBONES}, got {backbone!r}")
        if len(strides) not in (3, 4) or tuple(strides[:3]) != (8, 16, 32):
            raise ValueError(f"strides must be (8, 16, 32) or (8, 16, 32, 64), got {strides}")
        self.num_classes = num_classes
        self.backbone_name = backbone
        self.reg_max = reg_max
        self.strides = tuple(int(s) for s in strides)
        self.input_size = int(input_size)
        self.mean, self.std = _preprocessing(backbone)
        self.backbone = _backbone(backbone, pretrained_backbone, backbone_scale)
        self.neck = CSPPAN(self.backbone.out_channels, channels, num_features=len(self.strides))
        self.head = GFLHead(channels, num_classes, len(self.strides), head_convs, reg_max=reg_max)
        self.criterion = GFLLoss(num_classes, self.strides, reg_max, static_assigner_epochs)

    def forward(self, images: Tensor) -> PicoDetOutput:
        height, width = int(images.shape[2]), int(images.shape[3])
        if height % 32 or width % 32:
            raise ValueError(f"input height and width must be multiples of 32, got "
                             f"{height}x{width}")  # fmt: skip
        cls_logits, reg_logits = self.head(self.neck(self.backbone(images)))
        return PicoDetOutput(cls_logits, reg_logits, (height, width))

    def loss(
        self,
        outputs: PicoDetOutput,
        targets: Sequence[Mapping[str, Any]],
        epoch: int | None = None,
    ) -> dict[str, Tensor]:
        """Training losses for one batch.

        Args:
            outputs: this model's `forward` result.
            targets: one dict per image: `"boxes"` float32 `[M, 4]` `[x1, y1, x2, y2]` input
                pixels and `"labels"` int64 `[M]` (M may be 0).
            epoch: the current epoch; below `static_assigner_epochs` ATSS assigns labels.

        Returns:
            `{"loss": total (call backward on it), "loss_vfl", "loss_giou", "loss_dfl"}`
            scalar Tensors; the parts are weighted and sum to the total.
        """
        return self.criterion(outputs.cls_logits, outputs.reg_logits, targets, epoch)

    def decode(self, outputs: PicoDetOutput) -> tuple[Tensor, Tensor]:
        """Boxes float32 `[N, A, 4]` `[x1, y1, x2, y2]` input pixels and scores `[N, C, A]`
        (sigmoid) of every anchor, before NMS; what the exported graph computes."""
        return decode(
            outputs.cls_logits, outputs.reg_logits, self.strides, self.reg_max, outputs.image_size
        )

    def postprocess(
        self,
        outputs: PicoDetOutput,
        score_threshold: float = 0.05,
        iou_threshold: float = 0.6,
        max_detections: int = 100,
        nms_top_k: int = 1000,
    ) -> list[dict[str, np.ndarray]]:
        """Detections per image: `decode`, then per-class NMS (`multiclass_nms`).

        Returns:
            One dict per image: `"boxes"` float32 `[K, 4]` input pixels, `"scores"` float32
            `[K]`, `"labels"` int64 `[K]`, by descending score (K <= max_detections).
        """
        with framework.no_grad():
            boxes, scores = self.decode(outputs)
        detections = multiclass_nms(
            boxes, scores, score_threshold, iou_threshold, nms_top_k, max_detections
        )
        return [detections_as_dict(d) for d in detections]

    def export_layer(self) -> PicoDetExport:
        """A Layer computing `(boxes, scores) = decode(self(images))`, sharing this model's
        parameters: what `framework.jit.save` and `framework.onnx.export` take. It puts the
        model in eval mode (batch norm on its running statistics)."""
        return PicoDetExport(self)

    def extra_repr(self) -> str:
        return (
            f"num_classes={self.num_classes}, backbone={self.backbone_name}, "
            f"input_size={self.input_size}, strides={self.strides}"
        )


def detections_as_dict(rows: np.ndarray) -> dict[str, np.ndarray]:
    """`multiclass_nms` rows `[K, 6]` (label, score, box) as a dict, by descending score."""
    order = np.argsort(-rows[:, 1], kind="stable")
    rows = rows[order]
    return {
        "boxes": np.ascontiguousarray(rows[:, 2:6], dtype=np.float32),
        "scores": np.ascontiguousarray(rows[:, 1], dtype=np.float32),
        "labels": rows[:, 0].astype(np.int64),
    }


class PicoDetExport(nn.Layer):
    """The exportable part of a `PicoDet`: `forward(images) -> (boxes [N, A, 4], scores
    [N, C, A])`, boxes in input pixels, scores after the sigmoid; NMS is left to the caller
    (`framework.vision.ops.multiclass_nms`)."""

    def __init__(self, model: PicoDet) -> None:
        super().__init__()
        self.model = model
        self.mean, self.std, self.input_size = model.mean, model.std, model.input_size
        self.eval()

    def forward(self, images: Tensor) -> tuple[Tensor, Tensor]:
        return self.model.decode(self.model(images))


_S = {"backbone": "mobilenet_v2", "channels": 96, "head_convs": 2, "input_size": 320}
_M = {"backbone": "efficientnet_lite0", "channels": 128, "head_convs": 4, "input_size": 416}
_L = {"backbone": "efficientnet_lite1", "channels": 160, "head_convs": 4, "input_size": 416}


def picodet_s(num_classes: int = 80, pretrained_backbone: bool = False, **kwargs: Any) -> PicoDet:
    """PicoDet-S: MobileNetV2 features, a 96-wide CSP-PAN and head, for 320×320 inputs.

    `pretrained_backbone=True` starts from the shipped ImageNet MobileNetV2; `kwargs` go to
    `PicoDet`.

    Example:
        >>> model = picodet_s(num_classes=3, pretrained_backbone=True)
        >>> model.input_size, model.mean
        (320, (0.485, 0.456, 0.406))
    """
    return PicoDet(num_classes, pretrained_backbone=pretrained_backbone, **{**_S, **kwargs})


def picodet_m(num_classes: int = 80, pretrained_backbone: bool = False, **kwargs: Any) -> PicoDet:
    """PicoDet-M: EfficientNet-Lite0 features, 128 wide, 4 head convs, for 416×416 inputs.

    Example:
        >>> picodet_m(num_classes=3).input_size
        416
    """
    return PicoDet(num_classes, pretrained_backbone=pretrained_backbone, **{**_M, **kwargs})


def picodet_l(num_classes: int = 80, pretrained_backbone: bool = False, **kwargs: Any) -> PicoDet:
    """PicoDet-L: EfficientNet-Lite1 features, 160 wide, 4 head convs, for 416×416 inputs.

    Example:
        >>> picodet_l(num_classes=3).input_size
        416
    """
    return PicoDet(num_classes, pretrained_backbone=pretrained_backbone, **{**_L, **kwargs})
