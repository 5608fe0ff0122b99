"""Functional image transforms, as `paddle.vision.transforms.functional`.

Every function takes a PIL image, a NumPy array laid out HWC (or HW), or a framework Tensor
laid out CHW, and returns the same kind. PIL images use Pillow's own operations; NumPy arrays
give the same values for uint8 images (see `functional_numpy`); Tensors are converted to HWC
arrays, transformed, and returned as CHW Tensors on their device.

    img = resize(img, 256)            # shorter side to 256, aspect ratio kept
    img = center_crop(img, 224)
    x = normalize(to_tensor(img), mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])

This package re-exports them from its modules: `spatial` (resize, pad, crop, flips), `warps`
(rotate, affine, perspective), `color_adjust`, `tensor_ops` (to_tensor, normalize, erase), and
`image_kinds` (the dispatch by kind of image).
"""

from __future__ import annotations

# The names the module held before it became a package stay reachable by their old paths.
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image

from framework.core import backend
from framework.core.tensor import Tensor
from framework.vision.transforms import functional_numpy as F_np
from framework.vision.transforms import functional_pil as F_pil
from framework.vision.transforms.functional.color_adjust import (
    adjust_brightness,
    adjust_contrast,
    adjust_hue,
    adjust_saturation,
    to_grayscale,
)
from framework.vision.transforms.functional.image_kinds import (
    _is_numpy_image,
    _is_pil_image,
    _is_tensor_image,
    get_image_size,
)
from framework.vision.transforms.functional.spatial import (
    center_crop,
    crop,
    hflip,
    pad,
    resize,
    vflip,
)
from framework.vision.transforms.functional.tensor_ops import erase, normalize, to_tensor
from framework.vision.transforms.functional.warps import affine, perspective, rotate
from framework.vision.transforms.warp_matrices import (
    inverse_affine_matrix,
    perspective_coefficients,
)
