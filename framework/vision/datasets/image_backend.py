"""The image backend datasets load with: 'pil' (PIL images) or 'cv2' (HWC uint8 RGB NumPy
arrays, decoded with Pillow since OpenCV is not a dependency), as `paddle.vision`."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from PIL import Image

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def set_image_backend(backend: str) -> None:
    """Choose the image backend, as `paddle.vision.set_image_backend`.

    Choose how `ImageFolder`, `DatasetFolder` and `image_load` return images.

    Args:
        backend (str): 'pil' or 'cv2'.

    Returns:
        None

    Examples:
        >>> from framework.vision.datasets import get_image_backend, set_image_backend
        >>> set_image_backend('cv2')
        >>> get_image_backend()
        'cv2'
        >>> set_image_backend('pil')
    """
    global _image_backend
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of {list(_BACKENDS)}, but got {backend}")
    _image_backend = backend


def get_image_backend() -> str:
    """The image backend datasets load with, as `paddle.vision.get_image_backend`.

    Returns:
        str: 'pil' or 'cv2'.

    Examples:
        >>> from framework.vision.datasets import get_image_backend
        >>> get_image_backend()
        'pil'
    """
    return _image_backend


def check_backend(backend: str | None, allowed: tuple[str, ...] = ("pil", "cv2")) -> str:
    backend = get_image_backend() if backend is None else backend
    if backend not in allowed:
        raise ValueError(f"Expected backend are one of {list(allowed)}, but got {backend}")
    return backend


def pil_loader(path: str | os.PathLike) -> Image.Image:
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def image_load(path: str | os.PathLike, backend: str | None = None) -> Any:
    """Load an image with a backend, as `paddle.vision.image_load`.

    Load an image as a PIL RGB image ('pil'), an HWC uint8 RGB array ('cv2'), or a CHW
    uint8 Tensor ('tensor').

    Args:
        path (str|os.PathLike): the image file.
        backend (str, optional): 'pil', 'cv2' or 'tensor'; None is the image backend. Default: None.

    Returns:
        A PIL RGB image, an HWC uint8 RGB array `[H, W, 3]`, or a CHW uint8 Tensor `[3, H, W]`.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from PIL import Image
        >>> from framework.vision.datasets import image_load
        >>> tmp = tempfile.TemporaryDirectory()
        >>> path = Path(tmp.name, 'a.png')
        >>> Image.fromarray(np.zeros((4, 6, 3), 'uint8')).save(path)
        >>> image_load(path).size, image_load(path, 'cv2').shape, image_load(path, 'tensor').shape
        ((6, 4), (4, 6, 3), paddle.Size([3, 4, 6]))
        >>> tmp.cleanup()
    """
    backend = check_backend(backend, _BACKENDS)
    image = pil_loader(path)
    if backend == "pil":
        return image
    array = np.asarray(image)
    if backend == "cv2":
        return array
    from framework.core.tensor import Tensor

    return Tensor(np.ascontiguousarray(array.transpose(2, 0, 1)))


def default_loader(path: str | os.PathLike) -> Any:
    return image_load(path, "cv2" if get_image_backend() == "cv2" else "pil")
