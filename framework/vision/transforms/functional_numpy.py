"""Image functions on NumPy arrays laid out HWC (or HW).

Resampling (resize, rotate, affine, perspective) runs in Pillow's C code: uint8 images with
1, 3 or 4 channels directly, other dtypes channel by channel as 32-bit float images. So a
uint8 array gives exactly what the same image gives as a PIL image. Colour adjustments follow PIL's
definitions (`ImageEnhance`, ITU-R 601-2 luma): uint8 arrays go through Pillow and match it
exactly; float arrays are taken to hold values in [0, 1] and are computed in float.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from PIL import Image

from framework.core.tensor import Tensor
from framework.vision.transforms import functional_pil as F_pil

_LUMA = np.array([0.299, 0.587, 0.114], np.float32)


def _channels_last(img: np.ndarray) -> np.ndarray:
    return img[:, :, None] if img.ndim == 2 else img


def _like_input(out: np.ndarray, img: np.ndarray) -> np.ndarray:
    return out[:, :, 0] if img.ndim == 2 else out


def _is_pil_compatible(img: np.ndarray) -> bool:
    return img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4))


def _through_pil(img: np.ndarray, op: Callable[[Image.Image], Image.Image]) -> np.ndarray:
    """Apply a PIL operation to an HWC/HW array of any dtype; returns the same layout."""
    if _is_pil_compatible(img):
        squeeze = img.ndim == 3 and img.shape[2] == 1
        out = np.array(op(Image.fromarray(img[:, :, 0] if squeeze else img)))
        return out[:, :, None] if squeeze else out
    bands = _channels_last(img)
    planes = [
        np.asarray(op(Image.fromarray(np.ascontiguousarray(bands[:, :, c], np.float32))))
        for c in range(bands.shape[2])
    ]
    out = np.stack(planes, axis=2)
    if np.issubdtype(img.dtype, np.integer):
        info = np.iinfo(img.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    return _like_input(out.astype(img.dtype, copy=False), img)


def to_tensor(pic: np.ndarray, data_format: str = "CHW") -> Tensor:
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    array = _channels_last(pic)
    if data_format == "CHW":
        array = array.transpose(2, 0, 1)
    if array.dtype == np.uint8:
        out = np.empty(array.shape, np.float32)
        np.divide(array, np.float32(255), out=out, dtype=np.float32)
        return Tensor(out)
    return Tensor(np.ascontiguousarray(array))


def resize(
    img: np.ndarray, size: int | Sequence[int], interpolation: str = "bilinear"
) -> np.ndarray:
    target = F_pil.output_size_for(img.shape[1], img.shape[0], size)
    if target is None:
        return img
    mode = F_pil.interpolation_mode(interpolation)
    return _through_pil(img, lambda im: im.resize(target, mode))


def pad(
    img: np.ndarray,
    padding: int | Sequence[int],
    fill: int | float | Sequence = 0,
    padding_mode: str = "constant",
) -> np.ndarray:
    if padding_mode not in F_pil.PADDING_MODES:
        raise ValueError(
            f"padding_mode should be one of {F_pil.PADDING_MODES}, got {padding_mode!r}"
        )
    left, top, right, bottom = F_pil.parse_padding(padding)
    height, width = img.shape[:2]
    if padding_mode != "constant":
        widths = ((top, bottom), (left, right)) + ((0, 0),) * (img.ndim - 2)
        return np.pad(img, widths, padding_mode)
    out = np.empty((height + top + bottom, width + left + right, *img.shape[2:]), img.dtype)
    out[...] = _channel_fill(fill, img.shape[2] if img.ndim == 3 else 0)
    out[top : top + height, left : left + width] = img
    return out


def _channel_fill(fill: int | float | Sequence, channels: int) -> int | float | np.ndarray:
    """One fill value per channel (0 channels: a HW image), as PIL fills bands."""
    if not isinstance(fill, Sequence):
        return fill
    if channels <= 1:
        return fill[0]
    if len(fill) < channels:
        raise ValueError(f"fill {fill!r} has fewer values than the image's {channels} channels")
    return np.asarray(fill[:channels])


def crop(img: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    return img[top : top + height, left : left + width]


def center_crop(img: np.ndarray, output_size: int | Sequence[int]) -> np.ndarray:
    return crop(img, *F_pil.center_crop_box(img.shape[0], img.shape[1], output_size))


def hflip(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[::-1])


def _float_max(img: np.ndarray) -> float:
    return 1.0 if img.dtype.kind == "f" else float(np.iinfo(img.dtype).max)


def _blend(degenerate: np.ndarray, img: np.ndarray, factor: float) -> np.ndarray:
    """PIL's `Image.blend(degenerate, img, factor)`, clipped to the image's range."""
    out = degenerate + np.float32(factor) * (img.astype(np.float32) - degenerate)
    np.clip(out, 0.0, _float_max(img), out=out)
    return out.astype(img.dtype, copy=False)


def _luma(img: np.ndarray) -> np.ndarray:
    """Grey level of an HWC RGB (or single-channel) float image, keeping a channel axis."""
    rgb = _channels_last(img).astype(np.float32, copy=False)
    if rgb.shape[2] == 1:
        return rgb
    r, g, b = (rgb[:, :, c] for c in range(3))
    return (r * _LUMA[0] + g * _LUMA[1] + b * _LUMA[2])[:, :, None]


def adjust_brightness(img: np.ndarray, brightness_factor: float) -> np.ndarray:
    if _is_pil_compatible(img):
        return _through_pil(img, lambda im: F_pil.adjust_brightness(im, brightness_factor))
    return _blend(np.float32(0), img, brightness_factor)


def adjust_contrast(img: np.ndarray, contrast_factor: float) -> np.ndarray:
    if _is_pil_compatible(img):
        return _through_pil(img, lambda im: F_pil.adjust_contrast(im, contrast_factor))
    return _blend(np.float32(_luma(img).mean()), img, contrast_factor)


def adjust_saturation(img: np.ndarray, saturation_factor: float) -> np.ndarray:
    if _is_pil_compatible(img):
        return _through_pil(img, lambda im: F_pil.adjust_saturation(im, saturation_factor))
    if _channels_last(img).shape[2] == 1:
        return img
    return _blend(_like_input(_luma(img), img), img, saturation_factor)


def adjust_hue(img: np.ndarray, hue_factor: float) -> np.ndarray:
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    if _is_pil_compatible(img):
        return _through_pil(img, lambda im: F_pil.adjust_hue(im, hue_factor))
    if img.ndim == 2 or img.shape[2] == 1:
        return img
    scale = _float_max(img)
    rgb = img[:, :, :3].astype(np.float32) / np.float32(scale)
    hue, saturation, value = _rgb_to_hsv(rgb)
    hue = (hue + np.float32(hue_factor)) % np.float32(1.0)
    out = img.copy()
    out[:, :, :3] = (_hsv_to_rgb(hue, saturation, value) * np.float32(scale)).astype(img.dtype)
    return out


def _rgb_to_hsv(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc = rgb.max(axis=-1)
    minc = rgb.min(axis=-1)
    delta = maxc - minc
    safe_delta = np.where(delta == 0, np.float32(1), delta)
    saturation = np.where(maxc == 0, np.float32(0), delta / np.where(maxc == 0, 1, maxc))
    rc, gc, bc = ((maxc - c) / safe_delta for c in (r, g, b))
    hue = np.where(maxc == r, bc - gc, np.where(maxc == g, 2.0 + rc - bc, 4.0 + gc - rc))
    hue = np.where(delta == 0, np.float32(0), (hue / 6.0) % 1.0)
    return hue.astype(np.float32), saturation.astype(np.float32), maxc


def _hsv_to_rgb(hue: np.ndarray, saturation: np.ndarray, value: np.ndarray) -> np.ndarray:
    sector = np.floor(hue * 6.0)
    frac = hue * 6.0 - sector
    sector = sector.astype(np.int64) % 6
    p = value * (1.0 - saturation)
    q = value * (1.0 - saturation * frac)
    t = value * (1.0 - saturation * (1.0 - frac))
    choices = [
        np.stack(c, axis=-1)
        for c in (
            (value, t, p),
            (q, value, p),
            (p, value, t),
            (p, q, value),
            (t, p, value),
            (value, p, q),
        )
    ]
    return np.choose(sector[..., None], choices).astype(np.float32)


def _resample(
    img: np.ndarray, fill: int | float | Sequence, op: Callable[[Image.Image, object], Image.Image]
) -> np.ndarray:
    """Run the Pillow resampling `op(image, fill)` on an HWC/HW array of any dtype: uint8 images
    in one go, others one channel at a time with that channel's fill."""
    if _is_pil_compatible(img):
        return _through_pil(img, lambda im: op(im, fill))
    channels = _channels_last(img).shape[2]
    fills = np.broadcast_to(_channel_fill(fill, channels), (channels,)).tolist()
    planes = [
        _through_pil(
            np.ascontiguousarray(_channels_last(img)[:, :, c]),
            lambda im, v=fills[c]: op(im, v),
        )
        for c in range(channels)
    ]
    return _like_input(np.stack(planes, axis=2), img)


