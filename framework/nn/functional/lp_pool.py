"""Power-average pooling: `lp_pool1d` and `lp_pool2d`, as in `paddle.nn.functional`.

`y = (sum over the window of x ** p) ** (1 / p)`: a sum pooling (an average pooling with divisor
1, so zero padding adds nothing) of `x ** p`, then the p-th root; `p = inf` is a max pooling.
Gradients of any order come from those ops. As in Paddle, a negative window sum with a
fractional root (odd p over negative inputs) gives NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.nn.functional.pooling import _avg_pool, _max_pool

Size = int | Sequence[int]


def _lp_pool(
    op: str,
    x: Tensor,
    norm_type: float,
    kernel_size: Size,
    stride: Size | None,
    padding,
    ceil_mode: bool,
    data_format: str,
    dims: int,
) -> Tensor:
    p = float(norm_type)
    if not p > 0:
        raise ValueError(f"{op}: norm_type must be positive, got {norm_type!r}")
    if math.isinf(p):
        return _max_pool(op, x, kernel_size, stride, padding, False, ceil_mode, data_format, dims)
    powered = x * x if p == 2.0 else x**p
    sums = _avg_pool(
        op, powered, kernel_size, stride, padding, ceil_mode, True, 1, data_format, dims
    )
    return sums.sqrt() if p == 2.0 else sums ** (1.0 / p)


def lp_pool1d(
    x: Tensor,
    norm_type: float,
    kernel_size: Size,
    stride: Size | None = None,
    padding: str | Size = 0,
    ceil_mode: bool = False,
    data_format: str = "NCL",
    name: str | None = None,
) -> Tensor:
    """1-D power-average pooling, as `paddle.nn.functional.lp_pool1d`.

    1-D power-average pooling of `[N, C, L]` (or NLC) -> `[N, C, L_out]`, float dtypes.

    `stride` defaults to `kernel_size`; `padding` is an int, `[lo, hi]`-style list or
    'SAME'/'VALID'; `norm_type` p may be `float('inf')` (max pooling).

    Args:
        x (Tensor): `[N, C, L]` ('NCL') or `[N, L, C]` ('NLC'); float32 or float64.
        norm_type (float): the power p; `float('inf')` is max pooling.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        data_format (str, optional): the input's layout. Default: 'NCL'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[3.0, 4.0, 1.0, 0.0]]])
        >>> print(F.lp_pool1d(x, norm_type=2, kernel_size=2))
        Tensor(shape=[1, 1, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[5., 1.]]])
    """
    return _lp_pool(
        "lp_pool1d", x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 1
    )


def lp_pool2d(
    x: Tensor,
    norm_type: float,
    kernel_size: Size,
    stride: Size | None = None,
    padding: str | Size = 0,
    ceil_mode: bool = False,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """2-D power-average pooling, as `paddle.nn.functional.lp_pool2d`.

    2-D power-average pooling of `[N, C, H, W]` (or NHWC) -> `[N, C, H_out, W_out]`.

    `y = (sum of x ** p over each kernel_size window) ** (1 / p)`; `stride` defaults to
    `kernel_size`, padding and ceil_mode follow `avg_pool2d`.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]` ('NHWC'); float32 or float64.
        norm_type (float): the power p; `float('inf')` is max pooling.
        kernel_size (int|list|tuple): the window, one int or one per spatial axis.
        stride (int|list|tuple, optional): the window's step; None is `kernel_size`. Default: None.
        padding (int|list|tuple|str, optional): an int, one per axis, pairs, or 'SAME' / 'VALID'.
            Default: 0.
        ceil_mode (bool, optional): round the output size up. Default: False.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the pooled input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.lp_pool2d(paddle.ones([1, 1, 2, 2]), norm_type=2, kernel_size=2))
        Tensor(shape=[1, 1, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[2.]]]])
        >>> F.lp_pool2d(paddle.ones([1, 2, 6, 6]), norm_type=3, kernel_size=2).shape
        paddle.Size([1, 2, 3, 3])
    """
    return _lp_pool(
        "lp_pool2d", x, norm_type, kernel_size, stride, padding, ceil_mode, data_format, 2
    )
