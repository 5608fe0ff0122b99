"""Zero padding of images, `zeropad2d`, as in `paddle.nn.functional`; `pad` is
`framework.ops.manipulation.pad`.
"""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.ops.manipulation.pad import pad


def zeropad2d(
    x: Tensor,
    padding: int | Sequence[int] | Tensor,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Zero padding of a 4-D input, as `paddle.nn.functional.zeropad2d`.

    Pad a 4-D input with zeros: `padding` is `[left, right, top, bottom]` (or one int for
    all four sides) on the spatial dims of `data_format` ('NCHW' or 'NHWC'). Same dtype.

    Args:
        x (Tensor): 4-D, `[N, C, H, W]` or `[N, H, W, C]`; any dtype.
        padding (int|list|tuple|Tensor): `[left, right, top, bottom]`, or one int for all four.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the padded input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.zeropad2d(paddle.ones([1, 1, 2, 2]), [1, 0, 1, 0]))
        Tensor(shape=[1, 1, 3, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[0., 0., 0.],
                  [0., 1., 1.],
                  [0., 1., 1.]]]])
    """
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"zeropad2d: data_format must be NCHW or NHWC, got {data_format!r}")
    if x.ndim != 4:
        raise ValueError(f"zeropad2d: expected a 4-D input, got shape {x.shape}")
    if isinstance(padding, Tensor):
        padding = padding.numpy().reshape(-1).tolist()
    values = [int(padding)] * 4 if isinstance(padding, int) else [int(v) for v in padding]
    if len(values) != 4:
        raise ValueError(f"zeropad2d: padding must have 4 values, got {padding}")
    return pad(x, values, mode="constant", value=0.0, data_format=data_format)
