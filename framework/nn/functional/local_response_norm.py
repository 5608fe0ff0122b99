"""`local_response_norm` (AlexNet's LRN), as in `paddle.nn.functional`."""

from __future__ import annotations

from framework.core.tensor import Tensor
from framework.ops.manipulation import pad

_LAYOUTS = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")


def local_response_norm(
    x: Tensor,
    size: int,
    alpha: float = 1e-4,
    beta: float = 0.75,
    k: float = 1.0,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Local response normalisation, as `paddle.nn.functional.local_response_norm`.

    `y = x / (k + alpha / size * sum(x^2 over a window of `size` channels)) ** beta`.

    The window around channel c spans channels `c - size // 2 .. c + (size - 1) // 2`, zero
    beyond the edges (Paddle's and PyTorch's definition). x: 3-, 4- or 5-D in any of NCL,
    NLC, NCHW, NHWC, NCDHW, NDHWC; float dtypes; output shape = input shape.

    Args:
        x (Tensor): 3-, 4- or 5-D, channels at axis 1 or last; float32 or float64.
        size (int): the channels in each window.
        alpha (float, optional): the scale. Default: 0.0001.
        beta (float, optional): the exponent. Default: 0.75.
        k (float, optional): the offset. Default: 1.0.
        data_format (str, optional): the input's layout. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.local_response_norm(paddle.ones([1, 3, 1, 1]) * 10, size=3, alpha=0.3))
        Tensor(shape=[1, 3, 1, 1], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1.01937866]],
        <BLANKLINE>
                 [[0.76116484]],
        <BLANKLINE>
                 [[1.01937866]]]])
    """
    if data_format not in _LAYOUTS:
        raise ValueError(f"local_response_norm: data_format must be one of {_LAYOUTS}")
    if x.ndim != len(data_format):
        raise ValueError(
            f"local_response_norm: a {data_format} input must be {len(data_format)}-D, "
            f"got shape {x.shape}"
        )
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"local_response_norm: size must be a positive int, got {size!r}")
    axis = x.ndim - 1 if data_format[-1] == "C" else 1
    channels = x.shape[axis]
    widths = [0, 0] * x.ndim
    widths[2 * axis : 2 * axis + 2] = [size // 2, (size - 1) // 2]
    squares = pad(x * x, widths, pad_from_left_axis=True)
    window = None
    for offset in range(size):  # a sliding sum over the channel axis, one shifted view each
        index = [slice(None)] * x.ndim
        index[axis] = slice(offset, offset + channels)
        part = squares[tuple(index)]
        window = part if window is None else window + part
    return x / (window * (alpha / size) + k) ** beta
