"""The digits data set (scikit-learn's load_digits) upsampled to 28x28, split 80/20 stratified."""

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


@pytest.fixture(scope="session")
def digits() -> tuple[ArrayDataset, ArrayDataset]:
    datasets = pytest.importorskip("sklearn.datasets")
    model_selection = pytest.importorskip("sklearn.model_selection")
    from PIL import Image

    data = datasets.load_digits()
    # Digits hold 0..16; scaled to 0..255 (0..16 * 16 would wrap 256 to 0 in uint8).
    pixels = (data.images * 255 / 16).astype(np.uint8)
    images = np.stack(
        [np.asarray(Image.fromarray(img).resize((28, 28)), np.float32) for img in pixels]
    )
    images = (images / 255.0 - 0.5) / 0.5
    images = images[:, None, :, :].astype(np.float32)
    labels = data.target.astype(np.int64)[:, None]
    train_x, test_x, train_y, test_y = model_selection.train_test_split(
        images, labels, test_size=0.2, stratify=data.target, random_state=0
    )
    return ArrayDataset(train_x, train_y), ArrayDataset(test_x, test_y)
