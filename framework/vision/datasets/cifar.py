"""CIFAR-10 and CIFAR-100 from the "python version" archives (`cifar-10-python.tar.gz`,
`cifar-100-python.tar.gz`), read from local files only.

The batches inside are pickles; they are read with `restricted_pickle`, which admits only
dicts, lists, bytes, str, numbers and NumPy arrays, so a crafted archive cannot run code, and
charges what a batch allocates to a budget sized by the batch. The archive itself is read
through `bounded_tar`, so a member claiming, or unpacking to, far more than a CIFAR batch
holds is refused before it is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from framework.core.dtype import get_default_dtype
from framework.interop.safe_unpickle import brief_repr, display_name
from framework.io.dataset import Dataset
from framework.vision.datasets.bounded_tar import TarLimits, read_members
from framework.vision.datasets.image_backend import check_backend
from framework.vision.datasets.local_files import resolve_data_file
from framework.vision.datasets.mnist import _as_dtype
from framework.vision.datasets.restricted_pickle import restricted_load

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


class Cifar10(Dataset):
    """CIFAR-10, as `paddle.vision.datasets.Cifar10`: 32x32 colour images in 10 classes.

    Args:
        data_file (str, optional): the `cifar-10-python.tar.gz` archive. When omitted (and
            `download` is True) it is looked for in `$FRAMEWORK_HOME/datasets/cifar/`;
            nothing is downloaded, a missing file is an error that says where to put it.
            Default: None.
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        transform (callable, optional): applied to each image. Default: None.
        download (bool, optional): allow looking up the default location. Default: True.
        backend (str, optional): 'pil' (PIL RGB images) or 'cv2' (HWC arrays, float32 on
            return); None is the image backend. Default: None.

    Returns:
        Dataset: sample i is `(image, label)`, `label` a 0-d int64 array, as in Paddle. The
        batches are read with a restricted unpickler that admits arrays only.

    Examples:
        >>> import io, pickle, tarfile, tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from framework.vision.datasets import Cifar10
        >>> tmp = tempfile.TemporaryDirectory()  # a two-image archive, no download
        >>> batch = pickle.dumps({b'data': np.zeros((2, 3072), 'uint8'), b'labels': [3, 7]})
        >>> archive = Path(tmp.name, 'cifar-10-python.tar.gz')
        >>> with tarfile.open(archive, 'w:gz') as tar:
        ...     member = tarfile.TarInfo('cifar-10-batches-py/data_batch_1')
        ...     member.size = len(batch)
        ...     tar.addfile(member, io.BytesIO(batch))
        >>> ds = Cifar10(data_file=str(archive), mode='train', backend='cv2')
        >>> image, label = ds[1]
        >>> len(ds), image.shape, image.dtype, label
        (2, (32, 32, 3), dtype('float32'), array(7))
        >>> tmp.cleanup()
    """

    FILENAME = "cifar-10-python.tar.gz"
    MEMBER_FLAGS = {"train": "data_batch", "test": "test_batch"}
    LABEL_KEYS = ("labels",)
    # The largest real batch, CIFAR-100's 'train', is 155 MB; either archive unpacks to under
    # 200 MB, in under ten members.
    ARCHIVE_LIMITS = TarLimits(
        member_bytes=256 * 2**20, total_bytes=2**30, members=1000, member_kind="a CIFAR batch"
    )

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
        archive = repr(display_name(self.data_file))
        batches = []
        members = read_members(self.data_file, lambda name: self.flag in name, self.ARCHIVE_LIMITS)
        for name, contents in members:
            where = f"{name!r} in {archive}"
            batches.append(
                (name, self._read_batch(restricted_load(contents, "bytes", where), where))
            )
            contents.close()  # free the member's copy now: the batch's arrays hold their own
        if not batches:
            raise ValueError(f"{archive} holds no '{self.flag}' batches")
        batches.sort(key=lambda batch: batch[0])  # stable: members of one name keep their order
        images = np.concatenate([images for _, (images, _) in batches])
        labels = np.concatenate([labels for _, (_, labels) in batches])
        # stored NCHW; kept HWC, the layout images are handed to transforms in
        return np.ascontiguousarray(images.transpose(0, 2, 3, 1)), labels

    def _read_batch(self, batch: Any, where: str) -> tuple[np.ndarray, np.ndarray]:
        """The images (N, 3, 32, 32) uint8 and labels (N,) int64 of one unpickled batch."""
        batch = _str_keys(batch, where)
        label_key = next((k for k in self.LABEL_KEYS if k in batch), None)
        if "data" not in batch or label_key is None:
            keys = brief_repr(sorted(map(str, batch)))
            raise ValueError(
                f"{where} is not a CIFAR batch: it has keys {keys}, expected 'data' and one of "
                f"{list(self.LABEL_KEYS)}"
            )
        try:
            data = np.asarray(batch["data"], dtype=np.uint8)
            labels = np.asarray(batch[label_key], dtype=np.int64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(
                f"{where}: its 'data' or '{label_key}' is not an array: {exc}"
            ) from None
        if data.ndim == 0 or data.size % 3072:
            raise ValueError(
                f"{where}: its 'data' holds {data.size} values, not rows of 3072 (3 x 32 x 32)"
            )
        if labels.shape != (data.size // 3072,):
            raise ValueError(
                f"{where} has {data.size // 3072} images but {labels.size} labels ('{label_key}')"
            )
        return data.reshape(-1, 3, 32, 32), labels

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
    """CIFAR-100, as `paddle.vision.datasets.Cifar100`: 32x32 colour images in 100 fine classes.

    Args:
        data_file (str, optional): the `cifar-100-python.tar.gz` archive. When omitted (and
            `download` is True) it is looked for in `$FRAMEWORK_HOME/datasets/cifar/`;
            nothing is downloaded, a missing file is an error that says where to put it.
            Default: None.
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        transform (callable, optional): applied to each image. Default: None.
        download (bool, optional): allow looking up the default location. Default: True.
        backend (str, optional): 'pil' (PIL RGB images) or 'cv2' (HWC arrays, float32 on
            return); None is the image backend. Default: None.

    Returns:
        Dataset: sample i is `(image, label)`, `label` a 0-d int64 array, as in Paddle. The
        batches are read with a restricted unpickler that admits arrays only.

    Examples:
        >>> import io, pickle, tarfile, tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from framework.vision.datasets import Cifar100
        >>> tmp = tempfile.TemporaryDirectory()  # a two-image archive, no download
        >>> batch = pickle.dumps({b'data': np.zeros((2, 3072), 'uint8'), b'fine_labels': [3, 7]})
        >>> archive = Path(tmp.name, 'cifar-100-python.tar.gz')
        >>> with tarfile.open(archive, 'w:gz') as tar:
        ...     member = tarfile.TarInfo('cifar-100-python/train')
        ...     member.size = len(batch)
        ...     tar.addfile(member, io.BytesIO(batch))
        >>> ds = Cifar100(data_file=str(archive), mode='train', backend='cv2')
        >>> image, label = ds[1]
        >>> len(ds), image.shape, image.dtype, label
        (2, (32, 32, 3), dtype('float32'), array(7))
        >>> tmp.cleanup()
    """

    FILENAME = "cifar-100-python.tar.gz"
    MEMBER_FLAGS = {"train": "train", "test": "test"}
    LABEL_KEYS = ("fine_labels",)


def _str_keys(batch: Any, where: str) -> dict:
    if not isinstance(batch, dict):
        raise ValueError(f"{where} should be a dict (a CIFAR batch), got {type(batch).__name__}")
    return {k.decode("latin1") if isinstance(k, bytes) else k: v for k, v in batch.items()}
