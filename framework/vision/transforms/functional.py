"""Functional image transforms, as `paddle.vision.transforms.functional`.

Every function takes a PIL image, a NumPy array laid out HWC (or HW), or a framework Tensor
laid out CHW, and returns the same kind. PIL images use Pillow's own operations; NumPy arrays
give the same values for uint8 images (see `functional_numpy`); Tensors are converted to HWC
arrays, transformed, and returned as CHW Tensors on their device.

    img = resize(img, 256)            # shorter side to 256, aspect ratio kept
    img = center_crop(img, 224)
    x = normalize(to_tensor(img), mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image

from framework.core import backend
from framework.core.tensor import Tensor
from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil


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


def to_tensor(pic: Image.Image | np.ndarray | Tensor, data_format: str = "CHW") -> Tensor:
    """HWC image -> Tensor laid out as `data_format`; uint8 becomes float32 in [0, 1], other
    dtypes are kept. A Tensor is assumed CHW already."""
    if _is_pil_image(pic):
        return F_pil.to_tensor(pic, data_format)
    if _is_numpy_image(pic):
        return F_np.to_tensor(pic, data_format)
    if _is_tensor_image(pic):
        if data_format.upper() == "CHW":
            return pic
        xp = backend.get_array_module(pic._data)
        return Tensor(xp.ascontiguousarray(xp.moveaxis(pic._data, 0, -1)))
    raise TypeError(
        f"pic should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. Got {type(pic)}"
    )


def resize(img: Any, size: int | Sequence[int], interpolation: str = "bilinear") -> Any:
    """Resize to `size` = (height, width), or make the shorter side `size` (aspect kept).
    `interpolation`: 'nearest', 'bilinear', 'bicubic', 'box', 'area', 'lanczos', 'hamming'."""
    return _dispatch(img, F_pil.resize, F_np.resize, size, interpolation)


def pad(
    img: Any,
    padding: int | Sequence[int],
    fill: int | Sequence[int] = 0,
    padding_mode: str = "constant",
) -> Any:
    """Pad the borders: `padding` is an int, (left/right, top/bottom) or (left, top, right,
    bottom); `padding_mode` is 'constant' (with `fill`), 'edge', 'reflect' or 'symmetric'."""
    return _dispatch(img, F_pil.pad, F_np.pad, padding, fill, padding_mode)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    return _dispatch(img, F_pil.crop, F_np.crop, top, left, height, width)


def center_crop(img: Any, output_size: int | Sequence[int]) -> Any:
    return _dispatch(img, F_pil.center_crop, F_np.center_crop, output_size)


def hflip(img: Any) -> Any:
    return _dispatch(img, F_pil.hflip, F_np.hflip)


def vflip(img: Any) -> Any:
    return _dispatch(img, F_pil.vflip, F_np.vflip)


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    """Blend with black: 0 gives black, 1 the original, 2 twice as bright."""
    return _dispatch(img, F_pil.adjust_brightness, F_np.adjust_brightness, brightness_factor)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    """Blend with the mean grey level: 0 gives flat grey, 1 the original."""
    return _dispatch(img, F_pil.adjust_contrast, F_np.adjust_contrast, contrast_factor)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    """Blend with the greyscale image: 0 gives grey, 1 the original."""
    return _dispatch(img, F_pil.adjust_saturation, F_np.adjust_saturation, saturation_factor)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    """Rotate the hue by `hue_factor` turns, in [-0.5, 0.5]."""
    return _dispatch(img, F_pil.adjust_hue, F_np.adjust_hue, hue_factor)


def rotate(
    img: Any,
    angle: float,
    interpolation: str = "nearest",
    expand: bool = False,
    center: Sequence[float] | None = None,
    fill: int | Sequence[int] = 0,
) -> Any:
    """Rotate counter-clockwise by `angle` degrees about `center` (default: the middle)."""
    center = tuple(center) if isinstance(center, list) else center
    fill = tuple(fill) if isinstance(fill, list) else fill
    return _dispatch(img, F_pil.rotate, F_np.rotate, angle, interpolation, expand, center, fill)


def to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    """ITU-R 601-2 luma; 3 output channels repeat it."""
    return _dispatch(img, F_pil.to_grayscale, F_np.to_grayscale, num_output_channels)


def normalize(
    img: Any,
    mean: float | Sequence[float],
    std: float | Sequence[float],
    data_format: str = "CHW",
    to_rgb: bool = False,
) -> Any:
    """`(img - mean) / std` per channel, in float32. A Tensor gives a Tensor (on its device);
    a PIL image or an array gives an array. `to_rgb` reverses the channel order first."""
    if _is_tensor_image(img):
        xp = backend.get_array_module(img._data)
        shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
        mean = xp.asarray(mean, dtype=np.float32).reshape(shape)
        std = xp.asarray(std, dtype=np.float32).reshape(shape)
        data = img._data
        if to_rgb:
            data = xp.flip(data, axis=0 if data_format == "CHW" else -1)
        out = data.astype(np.float32, copy=False) - mean
        out /= std  # in place: one image-sized allocation per call, not two
        return Tensor(out)
    if _is_pil_image(img):
        img = np.asarray(img, np.float32)
    return F_np.normalize(img, mean, std, data_format, to_rgb)
