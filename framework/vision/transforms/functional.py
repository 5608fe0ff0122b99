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
    """An image to a Tensor, as `paddle.vision.transforms.to_tensor`.

    HWC image -> Tensor laid out as `data_format`; uint8 becomes float32 in [0, 1], other
    dtypes are kept. A Tensor is assumed CHW already.

    Args:
        pic (PIL.Image|numpy.ndarray|Tensor): an HWC image; a Tensor is taken as CHW already.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: uint8 becomes float32 in [0, 1], other dtypes are kept; laid out as `data_format`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> t = F.to_tensor(np.full((2, 4, 3), 255, 'uint8'))
        >>> t.shape, float(t.max())
        (paddle.Size([3, 2, 4]), 1.0)
    """
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
    """Resize an image, as `paddle.vision.transforms.resize`.

    Resize to `size` = (height, width), or make the shorter side `size` (aspect kept).
    `interpolation`: 'nearest', 'bilinear', 'bicubic', 'box', 'area', 'lanczos', 'hamming'.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        size (int|list|tuple): `(height, width)`, or an int for the shorter side (aspect kept).
        interpolation (str, optional): 'nearest', 'bilinear', 'bicubic', 'box', 'area', 'lanczos' or
            'hamming'. Default: 'bilinear'.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.resize(np.zeros((40, 60, 3), 'uint8'), 20).shape
        (20, 30, 3)
        >>> F.resize(np.zeros((40, 60, 3), 'uint8'), (10, 10)).shape
        (10, 10, 3)
    """
    return _dispatch(img, F_pil.resize, F_np.resize, size, interpolation)


def pad(
    img: Any,
    padding: int | Sequence[int],
    fill: int | Sequence[int] = 0,
    padding_mode: str = "constant",
) -> Any:
    """Pad an image's borders, as `paddle.vision.transforms.pad`.

    Pad the borders: `padding` is an int, (left/right, top/bottom) or (left, top, right,
    bottom); `padding_mode` is 'constant' (with `fill`), 'edge', 'reflect' or 'symmetric'.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        padding (int|list|tuple): one int, (left/right, top/bottom) or (left, top, right, bottom).
        fill (int|list|tuple, optional): the constant, per channel or for all. Default: 0.
        padding_mode (str, optional): 'constant', 'edge', 'reflect' or 'symmetric'. Default:
            'constant'.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.pad(np.ones((2, 2, 1), 'uint8'), (1, 0, 0, 1))[..., 0]
        array([[0, 1, 1],
               [0, 1, 1],
               [0, 0, 0]], dtype=uint8)
    """
    return _dispatch(img, F_pil.pad, F_np.pad, padding, fill, padding_mode)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    """Crop a window, as `paddle.vision.transforms.crop`.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        top (int): the first row kept.
        left (int): the first column kept.
        height (int): rows kept.
        width (int): columns kept.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> img = np.arange(12, dtype='uint8').reshape(2, 2, 3)  # HWC
        >>> F.crop(img, 0, 1, 2, 1)[..., 0]
        array([[3],
               [9]], dtype=uint8)
    """
    return _dispatch(img, F_pil.crop, F_np.crop, top, left, height, width)


def center_crop(img: Any, output_size: int | Sequence[int]) -> Any:
    """Crop the centre, as `paddle.vision.transforms.center_crop`.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        output_size (int|list|tuple): `(height, width)`, or an int for a square.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.center_crop(np.zeros((10, 8, 3), 'uint8'), 4).shape
        (4, 4, 3)
    """
    return _dispatch(img, F_pil.center_crop, F_np.center_crop, output_size)


def hflip(img: Any) -> Any:
    """Mirror left-right, as `paddle.vision.transforms.hflip`.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> img = np.arange(12, dtype='uint8').reshape(2, 2, 3)  # HWC
        >>> F.hflip(img)[..., 0]
        array([[3, 0],
               [9, 6]], dtype=uint8)
    """
    return _dispatch(img, F_pil.hflip, F_np.hflip)


