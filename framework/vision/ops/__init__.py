"""Vision ops (Paddle's `paddle.vision.ops`): the layers shared by the vision models, box
overlaps, box encodings, non-maximum suppression, RoI pooling, deformable
convolution, the SSD / YOLO anchor heads and YOLOv3 loss, RPN proposals and JPEG reading.

    from framework.vision.ops import box_iou, nms, multiclass_nms, roi_align
"""

from framework.vision.ops.blocks import ConvNormActivation, make_divisible
from framework.vision.ops.box_coder import bbox2distance, box_coder, distance2bbox
from framework.vision.ops.boxes import (
    box_area,
    box_iou,
    complete_box_iou,
    distance_box_iou,
    generalized_box_iou,
)
from framework.vision.ops.deform_conv import DeformConv2D, deform_conv2d
from framework.vision.ops.image_io import decode_jpeg, read_file
from framework.vision.ops.matrix_nms import matrix_nms
from framework.vision.ops.nms import multiclass_nms, nms
from framework.vision.ops.prior_box import prior_box
from framework.vision.ops.proposals import distribute_fpn_proposals, generate_proposals
from framework.vision.ops.roi_align import RoIAlign, roi_align
from framework.vision.ops.roi_pool import PSRoIPool, RoIPool, psroi_pool, roi_pool
from framework.vision.ops.yolo_box import yolo_box
from framework.vision.ops.yolo_loss import yolo_loss

__all__ = [
    "ConvNormActivation",
    "DeformConv2D",
    "PSRoIPool",
    "RoIAlign",
    "RoIPool",
    "bbox2distance",
    "box_area",
    "box_coder",
    "box_iou",
    "complete_box_iou",
    "decode_jpeg",
    "deform_conv2d",
    "distance2bbox",
    "distance_box_iou",
    "distribute_fpn_proposals",
    "generate_proposals",
    "generalized_box_iou",
    "make_divisible",
    "matrix_nms",
    "multiclass_nms",
    "nms",
    "prior_box",
    "psroi_pool",
    "read_file",
    "roi_align",
    "roi_pool",
    "yolo_box",
    "yolo_loss",
]
