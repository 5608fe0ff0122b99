"""CIFAR-10 and CIFAR-100 from the "python version" archives (`cifar-10-python.tar.gz`,
`cifar-100-python.tar.gz`), read from local files only.

The batches inside are pickles; they are read with `restricted_pickle`, which admits only
dicts, lists, bytes, str, numbers and NumPy arrays, so a crafted archive cannot run code.
"""

from __future__ import annotations

import tarfile
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from framework.core.dtype import get_default_dtype
from framework.io.dataset import Dataset
from framework.vision.datasets.image_backend import check_backend
from framework.vision.datasets.local_files import resolve_data_file
from framework.vision.datasets.mnist import _as_dtype
from framework.vision.datasets.restricted_pickle import restricted_load

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


class Cifar10(Dataset):
    """CIFAR-10: 32x32 colour images in 10 classes (50000 train, 10000 test).

    Args:
        data_file: the archive. When omitted (and `download` is True) it is looked for in
            `$FRAMEWORK_HOME/datasets/cifar/`; nothing is downloaded, a missing file is an
            error that says where to put it.
        mode: 'train' or 'test'.
        transform: applied to each image.
        download: allow looking up the default location.
        backend: 'pil' (PIL RGB images) or 'cv2' (HWC uint8 arrays, float32 on return);
            default: the image backend.

    Sample i is `(image, label)` with `label` a 0-d int64 array, as in Paddle.
    """

    FILENAME = "cifar-10-python.tar.gz"
    MEMBER_FLAGS = {"train": "data_batch", "test": "test_batch"}
    LABEL_KEYS = ("labels",)

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        transform: Callable[[Any], Any] | None = None,
        download: bool = True,
        backend: str | None = None,
    ) -> None:
        if mode.lower() not in ("train", "test"):
            raise ValueError(f"mode should be 'train' or 'test', but got {mode}")
        self.mode = mode.lower()
        self.backend = check_backend(backend)
        self.flag = self.MEMBER_FLAGS[self.mode]
        self.data_file = resolve_data_file(
            data_file, "cifar", (self.FILENAME,), URL_PREFIX + self.FILENAME, download, "data_file"
        )
        self.transform = transform
        self.data, self.labels = self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self) -> tuple[np.ndarray, np.ndarray]:
        images, labels = [], []
        with tarfile.open(self.data_file, mode="r") as archive:
            members = sorted(
                (m for m in archive.getmembers() if m.isfile() and self.flag in m.name),
                key=lambda m: m.name,
            )
            for member in members:
                source = f"{self.data_file}:{member.name}"
                batch = _str_keys(restricted_load(archive.extractfile(member), "bytes", source))
                label_key = next((k for k in self.LABEL_KEYS if k in batch), None)
                if "data" not in batch or label_key is None:
                    raise ValueError(
                        f"{source} is not a CIFAR batch: it has keys {sorted(batch)}, expected "
                        f"'data' and one of {list(self.LABEL_KEYS)}"
                    )
                data = np.asarray(batch["data"], dtype=np.uint8).reshape(-1, 3, 32, 32)
                images.append(data)
                labels.append(np.asarray(batch[label_key], dtype=np.int64))
        if not images:
            raise ValueError(f"{self.data_file} holds no '{self.flag}' batches")
        # stored NCHW; kept HWC, the layout images are handed to transforms in
        data = np.ascontiguousarray(np.concatenate(images).transpose(0, 2, 3, 1))
        return data, np.concatenate(labels)

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image = self.data[idx]
        label = np.array(self.labels[idx], dtype=np.int64)
        if self.backend == "pil":
            image = Image.fromarray(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label
        return _as_dtype(image, self.dtype), label

    def __len__(self) -> int:
        return len(self.labels)


class Cifar100(Cifar10):
    """CIFAR-100: 32x32 colour images in 100 fine classes (the labels used here)."""

    FILENAME = "cifar-100-python.tar.gz"
    MEMBER_FLAGS = {"train": "train", "test": "test"}
    LABEL_KEYS = ("fine_labels",)


def _str_keys(batch: Any) -> dict:
    if not isinstance(batch, dict):
        raise ValueError(f"a CIFAR batch should be a dict, got {type(batch).__name__}")
    return {k.decode("latin1") if isinstance(k, bytes) else k: v for k, v in batch.items()}
