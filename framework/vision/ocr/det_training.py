"""Fine-tuning a DB text detector on images and their text polygons, as PaddleOCR fine-tunes
its PP-OCR detection models from their released weights.

The PP-OCRv4 detector ships as an inference graph: its DB head ends in the sigmoid of the
probability ("shrink") map, and the threshold branch PaddleOCR trains beside it (DBHead's
`thresh` stack, used in training only) is not in the file. This trainer trains the
probability map alone, with the two DBLoss terms that read it: balanced BCE with hard negative
mining (`alpha` times, as DBLoss weighs it) and dice against the shrink map. Inference
thresholds that map at `thresh` (DBPostProcess), so these are the terms that move what the
detector finds; a threshold head grafted onto the last feature map would start from random
weights and feeds nothing at inference. (That alternative has not been measured yet.)

Batch norms: paddle2onnx folds the backbone's batch norms into its convolutions, so only the
head's three remain, and the imported graph applies them with their running statistics in
training too (frozen statistics, trainable scale and shift): the batches of a fine-tuning run
are small and the statistics of the released weights are the better estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.nn.layer.layers import Layer
from framework.vision.ocr.db_labels import make_db_labels
from framework.vision.ocr.db_loss import balanced_bce_loss, db_dice_loss
from framework.vision.ocr.det_augment import DetectionAugment, augment_detection_sample
from framework.vision.ocr.geometry import polygon_area
from framework.vision.ocr.metrics import TextDetectionMetrics, text_detection_metrics
from framework.vision.ocr.predictors import TextDetector, normalise_image


def check_text_polygons(
    polygons: Sequence[Any], height: int, width: int, image_index: int = 0
) -> list[np.ndarray]:
    """The polygons of one `height x width` image as `[K, 2]` float64 arrays, or ValueError
    naming the image and the polygon: fewer than 3 points, non-finite coordinates, no area
    (under one square pixel), or lying wholly outside the image."""
    checked = []
    for index, polygon in enumerate(polygons):
        where = f"image {image_index}, polygon {index}"
        points = np.asarray(polygon, dtype=np.float64)
        if points.ndim != 2 or points.shape[1] != 2 or len(points) < 3:
            raise ValueError(
                f"{where}: a text polygon is [K >= 3, 2] (x, y) points, got shape "
                f"{list(points.shape)}"
            )
        if not np.isfinite(points).all():
            raise ValueError(f"{where}: coordinates must be finite numbers")
        if polygon_area(points) < 1:
            raise ValueError(f"{where} encloses no area (its points are on one line or repeat)")
        low, high = points.min(axis=0), points.max(axis=0)
        if high[0] < 0 or high[1] < 0 or low[0] > width - 1 or low[1] > height - 1:
            raise ValueError(
                f"{where} lies wholly outside the {width}x{height} image "
                f"(x {low[0]:g} to {high[0]:g}, y {low[1]:g} to {high[1]:g})"
            )
        checked.append(points)
    return checked


def probability_logits_name(model: Layer) -> str | None:
    """The ONNX name of the logits under the network's final sigmoid (the DB head's
    probability map before its activation), or None when the model is no imported ONNX
    graph ending in a Sigmoid."""
    nodes = getattr(model, "nodes", None)
    outputs = getattr(model, "output_names", None)
    if not nodes or not outputs or len(outputs) != 1:
        return None
    last = next((n for n in reversed(nodes) if outputs[0] in n.outputs), None)
    return last.inputs[0] if last is not None and last.op_type == "Sigmoid" else None


class DetectorTrainer:
    """Fine-tunes a DB detection network (`[N, 3, H, W]` float32 in, `[N, 1, H, W]` text
    probabilities out, e.g. `framework.onnx.load("ch_PP-OCRv4_det_infer.onnx")`) in place.

    Args:
        model: the network; its parameters are trained in place.
        learning_rate: for the default optimizer, Adam (PaddleOCR's recipe; it trains from
            scratch at 1e-3 on 8 GPUs, a fine-tuning run wants a rate well below that).
        optimizer: a framework optimizer over `model.parameters()` instead.
        augment: the training augmentation (`DetectionAugment`: rotation, scale, crop between
            text, resize to `size x size`, colour jitter); `size` must be a multiple of 32.
        alpha: weight of the balanced BCE term (DBLoss's default).
        ohem_ratio: hard negatives kept per positive pixel.
        shrink_ratio, min_text_size: the shrink map's (`make_db_labels`).
        seed: of the augmentation's random draws.
        detector_options: for `evaluate`, passed to `TextDetector` (`limit_side_len`,
            `limit_type`, `thresh`, `box_thresh`, `unclip_ratio`); its defaults are the
            shipped pipeline's, so `evaluate` scores what deployment will find.

    Images are `[H, W, 3]` uint8 BGR (PP-OCR's order, as `TextDetector` takes them); a
    polygon is `[K >= 3, 2]` `(x, y)` image pixels; `ignore_list` marks polygons per image
    ("###", unreadable text) that count neither as text nor as background.

        trainer = DetectorTrainer(framework.onnx.load(det_path), learning_rate=1e-4,
                                  augment=DetectionAugment(size=640))
        for images, polygons in batches:
            parts = trainer.train_step(images, polygons)   # {"loss": 1.2, ...}
        trainer.evaluate(held_out_images, held_out_polygons).hmean
        framework.save(trainer.state_dict(), "det.pdparams")
    """

    def __init__(
        self,
        model: Layer,
        learning_rate: float = 1e-4,
        optimizer: Any = None,
        augment: DetectionAugment | None = None,
        alpha: float = 5.0,
        ohem_ratio: float = 3.0,
        shrink_ratio: float = 0.4,
        min_text_size: int = 8,
        seed: int = 0,
        **detector_options: Any,
    ) -> None:
        import framework

        self.augment = augment or DetectionAugment()
        if self.augment.size <= 0 or self.augment.size % 32:
            raise ValueError(
                f"the training size must be a positive multiple of 32 (the DB network halves "
                f"it five times), got {self.augment.size}"
            )
        self.model = model
        self.optimizer = optimizer or framework.optimizer.Adam(
            learning_rate=learning_rate, parameters=model.parameters()
        )
        self.alpha = alpha
        self.ohem_ratio = ohem_ratio
        self.shrink_ratio = shrink_ratio
        self.min_text_size = min_text_size
        self.rng = np.random.default_rng(seed)
        self.logits_name = probability_logits_name(model)
        self.detector = TextDetector(model, **detector_options)

    # --- batches ---------------------------------------------------------------------------------
    def build_batch(
        self,
        images: Sequence[np.ndarray],
        polygons_list: Sequence[Sequence[Any]],
        ignore_list: Sequence[Sequence[bool]] | None = None,
    ) -> dict[str, np.ndarray]:
        """Augments each sample and makes its targets: "image" `[N, 3, S, S]` float32 (the
        detector's normalisation) and "shrink_map", "shrink_mask" `[N, S, S]` float32
        (`S` = `augment.size`)."""
        if len(images) == 0:
            raise ValueError("a training batch needs at least one image")
        if len(polygons_list) != len(images):
            raise ValueError(f"{len(images)} images for {len(polygons_list)} polygon lists")
        if ignore_list is None:
            ignore_list = [[False] * len(p) for p in polygons_list]
        if len(ignore_list) != len(images):
            raise ValueError(f"{len(images)} images for {len(ignore_list)} ignore lists")
        size = self.augment.size
        batch = {
            "image": np.zeros((len(images), 3, size, size), dtype=np.float32),
            "shrink_map": np.zeros((len(images), size, size), dtype=np.float32),
            "shrink_mask": np.zeros((len(images), size, size), dtype=np.float32),
        }
        for i, (image, polygons, ignore) in enumerate(
            zip(images, polygons_list, ignore_list, strict=True)
        ):
            image = np.asarray(image)
            if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
                raise ValueError(
                    f"image {i}: expected [H, W, 3] uint8, got {list(image.shape)} {image.dtype}"
                )
            checked = check_text_polygons(polygons, image.shape[0], image.shape[1], i)
            if len(ignore) != len(checked):
                raise ValueError(
                    f"image {i}: {len(ignore)} ignore tags for {len(checked)} polygons"
                )
            out, kept, kept_ignore = augment_detection_sample(
                image, checked, ignore, self.augment, self.rng
            )
            labels = make_db_labels(
                kept,
                size,
                size,
                kept_ignore,
                shrink_ratio=self.shrink_ratio,
                min_text_size=self.min_text_size,
            )
            batch["image"][i] = normalise_image(out)
            batch["shrink_map"][i] = labels["shrink_map"]
            batch["shrink_mask"][i] = labels["shrink_mask"]
        return batch

    # --- training --------------------------------------------------------------------------------
    def loss(self, batch: dict[str, np.ndarray]) -> dict[str, Any]:
        """The loss of a built batch: a dict of 0-D tensors "loss" = "loss_shrink_maps"
        (alpha times the balanced BCE) + "loss_binary_maps" (dice)."""
        import framework

        image = framework.to_tensor(batch["image"])
        if self.logits_name is None:
            probs = self.model(image)
            logits = None
        else:  # the stable BCE reads the logits under the graph's final sigmoid
            logits = self.model.forward_values(image, names=[self.logits_name])[0]
            probs = framework.nn.functional.sigmoid(logits)
        if probs.ndim != 4 or probs.shape[1] != 1:
            raise ValueError(
                f"the detector must output [N, 1, H, W] probabilities, got {list(probs.shape)}"
            )
        prob = probs[:, 0]
        gt = framework.to_tensor(batch["shrink_map"])
        mask = framework.to_tensor(batch["shrink_mask"])
        if list(prob.shape) != list(gt.shape):
            raise ValueError(
                f"the detector's map is {list(prob.shape)[1:]} for {list(gt.shape)[1:]} inputs: "
                "it must keep the input's size"
            )
        if logits is None:
            bce = balanced_bce_loss(prob, gt, mask, self.ohem_ratio)
        else:
            bce = balanced_bce_loss(logits[:, 0], gt, mask, self.ohem_ratio, from_logits=True)
        shrink = self.alpha * bce
        binary = db_dice_loss(prob, gt, mask)
        return {"loss": shrink + binary, "loss_shrink_maps": shrink, "loss_binary_maps": binary}

    def train_step(
        self,
        images: Sequence[np.ndarray],
        polygons_list: Sequence[Sequence[Any]],
        ignore_list: Sequence[Sequence[bool]] | None = None,
    ) -> dict[str, float]:
        """One optimizer step on the batch (augmented afresh each call); returns the loss and
        its parts as floats. A non-finite loss raises FloatingPointError before any update."""
        batch = self.build_batch(images, polygons_list, ignore_list)
        self.model.train()
        try:
            parts = self.loss(batch)
            total = float(parts["loss"].numpy())
            if not np.isfinite(total):
                raise FloatingPointError(f"the detection loss is {total}: lower the learning rate")
            parts["loss"].backward()
            self.optimizer.step()
        finally:
            self.optimizer.clear_grad()
            self.model.eval()
        return {name: float(value.numpy()) for name, value in parts.items()}

    # --- evaluation ------------------------------------------------------------------------------
    def evaluate(
        self,
        images: Sequence[np.ndarray],
        polygons_list: Sequence[Sequence[Any]],
        ignore_list: Sequence[Sequence[bool]] | None = None,
    ) -> TextDetectionMetrics:
        """Precision, recall and hmean at IoU 0.5 (`text_detection_metrics`) of what the
        detector (`TextDetector` with `DBPostProcess`) finds on the images, unaugmented."""
        if len(polygons_list) != len(images):
            raise ValueError(f"{len(images)} images for {len(polygons_list)} polygon lists")
        if ignore_list is None:
            ignore_list = [[False] * len(p) for p in polygons_list]
        truth = []
        for i, (image, polygons, ignore) in enumerate(
            zip(images, polygons_list, ignore_list, strict=True)
        ):
            checked = check_text_polygons(polygons, image.shape[0], image.shape[1], i)
            truth.append(
                [{"points": p, "ignore": bool(t)} for p, t in zip(checked, ignore, strict=True)]
            )
        self.model.eval()
        found = [list(self.detector(np.asarray(image))) for image in images]
        return text_detection_metrics(truth, found)

    def state_dict(self) -> dict[str, Any]:
        """The network's weights (under their ONNX names for an imported model)."""
        return self.model.state_dict()
