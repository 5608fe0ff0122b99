"""Colour adjustments: brightness, contrast, saturation, hue and grayscale, as in
`paddle.vision.transforms.functional`.
"""

from __future__ import annotations

from typing import Any

from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.functional.image_kinds import _dispatch


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
