"""maxout: the maximum over groups of consecutive channels, as `paddle.nn.functional.maxout`."""

from __future__ import annotations

from framework.core.tensor import Tensor


def maxout(x: Tensor, groups: int, axis: int = 1, name: str | None = None) -> Tensor:
    """Maxout, as `paddle.nn.functional.maxout`.

    `[N, C, H, W]` -> `[N, C / groups, H, W]`: output channel i is the maximum of input
    channels `i * groups .. i * groups + groups - 1`. `axis` is 1 (NCHW) or -1 / 3 (NHWC).

    Args:
        x (Tensor): `[N, C, H, W]` (or NHWC); float32 or float64.
        groups (int): divides C; each output channel is the max of `groups` inputs.
        axis (int, optional): the channel axis, 1 or -1 / 3. Default: 1.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C / groups, H, W]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.maxout(paddle.to_tensor([[[[1.0]], [[4.0]], [[3.0]], [[2.0]]]]), groups=2))
        Tensor(shape=[1, 2, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[4.]],
        <BLANKLINE>
                 [[3.]]]])
    """
    if axis not in (1, -1, 3):
        raise ValueError(
            "Attr(axis) should be 1 when data format is NCHW, -1 or 3 when data format is NHWC. "
            f"Received Attr(axis): {axis}."
        )
    if x.ndim != 4:
        raise ValueError(f"maxout expects a 4-D input, got shape {x.shape}")
    axis = axis % 4
    channels = x.shape[axis]
    if channels % groups:
        raise ValueError(f"the {channels} channels are not divisible by groups={groups}")
    shape = x.shape
    split = shape[:axis] + [channels // groups, groups] + shape[axis + 1 :]
    return x.reshape(split).max(axis=axis + 1)
