"""Image functions on PIL images (as `paddle.vision.transforms.functional_pil`)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from framework.core.tensor import Tensor

INTERPOLATION = {
    "nearest": Image.Resampling.NEAREST,
    "bilinear": Image.Resampling.BILINEAR,
    "bicubic": Image.Resampling.BICUBIC,
    "box": Image.Resampling.BOX,
    "area": Image.Resampling.BOX,
    "lanczos": Image.Resampling.LANCZOS,
    "hamming": Image.Resampling.HAMMING,
}


def interpolation_mode(name: str) -> Image.Resampling:
    try:
        return INTERPOLATION[name]
    except KeyError:
        raise ValueError(
            f"unknown interpolation {name!r}; expected one of {sorted(INTERPOLATION)}"
        ) from None


def to_tensor(pic: Image.Image, data_format: str = "CHW") -> Tensor:
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.mode in ("I", "I;16"):
        array = np.asarray(pic, np.int32)
    elif pic.mode == "F":
        array = np.asarray(pic, np.float32)
    elif pic.mode == "1":
        array = np.asarray(pic, np.uint8) * np.uint8(255)
    else:
        array = np.asarray(pic)
    channels = 3 if pic.mode == "YCbCr" else 1 if pic.mode == "I;16" else len(pic.getbands())
    array = array.reshape(pic.size[1], pic.size[0], channels)
    if data_format == "CHW":
        array = array.transpose(2, 0, 1)
    if array.dtype == np.uint8:
        out = np.empty(array.shape, np.float32)
        np.divide(array, np.float32(255), out=out, dtype=np.float32)
        return Tensor(out)
    return Tensor(np.ascontiguousarray(array))


def output_size_for(width: int, height: int, size: int | Sequence[int]) -> tuple[int, int] | None:
    """(width, height) after Paddle's resize rule, or None when nothing changes: an int sets
    the shorter side and keeps the aspect ratio; a pair is (height, width)."""
    if isinstance(size, int):
        if (width <= height and width == size) or (height <= width and height == size):
            return None
        if width < height:
            return size, int(size * height / width)
        return int(size * width / height), size
    if len(size) != 2:
        raise TypeError(f"Got inappropriate size arg: {size}")
    return int(size[1]), int(size[0])


def resize(
    img: Image.Image, size: int | Sequence[int], interpolation: str = "bilinear"
) -> Image.Image:
    target = output_size_for(img.size[0], img.size[1], size)
    if target is None:
        return img
    return img.resize(target, interpolation_mode(interpolation))


def parse_padding(padding: int | Sequence[int]) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from an int, a (left/right, top/bottom) pair or a 4-tuple."""
    if isinstance(padding, numbers.Number):
        p = int(padding)
        return p, p, p, p
    if isinstance(padding, Sequence) and len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    if isinstance(padding, Sequence) and len(padding) == 4:
        return tuple(int(p) for p in padding)
    raise ValueError(f"Padding must be an int or a 2, or 4 element tuple, not {padding!r}")


PADDING_MODES = ("constant", "edge", "reflect", "symmetric")


def pad(
    img: Image.Image,
    padding: int | Sequence[int],
    fill: int | Sequence[int] = 0,
    padding_mode: str = "constant",
) -> Image.Image:
    if padding_mode not in PADDING_MODES:
        raise ValueError(f"padding_mode should be one of {PADDING_MODES}, got {padding_mode!r}")
    left, top, right, bottom = parse_padding(padding)
    if padding_mode == "constant":
        # an int fills every band (PIL alone would read 9 as (9, 0, 0) for RGB)
        fill = band_fill(img, fill) if img.mode != "P" else fill
        out = ImageOps.expand(img, border=(left, top, right, bottom), fill=fill)
        if img.mode == "P":
            out.putpalette(img.getpalette())
        return out
    array = np.asarray(img)
    widths = ((top, bottom), (left, right)) + ((0, 0),) * (array.ndim - 2)
    out = Image.fromarray(np.pad(array, widths, padding_mode), img.mode)
    if img.mode == "P":
        out.putpalette(img.getpalette())
    return out


def crop(img: Image.Image, top: int, left: int, height: int, width: int) -> Image.Image:
    return img.crop((left, top, left + width, top + height))


