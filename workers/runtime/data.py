"""A dataset version's images as framework datasets: decoded once, cached, then augmented.

Images are decoded to `size`×`size` uint8 arrays with the network's channels (grey or RGB).
A decoded split is kept in storage next to the jobs (a version never changes, so neither does
its cache) and memory-mapped by every later job; a split too large to hold in memory decodes
image by image instead. A file that cannot be read raises SampleError naming the sample.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from django.core.files.storage import default_storage
from PIL import Image, UnidentifiedImageError

from framework.io import Dataset
from training.conf import knob
from training.services.version_data import Example
from workers.runtime.failures import SampleError

# Photos at least this large are cropped as photos are (a random part of the image, resized);
# smaller ones (digits, CIFAR-sized tiles) by a shift within padding, which keeps them whole.
PHOTO_CROP_MIN_SIZE = 64


def decode(example: Example, channels: int, size: int) -> np.ndarray:
    """One image as a uint8 array [size, size, channels]."""
    try:
        with default_storage.open(example.file, "rb") as stream:
            image = Image.open(stream)
            image.load()
            image = image.convert("L" if channels == 1 else "RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError) as error:
        raise SampleError(example.sample_id, example.name, error) from error
    image = image.resize((size, size), Image.Resampling.BILINEAR)
    array = np.asarray(image, dtype=np.uint8)
    return array[:, :, None] if channels == 1 else array


def _cache_path(version_id: int, split: str, channels: int, size: int) -> Path:
    name = f"training/cache/version-{version_id}-{split}-{channels}x{size}x{size}.npy"
    return Path(default_storage.path(name))


def load_split(
    version_id: int, split: str, examples: list[Example], channels: int, size: int
) -> np.ndarray | None:
    """All of a split's images [N, size, size, channels] (memory-mapped from the cache), or
    None when they are too many to hold: the dataset then decodes them one at a time."""
    if len(examples) * size * size * channels > knob("TRAINING_PRELOAD_MAX_BYTES"):
        return None
    path = _cache_path(version_id, split, channels, size)
    if path.is_file():
        cached = np.load(path, mmap_mode="r")
        if cached.shape[0] == len(examples):
            return cached
    images = np.empty((len(examples), size, size, channels), np.uint8)
    for index, example in enumerate(examples):
        images[index] = decode(example, channels, size)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(partial, "wb") as out:
        np.save(out, images)
    os.replace(partial, path)
    return images


def normalisation(config: dict[str, Any], channels: int) -> tuple[np.ndarray, np.ndarray]:
    """The job's per-channel mean and std (training.services.jobs.starting_normalisation);
    older jobs without one get the usual grey or ImageNet statistics."""
    from framework.inference.package import Preprocessing

    recorded = config.get("normalize") or {}
    usual = Preprocessing.grey(1) if channels == 1 else Preprocessing.rgb(1)
    mean = recorded.get("mean") or usual.mean
    std = recorded.get("std") or usual.std
    return np.array(mean, np.float32), np.array(std, np.float32)


def augmentation(config: dict[str, Any], size: int, channels: int = 3) -> Any:
    """The random transforms the config asks for (None: none), on HWC uint8 arrays."""
    from framework.vision import transforms as T

    steps: list[Any] = []
    if config.get("augment_crop"):
        if channels == 3 and size >= PHOTO_CROP_MIN_SIZE:
            steps.append(T.RandomResizedCrop(size, scale=(0.5, 1.0)))
        else:
            steps.append(T.RandomCrop(size, padding=max(2, size // 8)))
    if config.get("augment_flip"):
        steps.append(T.RandomHorizontalFlip())
    if config.get("augment_color"):
        steps.append(T.ColorJitter(0.2, 0.2, 0.2))
    return T.Compose(steps) if steps else None


def multi_hot(examples: list[Example], num_classes: int) -> np.ndarray:
    """float32 [N, num_classes] targets: 1 for each class of the example, else 0."""
    targets = np.zeros((len(examples), num_classes), np.float32)
    for row, example in enumerate(examples):
        targets[row, list(example.labels)] = 1.0
    return targets


class ImageDataset(Dataset):
    """(float32 [C, H, W] normalised image, label) pairs for framework.Model: the label is
    int64 [1] (the class), or a float32 [C] multi-hot row when `num_classes` is given for a
    multi-label dataset."""

    def __init__(
        self,
        examples: list[Example],
        images: np.ndarray | None,
        channels: int,
        size: int,
        transform: Any = None,
        multi_label_classes: int | None = None,
        *,
        mean: Any = None,
        std: Any = None,
    ) -> None:
        self.examples = examples
        self.images = images
        self.channels, self.size = channels, size
        self.transform = transform
        if multi_label_classes is None:
            self.labels = np.array([[e.label] for e in examples], dtype=np.int64)
        else:
            self.labels = multi_hot(examples, multi_label_classes)
        usual_mean, usual_std = normalisation({}, channels)
        self.mean = usual_mean if mean is None else np.asarray(mean, np.float32)
        self.std = usual_std if std is None else np.asarray(std, np.float32)

    def __len__(self) -> int:
        return len(self.examples)

    def raw(self, index: int) -> np.ndarray:
        if self.images is not None:
            return np.asarray(self.images[index])
        return decode(self.examples[index], self.channels, self.size)

    def normalise(self, image: np.ndarray) -> np.ndarray:
        scaled = (image.astype(np.float32) / np.float32(255.0) - self.mean) / self.std
        return np.ascontiguousarray(scaled.transpose(2, 0, 1))

    def __getitem__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        image = self.raw(index)
        if self.transform is not None:
            image = self.transform(image)
        return self.normalise(image), self.labels[index]

    def batch(self, indices: list[int] | np.ndarray) -> np.ndarray:
        """Normalised images [N, C, H, W] without augmentation (for evaluation and probes)."""
        return np.stack([self.normalise(self.raw(int(i))) for i in indices])