def vflip(img: Any) -> Any:
    """Mirror top-bottom, as `paddle.vision.transforms.vflip`.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> img = np.arange(12, dtype='uint8').reshape(2, 2, 3)  # HWC
        >>> F.vflip(img)[..., 0]
        array([[6, 9],
               [0, 3]], dtype=uint8)
    """
    return _dispatch(img, F_pil.vflip, F_np.vflip)


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    """Scale the brightness, as `paddle.vision.transforms.adjust_brightness`.

    Blend with black: 0 gives black, 1 the original, 2 twice as bright.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        brightness_factor (float): non-negative; 0 is black, 1 the original.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.adjust_brightness(np.full((1, 1, 3), 100, 'uint8'), 1.5)
        array([[[150, 150, 150]]], dtype=uint8)
    """
    return _dispatch(img, F_pil.adjust_brightness, F_np.adjust_brightness, brightness_factor)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    """Scale the contrast, as `paddle.vision.transforms.adjust_contrast`.

    Blend with the mean grey level: 0 gives flat grey, 1 the original.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        contrast_factor (float): non-negative; 0 is flat grey, 1 the original.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.adjust_contrast(np.array([[[0, 0, 0], [200, 200, 200]]], 'uint8'), 0.5)
        array([[[ 50,  50,  50],
                [150, 150, 150]]], dtype=uint8)
    """
    return _dispatch(img, F_pil.adjust_contrast, F_np.adjust_contrast, contrast_factor)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    """Scale the saturation, as `paddle.vision.transforms.adjust_saturation`.

    Blend with the greyscale image: 0 gives grey, 1 the original.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        saturation_factor (float): non-negative; 0 is grey, 1 the original.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.adjust_saturation(np.array([[[200, 0, 0]]], 'uint8'), 0.0)
        array([[[60, 60, 60]]], dtype=uint8)
    """
    return _dispatch(img, F_pil.adjust_saturation, F_np.adjust_saturation, saturation_factor)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    """Rotate the hue, as `paddle.vision.transforms.adjust_hue`.

    Rotate the hue by `hue_factor` turns, in [-0.5, 0.5].

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        hue_factor (float): the hue rotation in turns, in [-0.5, 0.5].

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.adjust_hue(np.array([[[255, 0, 0]]], 'uint8'), 1 / 3)
        array([[[  0, 255,   0]]], dtype=uint8)
    """
    return _dispatch(img, F_pil.adjust_hue, F_np.adjust_hue, hue_factor)


