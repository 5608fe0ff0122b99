"""MNIST and Fashion-MNIST from their IDX files (`*-idx3-ubyte` images, `*-idx1-ubyte`
labels, gzipped or not), read from local files only."""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from framework.core.dtype import get_default_dtype
from framework.core.tensor import Tensor
from framework.io.dataset import Dataset
from framework.vision.datasets.image_backend import check_backend
from framework.vision.datasets.local_files import resolve_data_file

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


# The largest real IDX file, MNIST's training images, is 47 MB; a gzip member that unpacks to
# more than this is not MNIST (a gzip bomb would otherwise take all the memory).
MAX_IDX_BYTES = 256 * 2**20
_GUNZIP_CHUNK = 16 * 2**20


def read_idx(path: str, expected_magic: int, max_bytes: int = MAX_IDX_BYTES) -> np.ndarray:
    """An IDX file of unsigned bytes as an array shaped by its header."""
    with open(path, "rb") as f:
        raw = f.read(max_bytes + 1)
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, max_bytes, path)
    if len(raw) > max_bytes:
        raise ValueError(f"{os.path.basename(path)} is over {max_bytes:,} bytes: not an MNIST file")
    if len(raw) < 8:
        raise ValueError(f"{path} is too short to be an IDX file")
    magic = int.from_bytes(raw[:4], "big")
    if magic != expected_magic:
        kind = "images (idx3)" if expected_magic == _IMAGES_MAGIC else "labels (idx1)"
        raise ValueError(
            f"{path} is not an IDX file of {kind}: magic number {magic}, expected {expected_magic}"
        )
    ndim = magic & 0xFF
    header = 4 + 4 * ndim
    shape = tuple(int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    if len(raw) - header != int(np.prod(shape)):
        raise ValueError(
            f"{path}: the header announces shape {shape} but the file holds "
            f"{len(raw) - header} bytes of data"
        )
    return np.frombuffer(raw, np.uint8, offset=header).reshape(shape)


def _gunzip(data: bytes, max_bytes: int, path: str) -> bytearray:
    """``data`` decompressed a chunk at a time, refused as soon as it passes ``max_bytes``."""
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip framing
    out = bytearray()
    try:
        while data and len(out) <= max_bytes:
            out += inflater.decompress(data, _GUNZIP_CHUNK)
            data = inflater.unconsumed_tail
    except zlib.error as error:
        raise ValueError(f"{os.path.basename(path)} is not a readable gzip file: {error}") from None
    if len(out) > max_bytes:
        raise ValueError(
            f"{os.path.basename(path)} unpacks to more than {max_bytes:,} bytes: not an MNIST "
            "file (a gzip bomb?)"
        )
    return out


def _as_dtype(image: Any, dtype: str) -> Any:
    if isinstance(image, Tensor):
        return image if image.dtype == np.dtype(dtype) else Tensor(image._data.astype(dtype))
    return np.asarray(image).astype(dtype)


class MNIST(Dataset):
    """MNIST handwritten digits, as `paddle.vision.datasets.MNIST`: 28x28 grey images, labels 0-9.

    Args:
        image_path (str, optional): the images' IDX file, gzipped or not. When omitted (and
            `download` is True) it is looked for in `$FRAMEWORK_HOME/datasets/mnist/`;
            nothing is downloaded, a missing file is an error that says where to put it.
            Default: None.
        label_path (str, optional): the labels' IDX file, found likewise. Default: None.
        mode (str, optional): 'train' or 'test', which default files to look for.
            Default: 'train'.
        transform (callable, optional): applied to each image. Default: None.
        download (bool, optional): allow looking up the default location. Default: True.
        backend (str, optional): 'pil' (PIL 'L' images) or 'cv2' (float32 `[28, 28]`
            arrays); None is the image backend. Default: None.

    Returns:
        Dataset: sample i is `(image, label)`, `label` an int64 array of shape `[1]`, as in
        Paddle.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from framework.vision.datasets import MNIST
        >>> tmp = tempfile.TemporaryDirectory()  # two 28x28 images in IDX files, no download
        >>> images, labels = Path(tmp.name, 'images'), Path(tmp.name, 'labels')
        >>> header = np.array([2051, 2, 28, 28], '>i4').tobytes()
        >>> _ = images.write_bytes(header + np.zeros((2, 28, 28), 'uint8').tobytes())
        >>> _ = labels.write_bytes(np.array([2049, 2], '>i4').tobytes() + bytes([5, 0]))
        >>> ds = MNIST(image_path=str(images), label_path=str(labels), backend='cv2')
        >>> image, label = ds[0]
        >>> len(ds), image.shape, image.dtype, label
        (2, (28, 28), dtype('float32'), array([5]))
        >>> tmp.cleanup()
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    FILES = {
        ("train", "image"): "train-images-idx3-ubyte.gz",
        ("train", "label"): "train-labels-idx1-ubyte.gz",
        ("test", "image"): "t10k-images-idx3-ubyte.gz",
        ("test", "label"): "t10k-labels-idx1-ubyte.gz",
    }

    def __init__(
        self,
        image_path: str | None = None,
        label_path: str | None = None,
        mode: str = "train",
        transform: Callable[[Any], Any] | None = None,
        download: bool = True,
        backend: str | None = None,
    ) -> None:
        if mode.lower() not in ("train", "test"):
            raise ValueError(f"mode should be 'train' or 'test', but got {mode}")
        self.mode = mode.lower()
        self.backend = check_backend(backend)
        self.image_path = self._locate(image_path, "image", download)
        self.label_path = self._locate(label_path, "label", download)
        self.transform = transform
        self.images = read_idx(self.image_path, _IMAGES_MAGIC)
        self.labels = read_idx(self.label_path, _LABELS_MAGIC).astype(np.int64)
        if len(self.images) != len(self.labels):
            raise ValueError(
                f"{self.image_path} holds {len(self.images)} images but {self.label_path} "
                f"holds {len(self.labels)} labels"
            )
        self.dtype = get_default_dtype()

    def _locate(self, path: str | None, kind: str, download: bool) -> str:
        filename = self.FILES[(self.mode, kind)]
        return resolve_data_file(
            path,
            self.NAME,
            (filename, filename.removesuffix(".gz")),
            self.URL_PREFIX + filename,
            download,
            f"{kind}_path",
        )

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image = self.images[idx]
        label = self.labels[idx : idx + 1].copy()
        if self.backend == "pil":
            image = Image.fromarray(image)  # mode L
        else:
            image = image.astype(np.float32)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label
        return _as_dtype(image, self.dtype), label

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST, as `paddle.vision.datasets.FashionMNIST`: 28x28 grey images of 10 clothing
    classes, in MNIST's file format.

    Args:
        image_path (str, optional): the images' IDX file, gzipped or not. When omitted (and
            `download` is True) it is looked for in `$FRAMEWORK_HOME/datasets/mnist/`;
            nothing is downloaded, a missing file is an error that says where to put it.
            Default: None.
        label_path (str, optional): the labels' IDX file, found likewise. Default: None.
        mode (str, optional): 'train' or 'test', which default files to look for.
            Default: 'train'.
        transform (callable, optional): applied to each image. Default: None.
        download (bool, optional): allow looking up the default location. Default: True.
        backend (str, optional): 'pil' (PIL 'L' images) or 'cv2' (float32 `[28, 28]`
            arrays); None is the image backend. Default: None.

    Returns:
        Dataset: sample i is `(image, label)`, `label` an int64 array of shape `[1]`, as in
        Paddle.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from framework.vision.datasets import FashionMNIST
        >>> tmp = tempfile.TemporaryDirectory()  # two 28x28 images in IDX files, no download
        >>> images, labels = Path(tmp.name, 'images'), Path(tmp.name, 'labels')
        >>> header = np.array([2051, 2, 28, 28], '>i4').tobytes()
        >>> _ = images.write_bytes(header + np.zeros((2, 28, 28), 'uint8').tobytes())
        >>> _ = labels.write_bytes(np.array([2049, 2], '>i4').tobytes() + bytes([5, 0]))
        >>> ds = FashionMNIST(image_path=str(images), label_path=str(labels), backend='cv2')
        >>> image, label = ds[0]
        >>> len(ds), image.shape, image.dtype, label
        (2, (28, 28), dtype('float32'), array([5]))
        >>> tmp.cleanup()
    """

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
