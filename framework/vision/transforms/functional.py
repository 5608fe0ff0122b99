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

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image

from framework.core import backend
from framework.core.tensor import Tensor
from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.warp_matrices import (
    inverse_affine_matrix,
    perspective_coefficients,
)


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


def _affine_shear(shear: float | Sequence[float]) -> list[float]:
    """Paddle's shear forms: a number is an x shear; one value shears both axes."""
    if isinstance(shear, numbers.Number):
        return [float(shear), 0.0]
    if not isinstance(shear, (list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    shear = [float(s) for s in shear]
    if len(shear) == 1:
        shear = shear * 2
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    return shear


def affine(
    img: Any,
    angle: float,
    translate: Sequence[float],
    scale: float,
    shear: float | Sequence[float],
    interpolation: str = "nearest",
    fill: int | Sequence[int] = 0,
    center: Sequence[float] | None = None,
) -> Any:
    """Rotate by `angle` degrees clockwise about `center` (x, y; default the middle), shear
    by `shear` degrees (x, or (x, y)), scale by `scale` and shift by `translate` (dx, dy)
    pixels, in one resampling; the area from outside the image gets `fill`.

    Same size and kind as `img`: a PIL image, an HWC array (any dtype) or a CHW Tensor (on its
    device). `interpolation` is 'nearest', 'bilinear' or 'bicubic'. Every kind is warped by
    Pillow's `Image.transform` with the same matrix, so arrays and Tensors give what the PIL
    image gives (Paddle's own array and Tensor backends use OpenCV and grid_sample).

        img = np.zeros((256, 300, 3), np.uint8)
        affine(img, 45, translate=[0.2, 0.2], scale=0.5, shear=[-10, 10]).shape   # (256, 300, 3)
    """
    if not isinstance(angle, numbers.Number):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, Sequence):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    if center is not None and not isinstance(center, Sequence):
        raise TypeError("Argument center should be a sequence")
    width, height = get_image_size(img)
    if center is None:
        center = (width * 0.5, height * 0.5)
    matrix = inverse_affine_matrix(
        center, float(angle), [float(t) for t in translate], scale, _affine_shear(shear)
    )
    fill = tuple(fill) if isinstance(fill, list) else fill
    return _dispatch(img, F_pil.affine, F_np.affine, matrix, interpolation, fill)


def perspective(
    img: Any,
    startpoints: Sequence[Sequence[int]],
    endpoints: Sequence[Sequence[int]],
    interpolation: str = "nearest",
    fill: int | Sequence[int] = 0,
) -> Any:
    """Warp so that the four `startpoints` (x, y) of `img`, listed [top-left, top-right,
    bottom-right, bottom-left], land on `endpoints`; the area from outside gets `fill`.

    Same size and kind as `img` (PIL image, HWC array, CHW Tensor), warped by Pillow's
    `Image.transform` as in `affine`. `interpolation` is 'nearest', 'bilinear' or 'bicubic'.

        start = [[0, 0], [299, 0], [299, 255], [0, 255]]
        end = [[30, 20], [280, 10], [290, 240], [10, 250]]
        perspective(np.zeros((256, 300, 3), np.uint8), start, end).shape   # (256, 300, 3)
    """
    coefficients = perspective_coefficients(startpoints, endpoints)
    fill = tuple(fill) if isinstance(fill, list) else fill
    return _dispatch(img, F_pil.perspective, F_np.perspective, coefficients, interpolation, fill)


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Set rows `i:i+h`, columns `j:j+w` to `v` (broadcast: a number, one value per channel,
    or a whole patch); returns the same kind of image.

    A CHW Tensor takes `v` as a Tensor or array shaped for `img[..., i:i+h, j:j+w]` (e.g.
    `[C, 1, 1]`); an HWC array or a PIL image takes an array shaped for `img[i:i+h, j:j+w]`
    (e.g. `[1, 1, C]`). With `inplace` a Tensor or an array is changed and returned; a PIL
    image is always copied.

        x = framework.rand([3, 2, 4])
        erase(x, 0, 1, 1, 2, framework.to_tensor(0.0))   # x[:, 0, 1:3] zeroed, in a copy
    """
    if _is_tensor_image(img):
        out = img if inplace else img.clone()
        out[..., i : i + h, j : j + w] = v
        return out
    if isinstance(v, Tensor):
        v = v.numpy()
    return _dispatch(img, F_pil.erase, F_np.erase, i, j, h, w, v, inplace)


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
