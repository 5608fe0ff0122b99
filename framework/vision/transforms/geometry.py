"""Geometric transforms: resizing, cropping, flipping, rotating, padding, transposing.

Random ones draw from the framework's generator (`framework.core.random.get_rng()`): seeded by
`framework.seed`, and by the per-worker seed inside DataLoader workers. The draw happens once
per call, so an image and its mask passed together get the same crop or flip.
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
from framework.vision.transforms.functional_pil import parse_padding


def _pair(size: int | Sequence[int]) -> tuple[int, int]:
    return (int(size), int(size)) if isinstance(size, numbers.Number) else tuple(size)


class Resize(BaseTransform):
    """Resize an image, as `paddle.vision.transforms.Resize`.

    Resize to `size` (height, width), or an int for the shorter side (aspect ratio kept).

    Args:
        size (int|list|tuple): `(height, width)`, or an int for the shorter side.
        interpolation (str, optional): 'nearest', 'bilinear', 'bicubic', 'box', 'area', 'lanczos' or
            'hamming'. Default: 'bilinear'.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.zeros((40, 60, 3), 'uint8')
        >>> T.Resize(20)(img).shape
        (20, 30, 3)
        >>> T.Resize((16, 16))(img).shape
        (16, 16, 3)
    """

    def __init__(
        self,
        size: int | Sequence[int],
        interpolation: str = "bilinear",
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        if not (isinstance(size, int) or (isinstance(size, Sequence) and len(size) == 2)):
            raise TypeError(f"size should be an int or a (height, width) pair, got {size!r}")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img: Any) -> Any:
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crop a random area and resize it, as `paddle.vision.transforms.RandomResizedCrop`.

    Crop a random area fraction `scale` with aspect ratio in `ratio` (drawn log-uniformly),
    then resize it to `size`. After 10 failed draws it takes a central crop, as Paddle does.

    Args:
        size (int|list|tuple): the output `(height, width)`, or an int for a square.
        scale (list|tuple, optional): the area fraction's range. Default: (0.08, 1.0).
        ratio (list|tuple, optional): the aspect ratio's range. Default: (3/4, 4/3).
        interpolation (str, optional): as `Resize`. Default: 'bilinear'.
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
        >>> T.RandomResizedCrop(24)(img).shape
        (24, 24, 3)
    """

    def __init__(
        self,
        size: int | Sequence[int],
        scale: Sequence[float] = (0.08, 1.0),
        ratio: Sequence[float] = (3.0 / 4, 4.0 / 3),
        interpolation: str = "bilinear",
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        if scale[0] > scale[1]:
            raise ValueError("scale should be of kind (min, max)")
        if ratio[0] > ratio[1]:
            raise ValueError("ratio should be of kind (min, max)")
        self.size = _pair(size)
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _get_params(self, inputs: tuple, attempts: int = 10) -> tuple[int, int, int, int]:
        width, height = F.get_image_size(inputs[0])
        area = height * width
        rng = get_rng()
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(attempts):
            target_area = rng.uniform(*self.scale) * area
            aspect_ratio = math.exp(rng.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                top = int(rng.integers(0, height - h + 1))
                left = int(rng.integers(0, width - w + 1))
                return top, left, h, w
        in_ratio = width / height
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img: Any) -> Any:
        top, left, h, w = self.params
        return F.resize(F.crop(img, top, left, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the centre, as `paddle.vision.transforms.CenterCrop`.

    Crop the centre to `size` (an int for a square).

    Args:
        size (int|list|tuple): `(height, width)`, or an int for a square.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.zeros((40, 60, 3), 'uint8')
        >>> T.CenterCrop(10)(img).shape
        (10, 10, 3)
    """

    def __init__(self, size: int | Sequence[int], keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.size = _pair(size)

    def _apply_image(self, img: Any) -> Any:
        return F.center_crop(img, self.size)


class RandomCrop(BaseTransform):
    """Crop a random window, as `paddle.vision.transforms.RandomCrop`.

    Crop a random `size` window, after optional `padding`; with `pad_if_needed`, pad an
    image smaller than `size` first (with `fill` / `padding_mode`, as in `Pad`).

    Args:
        size (int|list|tuple): `(height, width)`, or an int for a square.
        padding (int|list|tuple, optional): padding added first, as `Pad`. Default: None.
        pad_if_needed (bool, optional): pad an image smaller than `size`. Default: False.
        fill (int|list|tuple, optional): as `Pad`. Default: 0.
        padding_mode (str, optional): as `Pad`. Default: 'constant'.
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
        >>> T.RandomCrop(32)(img).shape
        (32, 32, 3)
        >>> T.RandomCrop(48, pad_if_needed=True)(img).shape
        (48, 48, 3)
    """

    def __init__(
        self,
        size: int | Sequence[int],
        padding: int | Sequence[int] | None = None,
        pad_if_needed: bool = False,
        fill: int | Sequence[int] = 0,
        padding_mode: str = "constant",
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        self.size = _pair(size)
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _pad(self, img: Any) -> Any:
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        width, height = F.get_image_size(img)
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, (self.size[1] - width, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, (0, self.size[0] - height), self.fill, self.padding_mode)
        return img

    def _padded_size(self, img: Any) -> tuple[int, int]:
        width, height = F.get_image_size(img)
        if self.padding is not None:
            left, top, right, bottom = parse_padding(self.padding)
            width, height = width + left + right, height + top + bottom
        if self.pad_if_needed:
            width = max(width, self.size[1]) + max(0, self.size[1] - width)
            height = max(height, self.size[0]) + max(0, self.size[0] - height)
        return width, height

    def _get_params(self, inputs: tuple) -> tuple[int, int]:
        width, height = self._padded_size(inputs[0])
        th, tw = self.size
        if height < th or width < tw:
            raise ValueError(
                f"RandomCrop size {self.size} is larger than the image ({height}, {width}); "
                "use pad_if_needed=True or padding"
            )
        rng = get_rng()
        return int(rng.integers(0, height - th + 1)), int(rng.integers(0, width - tw + 1))

    def _apply_image(self, img: Any) -> Any:
        top, left = self.params
        return F.crop(self._pad(img), top, left, *self.size)


class RandomHorizontalFlip(BaseTransform):
    """Mirror left-right at random, as `paddle.vision.transforms.RandomHorizontalFlip`.

    Mirror left-right with probability `prob`.

    Args:
        prob (float, optional): the flip's probability. Default: 0.5.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.arange(12, dtype='uint8').reshape(2, 2, 3)  # HWC
        >>> T.RandomHorizontalFlip(prob=1.0)(img)[..., 0]
        array([[3, 0],
               [9, 6]], dtype=uint8)
    """

    def __init__(self, prob: float = 0.5, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise ValueError("probability must be between 0 and 1")
        self.prob = prob

    def _get_params(self, inputs: tuple) -> bool:
        return bool(get_rng().random() < self.prob)

    def _apply_image(self, img: Any) -> Any:
        return F.hflip(img) if self.params else img


class RandomVerticalFlip(RandomHorizontalFlip):
    """Mirror top-bottom at random, as `paddle.vision.transforms.RandomVerticalFlip`.

    Mirror top-bottom with probability `prob`.

    Args:
        prob (float, optional): the flip's probability. Default: 0.5.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.arange(12, dtype='uint8').reshape(2, 2, 3)  # HWC
        >>> T.RandomVerticalFlip(prob=1.0)(img)[..., 0]
        array([[6, 9],
               [0, 3]], dtype=uint8)
    """

    def _apply_image(self, img: Any) -> Any:
        return F.vflip(img) if self.params else img


class RandomRotation(BaseTransform):
    """Rotate by a random angle, as `paddle.vision.transforms.RandomRotation`.

    Rotate by an angle drawn uniformly from (-degrees, degrees) or the given range.

    Args:
        degrees (float|list|tuple): a number n for (-n, n), or the range.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        expand (bool, optional): grow the canvas to hold the whole result. Default: False.
        center (list|tuple, optional): the centre `(x, y)`; None is the middle. Default: None.
        fill (int|list|tuple, optional): the value of uncovered pixels. Default: 0.
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
        >>> T.RandomRotation(30)(img).shape
        (40, 60, 3)
        >>> T.RandomRotation((90, 90), expand=True)(img).shape
        (60, 40, 3)
    """

    def __init__(
        self,
        degrees: float | Sequence[float],
        interpolation: str = "nearest",
        expand: bool = False,
        center: Sequence[float] | None = None,
        fill: int | Sequence[int] = 0,
        keys: Sequence[str] | None = None,
    ) -> None:
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            degrees = (-degrees, degrees)
        elif len(degrees) != 2:
            raise ValueError("If degrees is a sequence, it must be of len 2.")
        super().__init__(keys)
        self.degrees = tuple(degrees)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_params(self, inputs: tuple) -> float:
        return float(get_rng().uniform(self.degrees[0], self.degrees[1]))

    def _apply_image(self, img: Any) -> Any:
        return F.rotate(img, self.params, self.interpolation, self.expand, self.center, self.fill)


class Pad(BaseTransform):
    """Pad the borders, as `paddle.vision.transforms.Pad`.

    Pad the borders (see `functional.pad`).

    Args:
        padding (int|list|tuple): one int, (left/right, top/bottom) or (left, top, right, bottom).
        fill (int|list|tuple, optional): the constant, per channel or for all. Default: 0.
        padding_mode (str, optional): 'constant', 'edge', 'reflect' or 'symmetric'. Default:
            'constant'.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        The transformed input, the same kind (PIL, array or Tensor) as the image given.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.zeros((40, 60, 3), 'uint8')
        >>> T.Pad(2)(img).shape
        (44, 64, 3)
        >>> small = np.arange(4, dtype='uint8').reshape(2, 2, 1)
        >>> T.Pad((1, 0, 0, 1), padding_mode='edge')(small)[..., 0]
        array([[0, 0, 1],
               [2, 2, 3],
               [2, 2, 3]], dtype=uint8)
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        fill: int | Sequence[int] = 0,
        padding_mode: str = "constant",
        keys: Sequence[str] | None = None,
    ) -> None:
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise ValueError(
                "Padding must be an int or a 2, or 4 element tuple, not a "
                f"{len(padding)} element tuple"
            )
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError(f"unknown padding_mode {padding_mode!r}")
        super().__init__(keys)
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.fill = tuple(fill) if isinstance(fill, list) else fill
        self.padding_mode = padding_mode

    def _apply_image(self, img: Any) -> Any:
        return F.pad(img, self.padding, self.fill, self.padding_mode)


class Transpose(BaseTransform):
    """Permute an image's axes, as `paddle.vision.transforms.Transpose`.

    Permute the axes of an image (default HWC -> CHW); a PIL image becomes an array.

    Args:
        order (list|tuple, optional): the new axis order. Default: (2, 0, 1).
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        numpy.ndarray: the image with its axes permuted (a PIL image becomes an array).

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> img = np.zeros((40, 60, 3), 'uint8')
        >>> T.Transpose()(img).shape
        (3, 40, 60)
    """

    def __init__(self, order: Sequence[int] = (2, 0, 1), keys: Sequence[str] | None = None):
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img: Any) -> Any:
        if F._is_tensor_image(img):
            return Tensor(img._data.transpose(self.order))
        img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., np.newaxis]
        return img.transpose(self.order)
