"""Channel/space rearrangements: `pixel_shuffle`, `pixel_unshuffle` and `channel_shuffle`
(Paddle's `nn.functional.vision`), composed from reshape and transpose, so their gradients
of any order and graph export come from those ops."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.manipulation import transpose

_LAYOUTS = ("NCHW", "NHWC")


def _check(op: str, x: Tensor, factor: int, data_format: str, what: str) -> None:
    if data_format not in _LAYOUTS:
        raise ValueError(f"{op}: data_format must be one of {_LAYOUTS}, got {data_format!r}")
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D input ({data_format}), got shape {x.shape}")
    if not isinstance(factor, int) or factor < 1:
        raise ValueError(f"{op}: {what} must be a positive int, got {factor!r}")


def pixel_shuffle(
    x: Tensor, upscale_factor: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Channels into space (sub-pixel convolution), as `paddle.nn.functional.pixel_shuffle`.

    `[N, C * r * r, H, W] -> [N, C, H * r, W * r]` (r = upscale_factor): each group of
    r*r channels becomes an r x r block of pixels (sub-pixel convolution).

    Args:
        x (Tensor): `[N, C * r * r, H, W]` ('NCHW') or channels last; any dtype.
        upscale_factor (int): r.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, H * r, W * r]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(4, dtype='float32').reshape([1, 4, 1, 1])
        >>> print(F.pixel_shuffle(x, 2))
        Tensor(shape=[1, 1, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0., 1.],
                  [2., 3.]]]])
        >>> F.pixel_shuffle(paddle.ones([2, 36, 4, 4]), 3).shape
        paddle.Size([2, 4, 12, 12])
    """
    r = upscale_factor
    _check("pixel_shuffle", x, r, data_format, "upscale_factor")
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(
            f"pixel_shuffle: the channels ({c}) must be divisible by upscale_factor**2 ({r * r})"
        )
    if data_format == "NHWC":
        y = x.reshape([-1, h, w, c // (r * r), r, r])
        return transpose(y, [0, 1, 4, 2, 5, 3]).reshape([-1, h * r, w * r, c // (r * r)])
    y = x.reshape([-1, c // (r * r), r, r, h, w])
    return transpose(y, [0, 1, 4, 2, 5, 3]).reshape([-1, c // (r * r), h * r, w * r])


def pixel_unshuffle(
    x: Tensor, downscale_factor: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Space into channels, as `paddle.nn.functional.pixel_unshuffle`.

    `[N, C, H * r, W * r] -> [N, C * r * r, H, W]`: the inverse of `pixel_shuffle`.

    Args:
        x (Tensor): `[N, C, H * r, W * r]` ('NCHW') or channels last; any dtype.
        downscale_factor (int): r.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C * r * r, H, W]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(4, dtype='float32').reshape([1, 1, 2, 2])
        >>> print(F.pixel_unshuffle(x, 2).flatten())
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 1., 2., 3.])
        >>> F.pixel_unshuffle(paddle.ones([2, 4, 12, 12]), 3).shape
        paddle.Size([2, 36, 4, 4])
    """
    r = downscale_factor
    _check("pixel_unshuffle", x, r, data_format, "downscale_factor")
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(
            f"pixel_unshuffle: height and width ({h}, {w}) must be divisible by "
            f"downscale_factor ({r})"
        )
    if data_format == "NHWC":
        y = x.reshape([-1, h // r, r, w // r, r, c])
        return transpose(y, [0, 1, 3, 5, 2, 4]).reshape([-1, h // r, w // r, c * r * r])
    y = x.reshape([-1, c, h // r, r, w // r, r])
    return transpose(y, [0, 1, 3, 5, 2, 4]).reshape([-1, c * r * r, h // r, w // r])


def channel_shuffle(
    x: Tensor, groups: int, data_format: str = "NCHW", name: str | None = None
) -> Tensor:
    """Interleave channel groups (ShuffleNet), as `paddle.nn.functional.channel_shuffle`.

    Interleave the channels of `groups` groups (ShuffleNet): channel `g * (C / groups) + i`
    moves to `i * groups + g`. Shape unchanged.

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]`; any dtype.
        groups (int): divides C.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.arange(6, dtype='float32').reshape([1, 6, 1, 1])
        >>> print(F.channel_shuffle(x, 3).flatten())
        Tensor(shape=[6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 4., 1., 3., 5.])
    """
    _check("channel_shuffle", x, groups, data_format, "groups")
    if data_format == "NHWC":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    if c % groups:
        raise ValueError(
            f"channel_shuffle: the channels ({c}) must be divisible by groups ({groups})"
        )
    if data_format == "NHWC":
        y = x.reshape([-1, h, w, groups, c // groups])
        return transpose(y, [0, 1, 2, 4, 3]).reshape([-1, h, w, c])
    y = x.reshape([-1, groups, c // groups, h, w])
    return transpose(y, [0, 2, 1, 3, 4]).reshape([-1, c, h, w])
