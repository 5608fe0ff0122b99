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
    """Brightness factor drawn from [max(0, 1 - value), 1 + value]."""

    _name = "brightness"
    _adjust = staticmethod(F.adjust_brightness)


class ContrastTransform(_RandomFactor):
    """Contrast factor drawn from [max(0, 1 - value), 1 + value]."""

    _name = "contrast"
    _adjust = staticmethod(F.adjust_contrast)


class SaturationTransform(_RandomFactor):
    """Saturation factor drawn from [max(0, 1 - value), 1 + value]."""

    _name = "saturation"
    _adjust = staticmethod(F.adjust_saturation)


class HueTransform(_RandomFactor):
    """Hue shift drawn from [-value, value], value in [0, 0.5]."""

    _name = "hue"
    _center = 0.0
    _bound = (-0.5, 0.5)
    _adjust = staticmethod(F.adjust_hue)


class ColorJitter(BaseTransform):
    """Randomly change brightness, contrast, saturation and hue, in a random order."""

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
    """Convert to greyscale with 1 or 3 output channels."""

    def __init__(self, num_output_channels: int = 1, keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img: Any) -> Any:
        return F.to_grayscale(img, self.num_output_channels)
