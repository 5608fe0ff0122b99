"""Random warps: `RandomAffine` and `RandomPerspective`, as in `paddle.vision.transforms`.

Their parameters come from the framework's generator (`framework.core.random.get_rng()`),
seeded by `framework.seed`, once per call, so every input of a call gets the same warp.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from framework.core.random import get_rng
from framework.vision.transforms import functional as F
from framework.vision.transforms.base import BaseTransform
from framework.vision.transforms.functional_pil import WARP_INTERPOLATIONS


def _check_sequence(value: Any, name: str, lengths: tuple[int, ...]) -> None:
    expected = " or ".join(str(n) for n in lengths)
    if not isinstance(value, Sequence):
        raise TypeError(f"{name} should be a sequence of length {expected}.")
    if len(value) not in lengths:
        raise ValueError(f"{name} should be sequence of length {expected}.")


def _angle_range(value: float | Sequence[float], name: str, lengths: tuple[int, ...]) -> list:
    """A number n means (-n, n); a sequence is taken as given, as Paddle's `_setup_angle`."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        return [-float(value), float(value)]
    _check_sequence(value, name, lengths)
    return [float(v) for v in value]


def _check_interpolation(interpolation: str) -> str:
    if interpolation not in WARP_INTERPOLATIONS:
        raise ValueError(
            f"interpolation should be one of {WARP_INTERPOLATIONS}, got {interpolation!r}"
        )
    return interpolation


class RandomAffine(BaseTransform):
    """A random affine warp, as `paddle.vision.transforms.RandomAffine`.

    Rotate, translate, scale and shear by random amounts (see `functional.affine`).

    `degrees`: rotation range, clockwise (a number n means (-n, n)). `translate` = (a, b):
    shifts drawn from (-a * width, a * width) and (-b * height, b * height), truncated to
    whole pixels, with a and b in [0, 1]. `scale` = (low, high): the scale factor's range.
    `shear`: x-shear range as a number n (-n, n) or a pair, or four values for x and y
    ranges. None means no such change. `center` is the rotation centre (x, y), default the
    middle. PIL images, HWC arrays and CHW Tensors keep their size and kind.

    Args:
        degrees (float|list|tuple): the rotation's range, clockwise; a number n is (-n, n).
        translate (list|tuple, optional): `(a, b)` fractions of width and height. Default: None.
        scale (list|tuple, optional): the scale factor's `(low, high)`. Default: None.
        shear (float|list|tuple, optional): x-shear range, or four values for x and y. Default:
            None.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.
        center (list|tuple, optional): the centre `(x, y)`; None is the middle. Default: None.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.zeros((40, 60, 3), 'uint8')
        >>> _ = paddle.seed(1)
        >>> T.RandomAffine(15, translate=(0.1, 0.1), scale=(0.9, 1.1))(img).shape
        (40, 60, 3)
    """

    def __init__(
        self,
        degrees: float | Sequence[float],
        translate: Sequence[float] | None = None,
        scale: Sequence[float] | None = None,
        shear: float | Sequence[float] | None = None,
        interpolation: str = "nearest",
        fill: int | Sequence[int] = 0,
        center: Sequence[float] | None = None,
        keys: Sequence[str] | None = None,
    ) -> None:
        self.degrees = _angle_range(degrees, "degrees", (2,))
        super().__init__(keys)
        self.interpolation = _check_interpolation(interpolation)
        if translate is not None:
            _check_sequence(translate, "translate", (2,))
            if not all(0.0 <= t <= 1.0 for t in translate):
                raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence(scale, "scale", (2,))
            if not all(s > 0 for s in scale):
                raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = None if shear is None else _angle_range(shear, "shear", (2, 4))
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill
        if center is not None:
            _check_sequence(center, "center", (2,))
        self.center = center

    def _get_params(self, inputs: tuple) -> tuple:
        width, height = F.get_image_size(inputs[0])
        rng = get_rng()
        angle = float(rng.uniform(self.degrees[0], self.degrees[1]))
        translations = (0, 0)
        if self.translate is not None:
            max_dx = float(self.translate[0] * width)
            max_dy = float(self.translate[1] * height)
            translations = (int(rng.uniform(-max_dx, max_dx)), int(rng.uniform(-max_dy, max_dy)))
        scale = 1.0 if self.scale is None else float(rng.uniform(self.scale[0], self.scale[1]))
        shear_x = shear_y = 0.0
        if self.shear is not None:
            shear_x = float(rng.uniform(self.shear[0], self.shear[1]))
            if len(self.shear) == 4:
                shear_y = float(rng.uniform(self.shear[2], self.shear[3]))
        return angle, translations, scale, (shear_x, shear_y)

    def _apply_image(self, img: Any) -> Any:
        angle, translations, scale, shear = self.params
        return F.affine(
            img, angle, translations, scale, shear, self.interpolation, self.fill, self.center
        )


class RandomPerspective(BaseTransform):
    """A random perspective warp, as `paddle.vision.transforms.RandomPerspective`.

    With probability `prob`, pull the four corners inwards by random amounts (up to
    `distortion_scale` of half the width and height, both in [0, 1]) and warp the image to
    match (see `functional.perspective`); otherwise return it unchanged.

    Args:
        prob (float, optional): the warp's probability. Default: 0.5.
        distortion_scale (float, optional): in [0, 1], how far the corners move. Default: 0.5.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> warp = T.RandomPerspective(prob=1.0, distortion_scale=0.9)
        >>> warp(np.zeros((200, 150, 3), 'uint8')).shape
        (200, 150, 3)
    """

    def __init__(
        self,
        prob: float = 0.5,
        distortion_scale: float = 0.5,
        interpolation: str = "nearest",
        fill: int | Sequence[int] = 0,
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError(f"probability must be between 0 and 1, got {prob}")
        if not 0 <= distortion_scale <= 1:
            raise ValueError(f"distortion_scale must be between 0 and 1, got {distortion_scale}")
        if not isinstance(fill, (numbers.Number, list, tuple)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = _check_interpolation(interpolation)
        self.fill = fill

    def get_params(
        self, width: int, height: int, distortion_scale: float
    ) -> tuple[list[list[int]], list[list[int]]]:
        """(startpoints, endpoints): the image's corners and where each goes, both ordered
        [top-left, top-right, bottom-right, bottom-left], drawn as Paddle draws them."""
        rng = get_rng()
        dx = int(distortion_scale * (width // 2))
        dy = int(distortion_scale * (height // 2))

        def near_start(limit: int) -> int:
            return int(rng.uniform(0, limit + 1))

        def near_end(size: int, limit: int) -> int:
            return int(rng.uniform(size - limit - 1, size))

        topleft = [near_start(dx), near_start(dy)]
        topright = [near_end(width, dx), near_start(dy)]
        botright = [near_end(width, dx), near_end(height, dy)]
        botleft = [near_start(dx), near_end(height, dy)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def _get_params(self, inputs: tuple) -> tuple | None:
        if not get_rng().random() < self.prob:
            return None
        width, height = F.get_image_size(inputs[0])
        return self.get_params(width, height, self.distortion_scale)

    def _apply_image(self, img: Any) -> Any:
        if self.params is None:
            return img
        startpoints, endpoints = self.params
        return F.perspective(img, startpoints, endpoints, self.interpolation, self.fill)
