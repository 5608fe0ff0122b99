"""A detection version's images and boxes as a detector trains and is evaluated on them.

Images are decoded in colour and shrunk once so that their long side is at most
`WORKING_SCALE` times the network's input (a random crop then still has pixels to spare);
their boxes shrink with them. Decoded images stay in memory while the split fits in
TRAINING_PRELOAD_MAX_BYTES, else each is decoded when it is used.

Training samples go through the box-carrying transforms the config asks for
(framework.vision.transforms.detection: a crop that keeps most of each object, a zoom-out, a
flip, colour changes), then are letterboxed to the input size, or, with multi-scale training,
to a size drawn per batch around it. Evaluation letterboxes only, and `to_image_pixels` maps
predicted boxes back to the stored image's pixels, where the version's boxes are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from django.core.files.storage import default_storage
from PIL import Image, UnidentifiedImageError

from training.conf import knob
from training.services.version_data import DetectionExample
from workers.runtime.failures import SampleError

WORKING_SCALE = 2  # decoded images keep at most this many times the input size
MULTI_SCALE_STEPS = (-64, -32, 0, 32, 64)  # multi-scale sizes around the input size
STRIDE = 32  # a detector's input sides are multiples of its largest stride
CROP_OVERLAPS = (0.3, 0.5, 0.7, 0.9)  # a crop keeps at least this IoU with some object
EXPAND_RATIO = 2.0
COLOUR = 0.3  # brightness, contrast and saturation within ±30 %
HUE = 0.03


def decode(example: DetectionExample, max_side: int) -> tuple[np.ndarray, float]:
    """The stored image in RGB, shrunk so its long side is at most `max_side`: uint8 [H, W,
    3] and the factor it was shrunk by (1 when it was small enough)."""
    try:
        with default_storage.open(example.file, "rb") as stream:
            image = Image.open(stream)
            image.load()
            image = image.convert("RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as error:
        raise SampleError(example.sample_id, example.name, error) from error
    factor = min(1.0, max_side / max(image.size))
    if factor < 1.0:
        size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
        image = image.resize(size, Image.Resampling.BILINEAR)
    # The factor the pixels really moved by (rounding the size changes it a little).
    return np.asarray(image, dtype=np.uint8), image.width / example.width


class DetectionImages:
    """The split's samples `{"image", "boxes", "labels"}` in decoded-image pixels."""

    def __init__(self, examples: Sequence[DetectionExample], input_size: int) -> None:
        self.examples = list(examples)
        self.max_side = WORKING_SCALE * input_size
        budget = knob("TRAINING_PRELOAD_MAX_BYTES")
        self.keep = len(self.examples) * self.max_side**2 * 3 <= budget
        self._decoded: dict[int, tuple[np.ndarray, float]] = {}

    def __len__(self) -> int:
        return len(self.examples)

    def decoded(self, index: int) -> tuple[np.ndarray, float]:
        if index in self._decoded:
            return self._decoded[index]
        pair = decode(self.examples[index], self.max_side)
        if self.keep:
            self._decoded[index] = pair
        return pair

    def sample(self, index: int) -> dict[str, Any]:
        image, factor = self.decoded(index)
        example = self.examples[index]
        return {
            "image": image,
            "boxes": (example.boxes * np.float32(factor)).astype(np.float32),
            "labels": example.classes.astype(np.int64),
        }


def augmentation(config: dict[str, Any]) -> Any:
    """The random box-carrying transforms the config asks for (None: none)."""
    from framework.vision.transforms import detection as T

    steps: list[Any] = []
    if config.get("augment_crop"):
        steps.append(T.RandomCropWithIoU(min_ious=CROP_OVERLAPS, min_scale=0.3))
    if config.get("augment_expand"):
        steps.append(T.RandomExpand(ratio=EXPAND_RATIO, prob=0.5))
    if config.get("augment_flip"):
        steps.append(T.RandomFlip())
    if config.get("augment_color"):
        steps.append(T.ColorJitter(COLOUR, COLOUR, COLOUR, HUE, prob=0.5))
    return T.Compose(steps) if steps else None


def training_sizes(config: dict[str, Any]) -> list[int]:
    """The input sides batches are drawn at: the input size, or with multi-scale training the
    multiples of the stride around it."""
    size = int(config["input_size"])
    if not config.get("multi_scale"):
        return [size]
    return [size + step for step in MULTI_SCALE_STEPS if size + step >= 2 * STRIDE]


def training_batch(
    images: DetectionImages,
    indices: Sequence[int],
    transform: Any,
    sizes: Sequence[int],
    mean: np.ndarray,
    std: np.ndarray,
) -> tuple[np.ndarray, list[dict[str, np.ndarray]]]:
    """Normalised images [N, 3, S, S] at a size drawn from `sizes`, and their targets."""
    from framework.vision.transforms.detection import batch_multiscale

    samples = [images.sample(int(i)) for i in indices]
    if transform is not None:
        samples = [transform(s) for s in samples]
    return batch_multiscale(samples, list(sizes), mean=mean, std=std, letterbox=True)


def evaluation_batch(
    images: DetectionImages, indices: Sequence[int], size: int, mean: np.ndarray, std: np.ndarray
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Letterboxed, normalised images [N, 3, size, size] and each one's letterbox record."""
    from framework.vision.transforms.detection import Letterbox, to_batch

    boxed = [Letterbox(size)(images.sample(int(i))) for i in indices]
    batch, _ = to_batch(boxed, mean, std)
    return batch, boxed


def to_image_pixels(
    images: DetectionImages, index: int, boxes: np.ndarray, letterboxed: dict[str, Any]
) -> np.ndarray:
    """Boxes [K, 4] predicted on a letterboxed input, in the stored image's pixels."""
    from framework.vision.transforms.detection import boxes_to_original

    _, factor = images.decoded(index)
    return (boxes_to_original(np.asarray(boxes).reshape(-1, 4), letterboxed) / factor).astype(
        np.float32
    )
