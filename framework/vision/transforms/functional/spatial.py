"""Resizing, padding, cropping and flipping images, as in
`paddle.vision.transforms.functional`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.functional.image_kinds import _dispatch


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
