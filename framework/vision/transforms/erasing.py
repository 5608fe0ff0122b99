"""`RandomErasing`, as in `paddle.vision.transforms`: blank out a random rectangle.

The rectangle and any random fill come from the framework's generator
(`framework.core.random.get_rng()`), seeded by `framework.seed`, once per call.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.vision.transforms import functional as F
from framework.vision.transforms.base import BaseTransform


def _layout(img: Any) -> tuple[int, int, int, bool]:
    """(height, width, channels, channels_first) of a PIL image, HWC array or CHW Tensor."""
    if isinstance(img, Tensor):
        shape = img.shape
        return (*shape[-2:], shape[0] if len(shape) == 3 else 1, True)
    shape = np.asarray(img).shape
    return (*shape[:2], shape[2] if len(shape) == 3 else 1, False)


def _fit_dtype(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Random fill values as `dtype`: integer images get them rounded and clipped to the
    dtype's range, rather than wrapped around."""
    if np.issubdtype(dtype, np.integer) or dtype == np.bool_:
        info = np.iinfo(np.uint8 if dtype == np.bool_ else dtype)
        values = np.clip(np.rint(values), info.min, info.max)
    return values.astype(dtype)


class RandomErasing(BaseTransform):
    """Erase a random rectangle, as `paddle.vision.transforms.RandomErasing`.

    With probability `prob`, set a random rectangle of the image to `value`.

    The rectangle covers a fraction of the area drawn from `scale` and has a height / width
    ratio drawn log-uniformly from `ratio`; after 10 draws that do not fit inside the image
    it erases nothing, as Paddle does. `value` is a number, one value per channel (1 or 3),
    or "random" for normal noise (standard normal on a Tensor, times 255 on an array or PIL
    image, as Paddle draws it; integer images get it rounded and clipped to their range).
    Inputs: a CHW Tensor, an HWC array or a PIL image; `inplace` changes a Tensor or array
    itself.

    Args:
        prob (float, optional): the erasing's probability. Default: 0.5.
        scale (list|tuple, optional): the erased area fraction's range. Default: (0.02, 0.33).
        ratio (list|tuple, optional): the rectangle's height / width range. Default: (0.3, 3.3).
        value (float|list|tuple|str, optional): a number, one per channel, or 'random'. Default: 0.
        inplace (bool, optional): change a Tensor or array in place. Default: False.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> _ = paddle.seed(1)
        >>> x = T.RandomErasing(prob=1.0, value=0)(paddle.ones([1, 4, 4]))
        >>> float(x.sum()) < 16
        True
    """

    def __init__(
        self,
        prob: float = 0.5,
        scale: Sequence[float] = (0.02, 0.33),
        ratio: Sequence[float] = (0.3, 3.3),
        value: float | Sequence[float] | str = 0,
        inplace: bool = False,
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        if not isinstance(scale, (tuple, list)):
            raise TypeError("scale should be a tuple or list")
        if not (scale[0] >= 0 and scale[1] <= 1 and scale[0] <= scale[1]):
            raise ValueError("scale should be of kind (min, max) and in range [0, 1]")
        if not isinstance(ratio, (tuple, list)):
            raise TypeError("ratio should be a tuple or list")
        if not (ratio[0] >= 0 and ratio[0] <= ratio[1]):
            raise ValueError("ratio should be of kind (min, max)")
        if not 0 <= prob <= 1:
            raise ValueError("The probability should be in range [0, 1]")
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("value should be a number, tuple, list or str")
        if isinstance(value, str) and value != "random":
            raise ValueError("value must be 'random' when type is str")
        if isinstance(value, (tuple, list)) and len(value) not in (1, 3):
            raise ValueError(
                "Value should be a single number or a sequence with length equals to image's "
                "channel."
            )
        self.prob = prob
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    def _get_params(self, inputs: tuple) -> tuple[int, int, int, int] | None:
        rng = get_rng()
        if not rng.random() < self.prob:
            return None
        height, width, _, _ = _layout(inputs[0])
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(10):
            erase_area = rng.uniform(*self.scale) * area
            aspect_ratio = math.exp(rng.uniform(*log_ratio))
            erase_h = int(round(math.sqrt(erase_area * aspect_ratio)))
            erase_w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if erase_h >= height or erase_w >= width:
                continue
            top = int(rng.integers(0, height - erase_h + 1))
            left = int(rng.integers(0, width - erase_w + 1))
            return top, left, erase_h, erase_w
        return None

    def _fill(self, img: Any, erase_h: int, erase_w: int) -> Any:
        """The value `erase` writes, shaped for the image's layout."""
        _, _, channels, channels_first = _layout(img)
        dtype = np.asarray(img).dtype if not isinstance(img, Tensor) else img.dtype
        if self.value == "random":
            if channels_first:
                noise = get_rng().standard_normal((channels, erase_h, erase_w))
            else:
                noise = get_rng().standard_normal((erase_h, erase_w, channels)) * 255
            values = _fit_dtype(noise, dtype)
        else:
            per_channel = [self.value] if isinstance(self.value, numbers.Number) else self.value
            values = np.asarray(per_channel).astype(dtype)
            values = values.reshape((-1, 1, 1) if channels_first else (1, 1, -1))
        is_hw = (img.ndim if isinstance(img, Tensor) else np.asarray(img).ndim) == 2
        if is_hw:
            values = values[0] if channels_first else values[..., 0]
        return Tensor(values, place=img.place) if isinstance(img, Tensor) else values

    def _apply_image(self, img: Any) -> Any:
        if self.params is None:
            return img
        top, left, erase_h, erase_w = self.params
        fill = self._fill(img, erase_h, erase_w)
        return F.erase(img, top, left, erase_h, erase_w, fill, self.inplace)
