"""Colour transforms: brightness, contrast, saturation, hue, their random mix, greyscale."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from framework.core.random import get_rng
from framework.vision.transforms import functional as F
from framework.vision.transforms.base import BaseTransform


def _check_input(
    value: float | Sequence[float],
    name: str,
    center: float = 1,
    bound: tuple[float, float] = (0, float("inf")),
    clip_first_on_zero: bool = True,
) -> list[float] | None:
    """A factor range: a number v means [center - v, center + v]; None means no change."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be non negative.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, tuple | list) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
        value = list(value)
    else:
        raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
    return None if value[0] == value[1] == center else value


class _RandomFactor(BaseTransform):
    """Apply `_adjust(img, factor)` with a factor drawn uniformly from the range."""

    _name = ""
    _center = 1.0
    _bound: tuple[float, float] = (0, float("inf"))

    def __init__(self, value: float | Sequence[float], keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.value = _check_input(
            value,
            self._name,
            center=self._center,
            bound=self._bound,
            clip_first_on_zero=self._center == 1.0,
        )

    def _get_params(self, inputs: tuple) -> float | None:
        if self.value is None:
            return None
        return float(get_rng().uniform(self.value[0], self.value[1]))

    def _apply_image(self, img: Any) -> Any:
        return img if self.params is None else self._adjust(img, self.params)

    @staticmethod
    def _adjust(img: Any, factor: float) -> Any:
        raise NotImplementedError


class BrightnessTransform(_RandomFactor):
    """Random brightness, as `paddle.vision.transforms.BrightnessTransform`.

    Brightness factor drawn from [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): the factor's spread, or its `[low, high]` range.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> T.BrightnessTransform(0.4)(np.full((1, 1, 3), 100, 'uint8'))
        array([[[100, 100, 100]]], dtype=uint8)
    """

    _name = "brightness"
    _adjust = staticmethod(F.adjust_brightness)


class ContrastTransform(_RandomFactor):
    """Random contrast, as `paddle.vision.transforms.ContrastTransform`.

    Contrast factor drawn from [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): the factor's spread, or its `[low, high]` range.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> T.ContrastTransform(0.4)(np.array([[[0, 0, 0], [200, 200, 200]]], 'uint8'))
        array([[[  0,   0,   0],
                [200, 200, 200]]], dtype=uint8)
    """

    _name = "contrast"
    _adjust = staticmethod(F.adjust_contrast)


class SaturationTransform(_RandomFactor):
    """Random saturation, as `paddle.vision.transforms.SaturationTransform`.

    Saturation factor drawn from [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): the factor's spread, or its `[low, high]` range.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> T.SaturationTransform(0.4)(np.array([[[200, 0, 0]]], 'uint8'))
        array([[[201,   0,   0]]], dtype=uint8)
    """

    _name = "saturation"
    _adjust = staticmethod(F.adjust_saturation)


class HueTransform(_RandomFactor):
    """Random hue shift, as `paddle.vision.transforms.HueTransform`.

    Hue shift drawn from [-value, value], value in [0, 0.5].

    Args:
        value (float|list|tuple): the shift's spread in turns, in [0, 0.5], or its range.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> T.HueTransform(0.2)(np.array([[[255, 0, 0]]], 'uint8'))
        array([[[255,   6,   0]]], dtype=uint8)
    """

    _name = "hue"
    _center = 0.0
    _bound = (-0.5, 0.5)
    _adjust = staticmethod(F.adjust_hue)


class ColorJitter(BaseTransform):
    """Random brightness, contrast, saturation and hue, as `paddle.vision.transforms.ColorJitter`.

    Randomly change brightness, contrast, saturation and hue, in a random order.

    Args:
        brightness (float|list|tuple, optional): as `BrightnessTransform`. Default: 0.
        contrast (float|list|tuple, optional): as `ContrastTransform`. Default: 0.
        saturation (float|list|tuple, optional): as `SaturationTransform`. Default: 0.
        hue (float|list|tuple, optional): as `HueTransform`. Default: 0.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> jitter = T.ColorJitter(brightness=0.4, contrast=0.4, saturation=0.4, hue=0.1)
        >>> jitter(np.full((1, 2, 3), 120, 'uint8'))
        array([[[85, 85, 85],
                [85, 85, 85]]], dtype=uint8)
    """

    def __init__(
        self,
        brightness: float | Sequence[float] = 0,
        contrast: float | Sequence[float] = 0,
        saturation: float | Sequence[float] = 0,
        hue: float | Sequence[float] = 0,
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue
        self._parts = [
            BrightnessTransform(brightness, keys),
            ContrastTransform(contrast, keys),
            SaturationTransform(saturation, keys),
            HueTransform(hue, keys),
        ]

    def _get_params(self, inputs: tuple) -> list[tuple[_RandomFactor, float | None]]:
        rng = get_rng()
        order = rng.permutation(len(self._parts)).tolist()
        return [(self._parts[i], self._parts[i]._get_params(inputs)) for i in order]

    def _apply_image(self, img: Any) -> Any:
        for part, factor in self.params:
            if factor is not None:
                img = part._adjust(img, factor)
        return img


class Grayscale(BaseTransform):
    """Convert to greyscale, as `paddle.vision.transforms.Grayscale`.

    Convert to greyscale with 1 or 3 output channels.

    Args:
        num_output_channels (int, optional): 1, or 3 to repeat the luma. Default: 1.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> T.Grayscale()(np.array([[[255, 0, 0], [0, 255, 0]]], 'uint8'))[..., 0]
        array([[ 76, 150]], dtype=uint8)
        >>> T.Grayscale(3)(np.zeros((4, 4, 3), 'uint8')).shape
        (4, 4, 3)
    """

    def __init__(self, num_output_channels: int = 1, keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img: Any) -> Any:
        return F.to_grayscale(img, self.num_output_channels)
