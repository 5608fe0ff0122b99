"""`ToTensor` and `Normalize`: from images to the float tensors a network takes."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from framework.vision.transforms import functional as F
from framework.vision.transforms.base import BaseTransform


class ToTensor(BaseTransform):
    """An HWC image to a CHW float Tensor, as `paddle.vision.transforms.ToTensor`.

    HWC image (PIL or uint8 array) -> float32 Tensor in [0, 1], laid out as `data_format`.

    Args:
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        Tensor: float32 in [0, 1] for uint8 input, laid out as `data_format`.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> t = T.ToTensor()(np.full((2, 4, 3), 255, 'uint8'))
        >>> t.shape, float(t.max())
        (paddle.Size([3, 2, 4]), 1.0)
    """

    def __init__(self, data_format: str = "CHW", keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img: Any) -> Any:
        return F.to_tensor(img, self.data_format)


class Normalize(BaseTransform):
    """Normalise per channel, as `paddle.vision.transforms.Normalize`.

    `(img - mean) / std` per channel. `to_rgb` reverses the channel order first (BGR ->
    RGB). A number for `mean` or `std` applies to all three channels.

    Args:
        mean (float|list|tuple, optional): per channel, or one for all. Default: 0.0.
        std (float|list|tuple, optional): per channel, or one for all. Default: 1.0.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.
        to_rgb (bool, optional): reverse the channel order first (BGR to RGB). Default: False.
        keys (list|tuple, optional): what each positional input is ('image', 'boxes', 'mask',
            'coords'); see `BaseTransform`. Default: None.

    Returns:
        float32: a Tensor for a Tensor, else an array.

    Examples:
        >>> import numpy as np
        >>> import framework as paddle
        >>> from framework.vision import transforms as T
        >>> norm = T.Normalize(mean=127.5, std=127.5, data_format='HWC')
        >>> norm(np.array([[[0, 127.5, 255]]], 'float32'))
        array([[[-1.,  0.,  1.]]], dtype=float32)
    """

    def __init__(
        self,
        mean: float | Sequence[float] = 0.0,
        std: float | Sequence[float] = 1.0,
        data_format: str = "CHW",
        to_rgb: bool = False,
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__(keys)
        self.mean = [mean] * 3 if isinstance(mean, numbers.Number) else mean
        self.std = [std] * 3 if isinstance(std, numbers.Number) else std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img: Any) -> Any:
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)
