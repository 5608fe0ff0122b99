"""Fine-tuning a PicoDet that PaddleDetection exported to ONNX (such as PP-Structure's layout
detector), with the framework's own PicoDet training loss.

PaddleDetection's export ends at the head. Per feature level it holds one 1×1 conv whose output
is split into the class logits and the box-side logits. The class half goes through a Sigmoid,
and both halves are then reshaped and transposed to `[N, HW, C]` and `[N, HW, 4 × (reg_max + 1)]`.
The sigmoid and reshapes carry no weights, so the values under them (the Split's two outputs,
`[N, C, H, W]` and `[N, 4 × (reg_max + 1), H, W]`) are exactly what `PicoDet.forward` returns.
`ImportedPicoDet` reads them with `OnnxLayer.forward_values` and trains them with `GFLLoss`
(VFL + GIoU + DFL on TAL, ATSS while warming up). It decodes with the same points, strides and
expectation over the bins as the export's post-processing (`gfl_head.decode`), so a fine-tuned
network answers as the shipped one does.

Batch norms keep their running statistics in training too: the importer applies them that way.
Their scale and shift are trained, and a small fine-tuning batch never moves the released
statistics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import framework
from framework import nn
from framework.core.tensor import Tensor
from framework.vision.detection.gfl_head import decode
from framework.vision.detection.gfl_loss import GFLLoss
from framework.vision.models.picodet import PicoDetExport, PicoDetOutput, detections_as_dict
from framework.vision.ops import multiclass_nms

_PASS_THROUGH = ("Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity")


def free_input_size(model: Any) -> Any:
    """The ONNX ModelProto (`framework.onnx.read_model`) with its image input's batch, height
    and width left free, in place; returned. PaddleDetection's exports name one fixed size, but
    PicoDet is fully convolutional (its upsampling Resizes use scales), and the values
    `ImportedPicoDet` reads come before the head's size-bound reshapes.

        graph = framework.onnx.load(free_input_size(framework.onnx.read_model(path)))
    """
    for value in model.graph.inputs:
        if value.shape and len(value.shape) == 4:
            value.shape[0], value.shape[2], value.shape[3] = "N", "H", "W"
    return model


def picodet_head_values(network: Any) -> tuple[list[str], list[str]]:
    """The ONNX names of the per-level class logits (under each level's Sigmoid) and box-side
    logits (the values the export's reshapes start from), finest level first.

    Walks back from each graph output through shape-only nodes; an output that meets a Sigmoid
    is a class output, one that meets anything else is a regression output. Raises ValueError
    when the graph is not laid out that way.
    """
    nodes = getattr(network, "nodes", None)
    outputs = getattr(network, "output_names", None)
    if not nodes or not outputs:
        raise ValueError("expected an imported ONNX graph (framework.onnx.load)")
    made_by = {name: node for node in nodes for name in node.outputs}
    cls_names, reg_names = [], []
    for output in outputs:
        name, node = output, made_by.get(output)
        while node is not None and node.op_type in _PASS_THROUGH:
            name, node = node.inputs[0], made_by.get(node.inputs[0])
        if node is not None and node.op_type == "Sigmoid":
            cls_names.append(node.inputs[0])
        else:
            reg_names.append(name)
    if not cls_names or len(cls_names) != len(reg_names):
        raise ValueError(
            f"a PicoDet export has one sigmoid class output and one box output per level; this "
            f"graph's {len(outputs)} outputs give {len(cls_names)} class and {len(reg_names)} "
            "box outputs"
        )
    return cls_names, reg_names


class ImportedPicoDet(nn.Layer):
    """A PaddleDetection PicoDet ONNX graph as a trainable detector, with `PicoDet`'s interface
    (`forward`, `loss`, `decode`, `postprocess`, `export_layer`).

    Args:
        network: the imported graph (`framework.onnx.load`), images `[N, 3, H, W]` in, per
            level sigmoid scores then box distributions out. Its weights are trained in place.
        num_classes: the graph's classes (checked on the first batch).
        strides: the levels' strides, finest first (the export's post-processing's).
        reg_max: the box distributions cover `0..reg_max` strides.
        class_indices: which of the graph's classes to keep, in the order they become this
            detector's classes (default: all). Fine-tuning on a dataset that labels a subset of
            the classes trains and answers those alone. Kept as the buffer `kept_classes`, so
            saved weights carry it.
        mean, std: the RGB normalisation the network takes (pixels / 255 first).
        input_size: the (height, width) the network was trained at; what an export records.
        static_assigner_epochs: with `loss(..., epoch=e)`, ATSS assigns while `e` is below it.

    Shapes: `forward(images)` takes float32 `[N, 3, H, W]`, H and W multiples of 32, and returns
    a `PicoDetOutput`: class logits `[N, K, H/s, W/s]` (K kept classes) and box logits
    `[N, 4 × (reg_max + 1), H/s, W/s]` per level.

    Example:
        >>> graph = framework.onnx.load("layout_cdla.onnx")
        >>> model = ImportedPicoDet(graph, 10, (8, 16, 32, 64), reg_max=7, class_indices=[0, 1, 4])
        >>> outputs = model(images)
        >>> model.loss(outputs, [{"boxes": boxes, "labels": labels}])["loss"].backward()
        >>> model.postprocess(outputs)[0]["boxes"].shape
        (12, 4)
    """

    def __init__(
        self,
        network: Any,
        num_classes: int,
        strides: Sequence[int],
        reg_max: int,
        class_indices: Sequence[int] | None = None,
        mean: Sequence[float] = (0.485, 0.456, 0.406),
        std: Sequence[float] = (0.229, 0.224, 0.225),
        input_size: tuple[int, int] | int = (800, 608),
        static_assigner_epochs: int = 0,
    ) -> None:
        super().__init__()
        self.network = network
        self.cls_names, self.reg_names = picodet_head_values(network)
        self.strides = tuple(int(s) for s in strides)
        if len(self.strides) != len(self.cls_names):
            raise ValueError(
                f"{len(self.strides)} strides for a graph with {len(self.cls_names)} levels"
            )
        self.reg_max = int(reg_max)
        self.graph_classes = int(num_classes)
        indices = list(range(self.graph_classes)) if class_indices is None else class_indices
        kept = [int(i) for i in indices]
        bad = [i for i in kept if not 0 <= i < self.graph_classes]
        if bad or not kept or len(set(kept)) != len(kept):
            raise ValueError(
                f"class_indices must be distinct classes of the graph's {self.graph_classes}, "
                f"got {kept}"
            )
        # A buffer, so that saved weights carry which classes they answer: a network built
        # for the same number of classes and given them answers the same.
        self.register_buffer("kept_classes", framework.to_tensor(np.asarray(kept, np.int64)))
        self.num_classes = len(kept)
        self.mean, self.std = tuple(mean), tuple(std)
        self.input_size = input_size
        self.criterion = GFLLoss(
            self.num_classes, self.strides, self.reg_max, static_assigner_epochs
        )
        self._checked = False

    def _check_levels(self, cls_logits: list[Tensor], reg_logits: list[Tensor]) -> None:
        classes = {int(c.shape[1]) for c in cls_logits}
        if classes != {self.graph_classes}:
            raise ValueError(
                f"the graph's class outputs have {sorted(classes)} channels, not the "
                f"{self.graph_classes} classes it was described with"
            )
        bins = {int(r.shape[1]) for r in reg_logits}
        if bins != {4 * (self.reg_max + 1)}:
            raise ValueError(
                f"the graph's box outputs have {sorted(bins)} channels, not "
                f"4 × (reg_max + 1) = {4 * (self.reg_max + 1)}: reg_max does not match it"
            )
        self._checked = True

    def forward(self, images: Tensor) -> PicoDetOutput:
        height, width = int(images.shape[2]), int(images.shape[3])
        if height % 32 or width % 32:
            raise ValueError(f"input height and width must be multiples of 32, got "
                             f"{height}x{width}")  # fmt: skip
        values = self.network.forward_values(images, names=self.cls_names + self.reg_names)
        levels = len(self.cls_names)
        cls_logits, reg_logits = list(values[:levels]), list(values[levels:])
        if not self._checked:
            self._check_levels(cls_logits, reg_logits)
        cls_logits = [framework.index_select(c, self.kept_classes, axis=1) for c in cls_logits]
        return PicoDetOutput(cls_logits, reg_logits, (height, width))

    def loss(
        self,
        outputs: PicoDetOutput,
        targets: Sequence[Mapping[str, Any]],
        epoch: int | None = None,
    ) -> dict[str, Tensor]:
        """`{"loss", "loss_vfl", "loss_giou", "loss_dfl"}` of one batch, as `PicoDet.loss`:
        `targets` holds per image "boxes" float32 `[M, 4]` x1, y1, x2, y2 input pixels and
        "labels" int64 `[M]` indices into the kept classes."""
        return self.criterion(outputs.cls_logits, outputs.reg_logits, targets, epoch)

    def decode(self, outputs: PicoDetOutput) -> tuple[Tensor, Tensor]:
        """Boxes float32 `[N, A, 4]` input pixels and sigmoid scores `[N, K, A]` of every
        point, before NMS: what the export's post-processing computes."""
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
        """Per image "boxes" `[K, 4]`, "scores" `[K]`, "labels" `[K]` (kept-class indices),
        best first, after per-class NMS (`multiclass_nms`)."""
        with framework.no_grad():
            boxes, scores = self.decode(outputs)
        detections = multiclass_nms(
            boxes, scores, score_threshold, iou_threshold, nms_top_k, max_detections
        )
        return [detections_as_dict(d) for d in detections]

    def export_layer(self) -> PicoDetExport:
        """`(boxes, scores) = decode(self(images))` as one Layer sharing these weights (eval
        mode), for `framework.jit.save` and `framework.onnx.export`."""
        return PicoDetExport(self)

    def extra_repr(self) -> str:
        kept = self.kept_classes.numpy().tolist()
        return f"levels={len(self.strides)}, reg_max={self.reg_max}, kept_classes={kept}"
