"""Sliding-block layers: Unfold (im2col) and Fold (col2im), as in `paddle.nn`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn import functional as F
from framework.nn.layer.layers import Layer


class Unfold(Layer):
    """Sliding windows into columns (im2col), as `paddle.nn.Unfold`.

    Extract sliding `kernel_sizes` blocks of an NCHW input into columns
    `[N, C * kh * kw, L]` (im2col).

    Args:
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        dilations (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): an int, `[ph, pw]` or `[top, left, bottom, right]`.
            Default: 0.
        strides (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C, H, W]`; float32 or float64.
        - output: `[N, C * kh * kw, L]`, one column per window position.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.arange(9, dtype='float32').reshape([1, 1, 3, 3])
        >>> print(paddle.nn.Unfold(kernel_sizes=2)(x))
        Tensor(shape=[1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """

    def __init__(
        self,
        kernel_sizes: int | Sequence[int],
        dilations: int | Sequence[int] = 1,
        paddings: int | Sequence[int] = 0,
        strides: int | Sequence[int] = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )


class Fold(Layer):
    """Columns back into an image (col2im), as `paddle.nn.Fold`.

    Sum columns `[N, C * kh * kw, L]` back into an `[N, C, *output_sizes]` image (col2im).

    Args:
        output_sizes (int|list|tuple): the image's `[H, W]`.
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        dilations (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): Default: 0.
        strides (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Shape:
        - x: `[N, C * kh * kw, L]` columns; float32 or float64.
        - output: `[N, C, H, W]`, overlapping windows summed.

    Examples:
        >>> import framework as paddle
        >>> fold = paddle.nn.Fold(output_sizes=[3, 3], kernel_sizes=2)
        >>> print(fold(paddle.ones([1, 4, 4])))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """

    def __init__(
        self,
        output_sizes: int | Sequence[int],
        kernel_sizes: int | Sequence[int],
        dilations: int | Sequence[int] = 1,
        paddings: int | Sequence[int] = 0,
        strides: int | Sequence[int] = 1,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.output_sizes = output_sizes
        self.kernel_sizes = kernel_sizes
        self.dilations = dilations
        self.paddings = paddings
        self.strides = strides

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(
            input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}"
        )
