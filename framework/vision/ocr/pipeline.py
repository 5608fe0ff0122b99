"""Detection, direction classification and recognition chained into one call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from framework.vision.ocr.geometry import order_points_clockwise
from framework.vision.ocr.predictors import TextClassifier, TextDetector, TextRecognizer
from framework.vision.ocr.raster import perspective_matrix, resize_linear, warp_perspective_cubic


@dataclass(frozen=True)
class OCRLine:
    """One line of text: `polygon` `[4, 2]` float32 corners (top-left, top-right,
    bottom-right, bottom-left) in the input image's pixels, the `text` and its `score`."""

    polygon: np.ndarray
    text: str
    score: float


class OCRPipeline:
    """Reads the text in an image, line by line, in reading order.

    Args:
        detector: a `TextDetector`.
        recognizer: a `TextRecognizer`.
        classifier: an optional `TextClassifier`; without it lines are read as they stand.
        text_score: lines recognised with a lower score are dropped.
        max_side_len, min_side_len: images are first scaled so that their longer side is at
            most `max_side_len` and their shorter side at least `min_side_len`.
        min_height, width_height_ratio: images that low, or that wide, get black bands above
            and below so the detector sees a page-like shape.

    Call it with an `[H, W, 3]` uint8 BGR image (as `cv2.imread` gives; a PIL image or an
    `[H, W]` grey image is accepted too) to get a list of `OCRLine`.

        ocr = OCRPipeline.from_onnx(det_path, rec_path, cls_path)
        for line in ocr(image):
            print(line.polygon.tolist(), line.text, line.score)
    """

    def __init__(
        self,
        detector: TextDetector,
        recognizer: TextRecognizer,
        classifier: TextClassifier | None = None,
        text_score: float = 0.5,
        max_side_len: int = 2000,
        min_side_len: int = 30,
        min_height: int = 30,
        width_height_ratio: float = 8,
    ) -> None:
        self.detector = detector
        self.recognizer = recognizer
        self.classifier = classifier
        self.text_score = text_score
        self.max_side_len = max_side_len
        self.min_side_len = min_side_len
        self.min_height = min_height
        self.width_height_ratio = width_height_ratio

    @classmethod
    def from_onnx(
        cls, det_path: str | Path, rec_path: str | Path, cls_path: str | Path | None = None
    ) -> OCRPipeline:
        """A pipeline of PP-OCR ONNX models imported into the framework, default settings."""
        from framework.onnx import load

        classifier = TextClassifier(load(cls_path)) if cls_path is not None else None
        return cls(TextDetector(load(det_path)), TextRecognizer(load(rec_path)), classifier)

    def __call__(self, image) -> list[OCRLine]:
        image = as_bgr(image)
        raw_h, raw_w = image.shape[:2]
        image, ratio_h, ratio_w = self._fit_size(image)
        image, top = self._letterbox(image)
        boxes = self.detector(image)
        if len(boxes) == 0:
            return []
        boxes = sort_reading_order(boxes)
        crops = [crop_text_line(image, box) for box in boxes]
        if self.classifier is not None:
            crops, _ = self.classifier(crops)
        texts = self.recognizer(crops)
        lines = []
        for box, (text, score) in zip(boxes, texts, strict=True):
            if score < self.text_score:
                continue
            polygon = box.astype(np.float32).copy()
            polygon[:, 1] -= top
            polygon[:, 0] *= ratio_w
            polygon[:, 1] *= ratio_h
            polygon = np.maximum(polygon, 0)
            polygon[:, 0] = np.minimum(polygon[:, 0], raw_w)
            polygon[:, 1] = np.minimum(polygon[:, 1], raw_h)
            lines.append(OCRLine(polygon, text, score))
        return lines

    def _fit_size(self, image: np.ndarray) -> tuple[np.ndarray, float, float]:
        ratio_h = ratio_w = 1.0
        for limit, too_far in ((self.max_side_len, max), (self.min_side_len, min)):
            h, w = image.shape[:2]
            side = too_far(h, w)
            if (too_far is max and side > limit) or (too_far is min and side < limit):
                scale = limit / side
                rh = int(round(int(h * scale) / 32) * 32)
                rw = int(round(int(w * scale) / 32) * 32)
                if rh <= 0 or rw <= 0:
                    raise ValueError(f"the image ({w}x{h}) cannot be scaled to read text in")
                image = resize_linear(image, rw, rh)
                ratio_h, ratio_w = h / rh, w / rw
        return image, ratio_h, ratio_w

    def _letterbox(self, image: np.ndarray) -> tuple[np.ndarray, int]:
        h, w = image.shape[:2]
        if h > self.min_height and w / h <= self.width_height_ratio:
            return image, 0
        new_h = max(int(w / self.width_height_ratio), self.min_height) * 2
        pad = int(abs(new_h - h) / 2)
        return np.pad(image, ((pad, pad), (0, 0), (0, 0))), pad


def as_bgr(image) -> np.ndarray:
    """An `[H, W, 3]` uint8 BGR array from a BGR array, an `[H, W]` grey array or a PIL image
    (converted to RGB first, so an alpha channel is dropped)."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a dependency
        Image = None
    if Image is not None and isinstance(image, Image.Image):
        return np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])
    array = np.asarray(image)
    if array.dtype != np.uint8:
        raise ValueError(f"OCR takes uint8 images, got {array.dtype}")
    if array.ndim == 2:
        return np.repeat(array[:, :, None], 3, axis=2)
    if array.ndim == 3 and array.shape[2] == 3:
        return array
    raise ValueError(f"OCR takes [H, W, 3] BGR or [H, W] grey images, got shape {array.shape}")


def sort_reading_order(boxes: np.ndarray) -> np.ndarray:
    """Boxes top to bottom, and left to right within a line (top-left corners within 10
    pixels of height count as one line), as PP-OCR orders them."""
    ordered = sorted(list(boxes), key=lambda b: (b[0][1], b[0][0]))
    for i in range(len(ordered) - 1):
        for j in range(i, -1, -1):
            same_line = abs(ordered[j + 1][0][1] - ordered[j][0][1]) < 10
            if same_line and ordered[j + 1][0][0] < ordered[j][0][0]:
                ordered[j], ordered[j + 1] = ordered[j + 1], ordered[j]
            else:
                break
    return np.stack(ordered)


def crop_text_line(image: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The quadrilateral `box` of `image` warped upright (bicubic, edges replicated); a crop
    at least 1.5 times taller than wide is turned 90 degrees counter-clockwise, since text
    lines run along their longer side."""
    points = order_points_clockwise(box)
    width = int(max(np.linalg.norm(points[0] - points[1]), np.linalg.norm(points[2] - points[3])))
    height = int(max(np.linalg.norm(points[0] - points[3]), np.linalg.norm(points[1] - points[2])))
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    crop = warp_perspective_cubic(image, perspective_matrix(points, target), width, height)
    if crop.shape[0] / crop.shape[1] >= 1.5:
        crop = np.rot90(crop)
    return crop
