"""The three kinds of image the functional transforms take (PIL, HWC NumPy, CHW Tensor), and
the dispatch of one transform to the PIL or NumPy implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from framework.core import backend
from framework.core.tensor import Tensor


def _is_pil_image(img: Any) -> bool:
    return isinstance(img, Image.Image)


def _is_numpy_image(img: Any) -> bool:
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _is_tensor_image(img: Any) -> bool:
    return isinstance(img, Tensor)


def get_image_size(img: Any) -> tuple[int, int]:
    """(width, height) of a PIL image, an HWC array or a CHW Tensor."""
    if _is_pil_image(img):
        return img.size
    if _is_numpy_image(img):
        return img.shape[1], img.shape[0]
    if _is_tensor_image(img):
        if img.ndim not in (2, 3):
            raise ValueError(f"a Tensor image should be CHW or HW, got shape {img.shape}")
        return img.shape[-1], img.shape[-2]
    raise TypeError(f"Unexpected type {type(img)}")


def _dispatch(img: Any, pil_fn: Callable, numpy_fn: Callable, *args: Any) -> Any:
    if _is_pil_image(img):
        return pil_fn(img, *args)
    if _is_numpy_image(img):
        return numpy_fn(img, *args)
    if _is_tensor_image(img):
        return _on_tensor(img, numpy_fn, *args)
    raise TypeError(
        f"img should be PIL Image, ndarray with ndim 2 or 3, or a CHW Tensor. Got {type(img)}"
    )


def _on_tensor(img: Tensor, numpy_fn: Callable, *args: Any) -> Tensor:
    array = backend.to_numpy(img._data)
    hwc = np.moveaxis(array, 0, -1) if array.ndim == 3 else array
    out = numpy_fn(hwc, *args)
    chw = np.moveaxis(out, -1, 0) if out.ndim == 3 else out
    return Tensor(np.ascontiguousarray(chw), place=img.place)