def center_crop_box(height: int, width: int, output_size: int | Sequence[int]) -> tuple:
    """(top, left, crop_height, crop_width) of a centred crop, rounded as Paddle rounds."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    crop_height, crop_width = output_size
    top = int(round((height - crop_height) / 2.0))
    left = int(round((width - crop_width) / 2.0))
    return top, left, crop_height, crop_width


def center_crop(img: Image.Image, output_size: int | Sequence[int]) -> Image.Image:
    return crop(img, *center_crop_box(img.size[1], img.size[0], output_size))


def hflip(img: Image.Image) -> Image.Image:
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vflip(img: Image.Image) -> Image.Image:
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img: Image.Image, brightness_factor: float) -> Image.Image:
    return ImageEnhance.Brightness(img).enhance(brightness_factor)


def adjust_contrast(img: Image.Image, contrast_factor: float) -> Image.Image:
    return ImageEnhance.Contrast(img).enhance(contrast_factor)


def adjust_saturation(img: Image.Image, saturation_factor: float) -> Image.Image:
    return ImageEnhance.Color(img).enhance(saturation_factor)


def adjust_hue(img: Image.Image, hue_factor: float) -> Image.Image:
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    mode = img.mode
    if mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    shifted = (np.asarray(h, np.int16) + int(hue_factor * 255)) % 256
    h = Image.fromarray(shifted.astype(np.uint8), "L")
    return Image.merge("HSV", (h, s, v)).convert(mode)


def band_fill(img: Image.Image, fill: int | float | Sequence) -> int | float | tuple:
    """A fill value with one entry per band, as PIL wants it."""
    bands = len(img.getbands())
    if isinstance(fill, Sequence):
        return tuple(fill) if bands > 1 else fill[0]
    return tuple([fill] * bands) if bands > 1 else fill


def rotate(
    img: Image.Image,
    angle: float,
    interpolation: str = "nearest",
    expand: bool = False,
    center: Sequence[float] | None = None,
    fill: int | Sequence[int] = 0,
) -> Image.Image:
    return img.rotate(
        angle,
        interpolation_mode(interpolation),
        expand,
        tuple(center) if center is not None else None,
        fillcolor=band_fill(img, fill),
    )


# The resampling filters `Image.transform` supports.
WARP_INTERPOLATIONS = ("nearest", "bilinear", "bicubic")


def _warp(
    img: Image.Image,
    method: Image.Transform,
    coefficients: Sequence[float],
    interpolation: str,
    fill: int | float | Sequence,
) -> Image.Image:
    if interpolation not in WARP_INTERPOLATIONS:
        raise ValueError(
            f"interpolation should be one of {WARP_INTERPOLATIONS} for an affine or perspective "
            f"warp, got {interpolation!r}"
        )
    return img.transform(
        img.size,
        method,
        tuple(coefficients),
        interpolation_mode(interpolation),
        fillcolor=band_fill(img, fill),
    )


def affine(
    img: Image.Image,
    matrix: Sequence[float],
    interpolation: str = "nearest",
    fill: int | float | Sequence = 0,
) -> Image.Image:
    """Warp by the inverse affine `matrix` (see `warp_matrices.inverse_affine_matrix`)."""
    return _warp(img, Image.Transform.AFFINE, matrix, interpolation, fill)


def perspective(
    img: Image.Image,
    coefficients: Sequence[float],
    interpolation: str = "nearest",
    fill: int | float | Sequence = 0,
) -> Image.Image:
    """Warp by the 8 perspective `coefficients` (see `warp_matrices.perspective_coefficients`)."""
    return _warp(img, Image.Transform.PERSPECTIVE, coefficients, interpolation, fill)


def erase(
    img: Image.Image, i: int, j: int, h: int, w: int, v: np.ndarray, inplace: bool = False
) -> Image.Image:
    """A copy of `img` with rows i:i+h, columns j:j+w set to `v` (a PIL image is never
    changed in place, whatever `inplace` says)."""
    array = np.array(img)
    array[i : i + h, j : j + w, ...] = v
    out = Image.fromarray(array, img.mode)
    if img.mode == "P":
        out.putpalette(img.getpalette())
    return out


def to_grayscale(img: Image.Image, num_output_channels: int = 1) -> Image.Image:
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        gray = np.asarray(img.convert("L"))
        return Image.fromarray(np.dstack([gray, gray, gray]), "RGB")
    raise ValueError("num_output_channels should be either 1 or 3")
