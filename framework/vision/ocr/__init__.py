"""Optical character recognition in the framework: PP-OCR's detect, classify and recognise
pipeline, and the losses and labels to fine-tune it.

    from framework.vision.ocr import OCRPipeline
    ocr = OCRPipeline.from_onnx("det.onnx", "rec.onnx", "cls.onnx")
    lines = ocr(image)  # [OCRLine(polygon, text, score), ...]

Training the detector: `make_db_labels` turns an image's text polygons into DB targets and
`DBLoss` scores the DB head's `[N, 3, H, W]` maps against them; `DetectorTrainer` fine-tunes
the shipped detector on images and their polygons. Fine-tuning the recognizer:
`RecognizerTrainer` (CTC on line crops and their text). `PipelineParts` holds the networks
a job fine-tunes as one Layer (state-dict keys `det.*` and `rec.*`). Evaluating:
`text_detection_metrics` (precision, recall, hmean at IoU 0.5) and `text_recognition_metrics`
(line accuracy, normalized edit distance), as PaddleOCR reports them. Annotations:
`framework.vision.ocr.label_files` reads and writes PPOCRLabel's Label.txt and rec_gt.txt and
ICDAR 2015 ground truth.

Nothing here needs OpenCV, onnxruntime, shapely or pyclipper: the geometry (region hulls,
minimum-area rectangles, round offsets) and the resampling are NumPy.
"""

from __future__ import annotations

from framework.vision.ocr.ctc_decode import ctc_greedy_decode
from framework.vision.ocr.db_labels import make_db_labels
from framework.vision.ocr.db_loss import DBLoss, balanced_bce_loss, db_dice_loss, mask_l1_loss
from framework.vision.ocr.db_postprocess import DBPostProcess
from framework.vision.ocr.det_augment import DetectionAugment
from framework.vision.ocr.det_training import DetectorTrainer
from framework.vision.ocr.metrics import (
    TextDetectionMetrics,
    TextRecognitionMetrics,
    edit_distance,
    is_simple_polygon,
    polygon_area,
    polygon_intersection_area,
    polygon_iou,
    text_detection_metrics,
    text_recognition_metrics,
)
from framework.vision.ocr.parts import PipelineParts
from framework.vision.ocr.pipeline import OCRLine, OCRPipeline, crop_text_line, sort_reading_order
from framework.vision.ocr.predictors import TextClassifier, TextDetector, TextRecognizer
from framework.vision.ocr.rec_training import RecognitionNetwork, RecognizerTrainer, encode_texts

__all__ = [
    "DBLoss",
    "DBPostProcess",
    "DetectionAugment",
    "DetectorTrainer",
    "OCRLine",
    "OCRPipeline",
    "PipelineParts",
    "RecognitionNetwork",
    "RecognizerTrainer",
    "TextClassifier",
    "TextDetectionMetrics",
    "TextDetector",
    "TextRecognitionMetrics",
    "TextRecognizer",
    "balanced_bce_loss",
    "crop_text_line",
    "ctc_greedy_decode",
    "db_dice_loss",
    "edit_distance",
    "encode_texts",
    "is_simple_polygon",
    "make_db_labels",
    "mask_l1_loss",
    "polygon_area",
    "polygon_intersection_area",
    "polygon_iou",
    "sort_reading_order",
    "text_detection_metrics",
    "text_recognition_metrics",
]
