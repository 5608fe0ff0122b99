"""Pad3D and ZeroPad3D, as in `paddle.nn` (`F.pad` over the D, H and W axes)."""

from __future__ import annotations

from collections.abc import Sequence

from framework.nn.layer.common.padding import _PadNd


class Pad3D(_PadNd):
    """Padding of 5-D inputs, as `paddle.nn.Pad3D`.

    Pad D, H and W of an NCDHW (or NDHWC) input by `[left, right, top, bottom, front,
    back]` (an int pads all six); mode 'constant', 'reflect', 'replicate' or 'circular'.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant for mode 'constant'. Default: 0.0.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.Pad3D([1, 0, 0, 0, 0, 0], mode='replicate')(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[1., 1., 2.]]]]])
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
    """Zero padding of 5-D inputs, as `paddle.nn.ZeroPad3D`.

    Pad3D with zeros.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom,
            front, back]`.
        data_format (str, optional): the input's layout. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]` ('NDHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[[1.0, 2.0]]]]])
        >>> print(paddle.nn.ZeroPad3D([1, 0, 0, 0, 0, 0])(x))
        Tensor(shape=[1, 1, 1, 1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[[0., 1., 2.]]]]])
    """

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCDHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)
