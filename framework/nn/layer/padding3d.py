"""Pad3D and ZeroPad3D, as in `paddle.nn` (`F.pad` over the D, H and W axes)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.nn.layer.common import _PadNd


class Pad3D(_PadNd):
    """Pad D, H and W of an NCDHW (or NDHWC) input by `[left, right, top, bottom, front,
    back]` (an int pads all six); mode 'constant', 'reflect', 'replicate' or 'circular'.

        pad = framework.nn.Pad3D([1, 1, 0, 0, 2, 0])
        pad(framework.ones([1, 1, 2, 3, 4])).shape   # [1, 1, 4, 3, 6]
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCDHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format, 3, name)


class ZeroPad3D(Pad3D):
    """Pad3D with zeros."""

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCDHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)
