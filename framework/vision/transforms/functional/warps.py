"""Warping images: `rotate`, `affine` and `perspective`, as in
`paddle.vision.transforms.functional`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.functional.image_kinds import _dispatch, get_image_size
from framework.vision.transforms.warp_matrices import (
    inverse_affine_matrix,
    perspective_coefficients,
)


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
