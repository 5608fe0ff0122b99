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
    """`y = x / (k + alpha / size * sum(x^2 over a window of `size` channels)) ** beta`.

    The window around channel c spans channels `c - size // 2 .. c + (size - 1) // 2`, zero
    beyond the edges (Paddle's and PyTorch's definition). x: 3-, 4- or 5-D in any of NCL,
    NLC, NCHW, NHWC, NCDHW, NDHWC; float dtypes; output shape = input shape.

        F.local_response_norm(framework.randn([2, 8, 5, 5]), size=5)
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
