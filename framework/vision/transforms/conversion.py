"""`ToTensor` and `Normalize`: from images to the float tensors a network takes."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from framework.vision.transforms import functional as F
from framework.vision.transforms.base import BaseTransform


class ToTensor(BaseTransform):
    """HWC image (PIL or uint8 array) -> float32 Tensor in [0, 1], laid out as `data_format`.

    ToTensor()(Image.new("RGB", (4, 2))).shape   # [3, 2, 4]
    """

    def __init__(self, data_format: str = "CHW", keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img: Any) -> Any:
        return F.to_tensor(img, self.data_format)


class Normalize(BaseTransform):
    """`(img - mean) / std` per channel. `to_rgb` reverses the channel order first (BGR ->
    RGB). A number for `mean` or `std` applies to all three channels.

        Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
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
