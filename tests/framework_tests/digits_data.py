"""scikit-learn's digits as framework data sets: upsampled, scaled to [-1, 1], split 80/20
stratified (seed 0). Shared by the training-toolkit and INT8 tests."""

from __future__ import annotations

import numpy as np
import pytest

from framework.io import Dataset


class ArrayDataset(Dataset):
    def __init__(self, images: np.ndarray, labels: np.ndarray) -> None:
        self.images = images
        self.labels = labels

    def __getitem__(self, index: int):
        return self.images[index], self.labels[index]

    def __len__(self) -> int:
        return len(self.labels)


def digits_split(size: int = 28, channels: int = 1) -> tuple[ArrayDataset, ArrayDataset]:
    """(train, test): `[channels, size, size]` float32 images and `[1]` int64 labels."""
    datasets = pytest.importorskip("sklearn.datasets")
    model_selection = pytest.importorskip("sklearn.model_selection")
    from PIL import Image

    data = datasets.load_digits()
    # Digits hold 0..16; scaled to 0..255 (0..16 * 16 would wrap 256 to 0 in uint8).
    pixels = (data.images * 255 / 16).astype(np.uint8)
    images = np.stack(
        [np.asarray(Image.fromarray(img).resize((size, size)), np.float32) for img in pixels]
    )
    images = (images / 255.0 - 0.5) / 0.5
    images = np.repeat(images[:, None], channels, axis=1).astype(np.float32)
    labels = data.target.astype(np.int64)[:, None]
    train_x, test_x, train_y, test_y = model_selection.train_test_split(
        images, labels, test_size=0.2, stratify=data.target, random_state=0
    )
    return ArrayDataset(train_x, train_y), ArrayDataset(test_x, test_y)
