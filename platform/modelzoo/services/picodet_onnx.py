"""A PicoDet exported to ONNX by PaddleDetection, as a framework network that answers boxes.

PaddleDetection's export ends at the head: per feature level, sigmoid class scores [1, HW, C]
and the box-side distributions [1, HW, 4 × (reg_max + 1)] (GFL). `PicoDetDecoder` adds the
decoding after them, in framework ops so that it traces into the graph an export writes:

    boxes [N, A, 4]   x1, y1, x2, y2 in pixels of the network's input (A: points of all levels)
    scores [N, C, A]  per class

which is what `framework.vision.ops.multiclass_nms` takes, and what the framework's own
detectors export (`PicoDet.export_layer`). A point's box reaches from its centre by the
expectation of each side's softmax over the bins, times the level's stride.

The exported graphs are fixed to a batch of one; `batch_dynamic` frees that dimension (the
head's Reshape nodes copy it instead of naming 1), so one run answers a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework import nn


def batch_dynamic(model: Any) -> Any:
    """The ONNX ModelProto with its batch dimension left free (in place; returned)."""
    graph = model.graph
    constants = {n.outputs[0]: n for n in graph.nodes if n.op_type == "Constant"}
    for node in graph.nodes:
        if node.op_type != "Reshape" or node.inputs[1] not in constants:
            continue
        shape = np.array(constants[node.inputs[1]].attrs["value"]).copy()
        if shape.size and shape[0] == 1:
            shape[0] = 0  # ONNX Reshape: 0 copies the input's dimension
            constants[node.inputs[1]].attrs["value"] = shape
    for value in (*graph.inputs, *graph.outputs):
        if value.shape:
            value.shape[0] = "N"
    return model


def _points(size: tuple[int, int], strides: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Every level's point centres [A, 4] (x, y, x, y) and strides [A, 1], level by level."""
    height, width = size
    centres, scales = [], []
    for stride in strides:
        rows, cols = -(-height // stride), -(-width // stride)
        ys, xs = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
        xy = np.stack([(xs.ravel() + 0.5) * stride, (ys.ravel() + 0.5) * stride], axis=1)
        centres.append(np.concatenate([xy, xy], axis=1))
        scales.append(np.full((rows * cols, 1), stride))
    return np.concatenate(centres).astype(np.float32), np.concatenate(scales).astype(np.float32)


class PicoDetDecoder(nn.Layer):
    """`network` (per level: scores [N, HW, C], then per level: distributions) decoded to
    (boxes [N, A, 4], scores [N, C, A]) for inputs of `size` (height, width)."""

    def __init__(
        self, network: Any, size: tuple[int, int], strides: Sequence[int], reg_max: int
    ) -> None:
        import framework

        super().__init__()
        self.network = network
        self.levels, self.bins = len(strides), reg_max + 1
        centres, scales = _points(size, strides)
        self.register_buffer("centres", framework.to_tensor(centres))
        self.register_buffer("strides", framework.to_tensor(scales))
        self.register_buffer("sides", framework.to_tensor(np.array([-1, -1, 1, 1], np.float32)))
        self.register_buffer(
            "projection", framework.to_tensor(np.arange(self.bins, dtype=np.float32)[:, None])
        )

    def forward(self, images: Any) -> tuple[Any, Any]:
        import framework
        import framework.nn.functional as F

        outputs = self.network(images)
        scores = framework.concat(list(outputs[: self.levels]), axis=1)  # [N, A, C]
        spread = framework.concat(list(outputs[self.levels :]), axis=1)  # [N, A, 4 × bins]
        sides = F.softmax(spread.reshape([0, -1, 4, self.bins]), axis=-1)
        distances = framework.matmul(sides, self.projection).reshape([0, -1, 4]) * self.strides
        boxes = self.centres + distances * self.sides
        return boxes, scores.transpose([0, 2, 1])

    def extra_repr(self) -> str:
        return f"levels={self.levels}, bins={self.bins}"
