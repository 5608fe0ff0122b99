"""The three PP-OCR stages around their networks: text detection, direction classification and
recognition, with PP-OCR's preprocessing (OpenCV-exact resizes, mean = std = 0.5) and
post-processing. Images are `[H, W, 3]` uint8 arrays in BGR order, as PP-OCR reads them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from framework.core.autograd import no_grad
from framework.core.tensor import to_tensor
from framework.nn.layer.layers import Layer
from framework.vision.ocr.ctc_decode import ctc_greedy_decode
from framework.vision.ocr.db_postprocess import DBPostProcess
from framework.vision.ocr.raster import resize_linear


def _run(model: Layer, batch: np.ndarray) -> np.ndarray:
    with no_grad():
        out = model(to_tensor(batch))
    return out.numpy()


def normalise_image(image: np.ndarray) -> np.ndarray:
    """`[H, W, 3]` uint8 to `[3, H, W]` float32 in [-1, 1] (PP-OCR's mean = std = 0.5), the
    networks' input; training uses it too, so the network sees what it will see deployed."""
    return ((image.astype(np.float32).transpose(2, 0, 1) / 255) - 0.5) / 0.5


class TextDetector:
    """Finds text lines: the DB network's probability map, turned into boxes.

    Args:
        model: the detection network, `[N, 3, H, W]` float32 to `[N, 1, H, W]` probabilities
            (e.g. `framework.onnx.load("ch_PP-OCRv4_det_infer.onnx")`).
        limit_side_len, limit_type: with "min" the shorter side is scaled up to
            `limit_side_len` (never down); with "max" the longer one is scaled down to it.
            Both sides are then rounded to multiples of 32.
        Other arguments go to `DBPostProcess`.

    Calling it on a `[H, W, 3]` uint8 image returns `[K, 4, 2]` float32 boxes in image pixels.

        detector = TextDetector(framework.onnx.load(det_path))
        boxes = detector(image)
    """

    def __init__(
        self,
        model: Layer,
        limit_side_len: int = 736,
        limit_type: str = "min",
        thresh: float = 0.3,
        box_thresh: float = 0.5,
        unclip_ratio: float = 1.6,
        max_candidates: int = 1000,
    ) -> None:
        if limit_type not in ("min", "max"):
            raise ValueError(f"limit_type must be 'min' or 'max', got {limit_type!r}")
        self.model = model
        self.limit_side_len = limit_side_len
        self.limit_type = limit_type
        self.postprocess = DBPostProcess(thresh, box_thresh, max_candidates, unclip_ratio)

    def preprocess(self, image: np.ndarray) -> np.ndarray:
        """`[1, 3, H', W']` float32 network input."""
        h, w = image.shape[:2]
        side = self.limit_side_len
        if self.limit_type == "max":
            ratio = side / max(h, w) if max(h, w) > side else 1.0
        else:
            ratio = side / min(h, w) if min(h, w) < side else 1.0
        rh = int(round(int(h * ratio) / 32) * 32)
        rw = int(round(int(w * ratio) / 32) * 32)
        if rh <= 0 or rw <= 0:
            raise ValueError(f"the image ({w}x{h}) is too small to detect text in")
        return normalise_image(resize_linear(image, rw, rh))[None]

    def __call__(self, image: np.ndarray) -> np.ndarray:
        prob = _run(self.model, self.preprocess(image))[0, 0]
        boxes, _ = self.postprocess(prob, image.shape[:2])
        return boxes


class TextClassifier:
    """Tells upright text lines from upside-down ones and turns the latter by 180 degrees.

    Args:
        model: `[N, 3, 48, 192]` float32 to `[N, 2]` probabilities of `labels`.
        batch_size: lines per forward pass (lines are batched in order of aspect ratio).
        thresh: a line is turned only when "180" is this sure.

    Calling it on a list of `[h, w, 3]` uint8 crops returns `(crops, [(label, score), ...])`.
    """

    def __init__(
        self,
        model: Layer,
        image_shape: tuple[int, int, int] = (3, 48, 192),
        batch_size: int = 6,
        thresh: float = 0.9,
        labels: Sequence[str] = ("0", "180"),
    ) -> None:
        self.model = model
        self.image_shape = image_shape
        self.batch_size = batch_size
        self.thresh = thresh
        self.labels = list(labels)

    def _input(self, crop: np.ndarray) -> np.ndarray:
        channels, height, width = self.image_shape
        h, w = crop.shape[:2]
        resized_w = min(width, int(math.ceil(height * w / h)))
        out = np.zeros((channels, height, width), dtype=np.float32)
        out[:, :, :resized_w] = normalise_image(resize_linear(crop, resized_w, height))
        return out

    def __call__(
        self, crops: Sequence[np.ndarray]
    ) -> tuple[list[np.ndarray], list[tuple[str, float]]]:
        crops = list(crops)
        results: list[tuple[str, float]] = [("", 0.0)] * len(crops)
        order = np.argsort(np.array([c.shape[1] / c.shape[0] for c in crops]))
        for begin in range(0, len(crops), self.batch_size):
            chunk = order[begin : begin + self.batch_size]
            probs = _run(self.model, np.stack([self._input(crops[i]) for i in chunk]))
            for i, p in zip(chunk, probs, strict=True):
                label = self.labels[int(p.argmax())]
                score = float(p.max())
                results[i] = (label, score)
                if "180" in label and score > self.thresh:
                    crops[i] = np.ascontiguousarray(crops[i][::-1, ::-1])
        return crops, results


class TextRecognizer:
    """Reads text lines: the CRNN/SVTR network's per-step class probabilities, decoded greedily.

    Args:
        model: `[N, 3, 48, W]` float32 to `[N, W / 8, C]` probabilities (softmaxed).
        character_list: the model's characters in class order, without the CTC blank and the
            trailing space (PP-OCR's dictionary file, one per line); by default read from the
            model's ONNX metadata (`model.metadata["character"]`).
        image_shape: `(3, 48, 320)`: lines are resized to height 48 and right-padded to the
            widest line of their batch (at least 320, the trained aspect ratio).
        batch_size: lines per forward pass, batched in order of aspect ratio.

    Calling it on a list of `[h, w, 3]` uint8 crops returns `[(text, score), ...]`, the score
    being the mean probability of the kept characters.

        recognizer = TextRecognizer(framework.onnx.load(rec_path))
        recognizer([line])  # [("Region-based segmentation", 0.99)]
    """

    def __init__(
        self,
        model: Layer,
        character_list: Sequence[str] | None = None,
        image_shape: tuple[int, int, int] = (3, 48, 320),
        batch_size: int = 6,
    ) -> None:
        if character_list is None:
            metadata = getattr(model, "metadata", None) or {}
            if "character" not in metadata:
                raise ValueError(
                    "the recognition model carries no character list in its metadata: "
                    "pass character_list (the dictionary's lines)"
                )
            character_list = metadata["character"].splitlines()
        self.model = model
        self.characters = ["blank", *character_list, " "]
        self.image_shape = image_shape
        self.batch_size = batch_size

    def batch_input(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """`[N, 3, 48, W]` float32: the crops resized to height 48, right-padded with zeros to
        the width of the widest (and at least `48 * 320 / 48`)."""
        channels, height, width = self.image_shape
        ratio = max([width / height] + [c.shape[1] / c.shape[0] for c in crops])
        full = int(height * ratio)
        batch = np.zeros((len(crops), channels, height, full), dtype=np.float32)
        for i, crop in enumerate(crops):
            h, w = crop.shape[:2]
            resized_w = min(full, int(math.ceil(height * w / h)))
            batch[i, :, :, :resized_w] = normalise_image(resize_linear(crop, resized_w, height))
        return batch

    def __call__(self, crops: Sequence[np.ndarray]) -> list[tuple[str, float]]:
        results: list[tuple[str, float]] = [("", 0.0)] * len(crops)
        order = np.argsort(np.array([c.shape[1] / c.shape[0] for c in crops]))
        for begin in range(0, len(crops), self.batch_size):
            chunk = order[begin : begin + self.batch_size]
            probs = _run(self.model, self.batch_input([crops[i] for i in chunk]))
            for i, decoded in zip(chunk, ctc_greedy_decode(probs, self.characters), strict=True):
                results[i] = decoded
        return results