def rotate(
    img: Any,
    angle: float,
    interpolation: str = "nearest",
    expand: bool = False,
    center: Sequence[float] | None = None,
    fill: int | Sequence[int] = 0,
) -> Any:
    """Rotate an image, as `paddle.vision.transforms.rotate`.

    Rotate counter-clockwise by `angle` degrees about `center` (default: the middle).

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        angle (float): degrees, counter-clockwise.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        expand (bool, optional): grow the canvas to hold the whole result. Default: False.
        center (list|tuple, optional): the centre `(x, y)`; None is the middle. Default: None.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.rotate(np.array([[1, 2], [3, 4]], 'uint8')[..., None], 90)[..., 0]
        array([[2, 4],
               [1, 3]], dtype=uint8)
        >>> F.rotate(np.zeros((20, 40, 3), 'uint8'), 90, expand=True).shape
        (40, 20, 3)
    """
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
    """An affine warp, as `paddle.vision.transforms.affine`.

    Rotate by `angle` degrees clockwise about `center` (x, y; default the middle), shear
    by `shear` degrees (x, or (x, y)), scale by `scale` and shift by `translate` (dx, dy)
    pixels, in one resampling; the area from outside the image gets `fill`.

    Same size and kind as `img`: a PIL image, an HWC array (any dtype) or a CHW Tensor (on its
    device). `interpolation` is 'nearest', 'bilinear' or 'bicubic'. Every kind is warped by
    Pillow's `Image.transform` with the same matrix, so arrays and Tensors give what the PIL
    image gives (Paddle's own array and Tensor backends use OpenCV and grid_sample).

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        angle (float): rotation in degrees, clockwise.
        translate (list|tuple): the shift `(dx, dy)` in pixels.
        scale (float): the scale factor.
        shear (float|list|tuple): shear degrees, x or `(x, y)`.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.
        center (list|tuple, optional): the centre `(x, y)`; None is the middle. Default: None.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> img = np.array([[1, 2, 0], [3, 4, 0], [0, 0, 0]], 'uint8')[..., None]
        >>> F.affine(img, angle=0, translate=(1, 1), scale=1.0, shear=0)[..., 0]
        array([[0, 0, 0],
               [0, 1, 2],
               [0, 3, 4]], dtype=uint8)
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
    """A perspective warp, as `paddle.vision.transforms.perspective`.

    Warp so that the four `startpoints` (x, y) of `img`, listed [top-left, top-right,
    bottom-right, bottom-left], land on `endpoints`; the area from outside gets `fill`.

    Same size and kind as `img` (PIL image, HWC array, CHW Tensor), warped by Pillow's
    `Image.transform` as in `affine`. `interpolation` is 'nearest', 'bilinear' or 'bicubic'.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        startpoints (list): four `[x, y]` corners of `img`: top-left, top-right, bottom-right,
            bottom-left.
        endpoints (list): where they land, in the same order.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> start = [[0, 0], [299, 0], [299, 255], [0, 255]]
        >>> end = [[30, 20], [280, 10], [290, 240], [10, 250]]
        >>> F.perspective(np.zeros((256, 300, 3), 'uint8'), start, end).shape
        (256, 300, 3)
    """
    coefficients = perspective_coefficients(startpoints, endpoints)
    fill = tuple(fill) if isinstance(fill, list) else fill
    return _dispatch(img, F_pil.perspective, F_np.perspective, coefficients, interpolation, fill)


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Set a rectangle to a value, as `paddle.vision.transforms.erase`.

    Set rows `i:i+h`, columns `j:j+w` to `v` (broadcast: a number, one value per channel,
    or a whole patch); returns the same kind of image.

    A CHW Tensor takes `v` as a Tensor or array shaped for `img[..., i:i+h, j:j+w]` (e.g.
    `[C, 1, 1]`); an HWC array or a PIL image takes an array shaped for `img[i:i+h, j:j+w]`
    (e.g. `[1, 1, C]`). With `inplace` a Tensor or an array is changed and returned; a PIL
    image is always copied.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        i (int): the first row erased.
        j (int): the first column erased.
        h (int): rows erased.
        w (int): columns erased.
        v (number|numpy.ndarray|Tensor): the value, broadcast to the erased patch.
        inplace (bool, optional): change a Tensor or array in place. Default: False.

    Returns:
        The image, the same kind (PIL, array or Tensor) and dtype as `img`.

    Examples:
        >>> import framework as paddle
        >>> import framework.vision.transforms.functional as F
        >>> x = paddle.ones([1, 2, 3])
        >>> print(F.erase(x, 0, 1, 1, 2, paddle.zeros([1, 1, 1])))
        Tensor(shape=[1, 2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[1., 0., 0.],
                 [1., 1., 1.]]])
    """
    if _is_tensor_image(img):
        out = img if inplace else img.clone()
        out[..., i : i + h, j : j + w] = v
        return out
    if isinstance(v, Tensor):
        v = v.numpy()
    return _dispatch(img, F_pil.erase, F_np.erase, i, j, h, w, v, inplace)


def to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    """Convert to greyscale, as `paddle.vision.transforms.to_grayscale`.

    ITU-R 601-2 luma; 3 output channels repeat it.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        num_output_channels (int, optional): 1, or 3 to repeat the luma. Default: 1.

    Returns:
        The greyscale image, the kind of `img`.

    Examples:
        >>> import numpy as np
        >>> import framework.vision.transforms.functional as F
        >>> F.to_grayscale(np.array([[[255, 0, 0], [0, 255, 0]]], 'uint8'))[..., 0]
        array([[ 76, 150]], dtype=uint8)
        >>> F.to_grayscale(np.zeros((4, 4, 3), 'uint8'), 3).shape
        (4, 4, 3)
    """
    return _dispatch(img, F_pil.to_grayscale, F_np.to_grayscale, num_output_channels)


def normalize(
    img: Any,
    mean: float | Sequence[float],
    std: float | Sequence[float],
    data_format: str = "CHW",
    to_rgb: bool = False,
) -> Any:
    """Normalise per channel, as `paddle.vision.transforms.normalize`.

    `(img - mean) / std` per channel, in float32. A Tensor gives a Tensor (on its device);
    a PIL image or an array gives an array. `to_rgb` reverses the channel order first.

    Args:
        img (PIL.Image|numpy.ndarray|Tensor): an HWC image (PIL or array, any dtype) or a CHW
            Tensor.
        mean (float|list|tuple): per channel, or one for all.
        std (float|list|tuple): per channel, or one for all.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.
        to_rgb (bool, optional): reverse the channel order first. Default: False.

    Returns:
        float32: a Tensor for a Tensor, else an array.

    Examples:
        >>> import framework as paddle
        >>> import framework.vision.transforms.functional as F
        >>> x = paddle.to_tensor([[[0.5]], [[1.0]], [[0.0]]])
        >>> print(F.normalize(x, mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5]).flatten())
        Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [ 0.,  1., -1.])
    """
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
