"""Sliding blocks: `unfold` (im2col) and `fold` (col2im), as in `paddle.nn.functional`."""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.conv_geometry import ConvGeometry, as_pair
from framework.core.tensor import Tensor
from framework.ops.nn.unfold import Fold, Unfold


def _unfold_geometry(op, in_size, kernel_sizes, strides, paddings, dilations) -> ConvGeometry:
    kernel = as_pair(kernel_sizes, "kernel_sizes")
    stride = as_pair(strides, "strides")
    dilation = as_pair(dilations, "dilations")
    pads = [paddings] * 4 if isinstance(paddings, int) else [int(p) for p in paddings]
    if len(pads) == 2:
        pads = [pads[0], pads[1], pads[0], pads[1]]
    if len(pads) != 4:
        raise ValueError(f"{op}: paddings must be an int, 2 or 4 values, got {paddings}")
    padding = ((pads[0], pads[2]), (pads[1], pads[3]))  # Paddle: [top, left, bottom, right]
    geom = ConvGeometry.for_input(tuple(in_size), kernel, stride, padding, dilation, 1)
    if min(geom.out_size) < 1:
        raise ValueError(f"{op}: the kernel {list(kernel)} does not fit the input {in_size}")
    return geom


def unfold(
    x: Tensor,
    kernel_sizes: int | Sequence[int],
    strides: int | Sequence[int] = 1,
    paddings: int | Sequence[int] = 0,
    dilations: int | Sequence[int] = 1,
    name: str | None = None,
) -> Tensor:
    """Sliding windows into columns (im2col), as `paddle.nn.functional.unfold`.

    Sliding windows as columns (im2col): `[N, C, H, W] -> [N, C*kh*kw, L]`.

    `paddings` is an int, `[ph, pw]` or `[top, left, bottom, right]` (Paddle's order).

    Args:
        x (Tensor): `[N, C, H, W]`; float32 or float64.
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        strides (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): an int, `[ph, pw]` or `[top, left, bottom, right]`.
            Default: 0.
        dilations (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C * kh * kw, L]`, one column per window position.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(9, dtype='float32').reshape([1, 1, 3, 3])
        >>> print(F.unfold(x, kernel_sizes=2))
        Tensor(shape=[1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """
    if x.ndim != 4:
        raise ValueError(f"unfold: expected a 4-D input, got shape {x.shape}")
    geom = _unfold_geometry("unfold", x.shape[2:], kernel_sizes, strides, paddings, dilations)
    return Unfold(geom).apply(x)


def fold(
    x: Tensor,
    output_sizes: int | Sequence[int],
    kernel_sizes: int | Sequence[int],
    strides: int | Sequence[int] = 1,
    paddings: int | Sequence[int] = 0,
    dilations: int | Sequence[int] = 1,
    name: str | None = None,
) -> Tensor:
    """Columns back into an image (col2im), as `paddle.nn.functional.fold`.

    Sum columns back into an image (col2im), the adjoint of `unfold`:
    `[N, C*kh*kw, L] -> [N, C, H, W]` with `(H, W) = output_sizes`.

    Args:
        x (Tensor): `[N, C * kh * kw, L]` columns; float32 or float64.
        output_sizes (int|list|tuple): the image's `[H, W]`.
        kernel_sizes (int|list|tuple): the window's `[kh, kw]`.
        strides (int|list|tuple, optional): Default: 1.
        paddings (int|list|tuple, optional): Default: 0.
        dilations (int|list|tuple, optional): Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, H, W]`, overlapping windows summed.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.fold(paddle.ones([1, 4, 4]), output_sizes=[3, 3], kernel_sizes=2))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    size = as_pair(output_sizes, "output_sizes")
    geom = _unfold_geometry("fold", size, kernel_sizes, strides, paddings, dilations)
    kh, kw = geom.kernel
    if x.ndim != 3 or x.shape[1] % (kh * kw) or x.shape[2] != math.prod(geom.out_size):
        raise ValueError(
            f"fold: expected [N, C*{kh}*{kw}, {math.prod(geom.out_size)}] columns for output "
            f"{list(size)}, got shape {x.shape}"
        )
    return Fold(geom).apply(x)
