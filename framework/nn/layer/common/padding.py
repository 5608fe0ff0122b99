"""Constant-padding layers: Pad1D, Pad2D and ZeroPad2D over one base, as in `paddle.nn`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer


class _PadNd(Layer):
    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str,
        value: float,
        data_format: str,
        dims: int,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.padding = [padding] * (2 * dims) if isinstance(padding, int) else list(padding)
        self._mode = mode
        self.value = value
        self._data_format = data_format
        self._name = name

    def forward(self, x: Tensor) -> Tensor:
        return F.pad(
            x, self.padding, mode=self._mode, value=self.value, data_format=self._data_format
        )

    def extra_repr(self) -> str:
        named = f", name={self._name}" if self._name else ""
        return (
            f"padding={self.padding}, mode={self._mode}, value={self.value}, "
            f"data_format={self._data_format}{named}"
        )


class Pad1D(_PadNd):
    """Padding of 3-D inputs, as `paddle.nn.Pad1D`.

    Pad the last axis of an NCL input by `[left, right]`; mode 'constant', 'reflect',
    'replicate' or 'circular'.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right]`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant for mode 'constant'. Default: 0.0.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(paddle.nn.Pad1D([1, 2], mode='reflect')(x))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[2., 1., 2., 3., 2., 1.]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCL",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format, 1, name)


class Pad2D(_PadNd):
    """Padding of 4-D inputs, as `paddle.nn.Pad2D`.

    Pad H and W of an NCHW input by `[left, right, top, bottom]`; mode 'constant',
    'reflect', 'replicate' or 'circular'.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant for mode 'constant'. Default: 0.0.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.Pad2D([1, 0, 1, 0], value=9.0)(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[9., 9., 9.],
                  [9., 1., 2.],
                  [9., 3., 4.]]]])
    """

    def __init__(
        self,
        padding: int | Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(padding, mode, value, data_format, 2, name)


class ZeroPad2D(Pad2D):
    """Zero padding of 4-D inputs, as `paddle.nn.ZeroPad2D`.

    Pad H and W of an NCHW (or NHWC) input with zeros by `[left, right, top, bottom]`.

    Args:
        padding (int|list|tuple|Tensor): one int for every side, or `[left, right, top, bottom]`.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        - output: the input's dtype, each padded axis grown by its two pads.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(paddle.nn.ZeroPad2D([1, 0, 1, 0])(x))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0., 0., 0.],
                  [0., 1., 2.],
                  [0., 3., 4.]]]])
    """

    def __init__(
        self, padding: int | Sequence[int], data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__(padding, "constant", 0.0, data_format, name)