def rotate(
    img: np.ndarray,
    angle: float,
    interpolation: str = "nearest",
    expand: bool = False,
    center: Sequence[float] | None = None,
    fill: int | float | Sequence = 0,
) -> np.ndarray:
    return _resample(
        img, fill, lambda im, v: F_pil.rotate(im, angle, interpolation, expand, center, v)
    )


def affine(
    img: np.ndarray,
    matrix: Sequence[float],
    interpolation: str = "nearest",
    fill: int | float | Sequence = 0,
) -> np.ndarray:
    return _resample(img, fill, lambda im, v: F_pil.affine(im, matrix, interpolation, v))


def perspective(
    img: np.ndarray,
    coefficients: Sequence[float],
    interpolation: str = "nearest",
    fill: int | float | Sequence = 0,
) -> np.ndarray:
    return _resample(img, fill, lambda im, v: F_pil.perspective(im, coefficients, interpolation, v))


def erase(
    img: np.ndarray, i: int, j: int, h: int, w: int, v: np.ndarray, inplace: bool = False
) -> np.ndarray:
    """`img` (a copy unless `inplace`) with rows i:i+h, columns j:j+w set to `v`."""
    out = img if inplace else img.copy()
    out[i : i + h, j : j + w, ...] = v
    return out


def to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if _is_pil_compatible(img):
        gray = _through_pil(img, lambda im: im.convert("L"))
    else:
        gray = _luma(img).astype(img.dtype, copy=False)
    gray = _channels_last(gray)
    return np.repeat(gray, 3, axis=2) if num_output_channels == 3 else gray


def normalize(
    img: np.ndarray,
    mean: Sequence[float],
    std: Sequence[float],
    data_format: str = "CHW",
    to_rgb: bool = False,
) -> np.ndarray:
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.asarray(mean, np.float32).reshape(shape)
    std = np.asarray(std, np.float32).reshape(shape)
    if to_rgb:
        img = np.flip(img, axis=0 if data_format == "CHW" else -1)
    out = img.astype(np.float32, copy=False) - mean
    out /= std
    return out
