"""Padding: `pad`, with Paddle's `paddle.nn.functional.pad` signature and semantics.

Constant padding writes `x` into a filled array; its gradient is the centre slice. The other
modes (reflect, replicate, circular) copy border values, so their gradient folds the border
gradients back onto the elements they were copied from (`PadFold`, the adjoint of `Pad`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.ops.manipulation.indexing import GetItem, add_at

_NUMPY_MODES = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}
_CHANNELS_FIRST = ("NCL", "NCHW", "NCDHW")
_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


class Pad(Function):
    def __init__(self, widths: tuple, mode: str, value: float) -> None:
        self.widths = widths
        self.mode = mode
        self.value = value

    def forward(self, x):
        xp = get_array_module(x)
        self.input_shape = x.shape
        if self.mode == "constant":
            shape = tuple(n + b + a for n, (b, a) in zip(x.shape, self.widths, strict=True))
            out = xp.full(shape, self.value, dtype=x.dtype)
            out[_centre(x.shape, self.widths)] = x
            return out
        return xp.pad(x, self.widths, mode=_NUMPY_MODES[self.mode])

    def backward(self, gy: Tensor) -> Tensor:
        if self.mode == "constant":
            return GetItem(_centre(self.input_shape, self.widths), False).apply(gy)
        return PadFold(self.widths, self.mode, self.input_shape).apply(gy)


class PadFold(Function):
    """The adjoint of a non-constant `Pad`: border gradients added onto their sources."""

    def __init__(self, widths: tuple, mode: str, input_shape: tuple[int, ...]) -> None:
        self.widths = widths
        self.mode = mode
        self.input_shape = input_shape

    def forward(self, g):
        xp = get_array_module(g)
        out = g
        for axis, (before, after) in enumerate(self.widths):
            if not (before or after):
                continue
            n = self.input_shape[axis]
            lead = (slice(None),) * axis
            sources = np.pad(np.arange(n), (before, after), mode=_NUMPY_MODES[self.mode])
            border = np.r_[0:before, before + n : before + n + after]
            centre = out[lead + (slice(before, before + n),)].copy()
            add_at(
                centre,
                lead + (xp.asarray(sources[border]),),
                xp.take(out, xp.asarray(border), axis=axis),
            )
            out = centre
        return out

    def backward(self, gy: Tensor) -> Tensor:
        return Pad(self.widths, self.mode, 0.0).apply(gy)


def _centre(shape: tuple[int, ...], widths: tuple) -> tuple:
    return tuple(slice(b, b + n) for n, (b, _) in zip(shape, widths, strict=True))


def _widths(
    ndim: int, pad: list[int], mode: str, data_format: str | None, pad_from_left_axis: bool
) -> tuple:
    widths = [(0, 0)] * ndim
    pairs = [(pad[i], pad[i + 1]) for i in range(0, len(pad), 2)]
    if mode == "constant" and len(pad) != 2 * (ndim - 2):
        if len(pad) > 2 * ndim:
            raise ValueError(f"pad: {len(pad)} pad values for a tensor with {ndim} dims")
        if len(pad) == 2 * ndim and pad_from_left_axis:
            return tuple(pairs)
        for k, pair in enumerate(pairs):  # the first pair pads the last dim
            widths[ndim - 1 - k] = pair
        return tuple(widths)
    if ndim not in _FORMATS:
        raise ValueError(
            f"pad: mode {mode!r} (or a pad of length 2*(ndim-2)) needs a 3-D, 4-D or 5-D input, "
            f"got {ndim} dims"
        )
    data_format = (data_format or _FORMATS[ndim][0]).upper()
    if data_format not in _FORMATS[ndim]:
        raise ValueError(
            f"pad: data_format for a {ndim}-D input must be one of {_FORMATS[ndim]}, "
            f"got {data_format!r}"
        )
    if len(pad) != 2 * (ndim - 2):
        raise ValueError(
            f"pad: mode {mode!r} on a {ndim}-D input needs {2 * (ndim - 2)} pad values "
            f"(two per spatial dim, last dim first), got {len(pad)}"
        )
    last_spatial = ndim - 1 if data_format in _CHANNELS_FIRST else ndim - 2
    for k, pair in enumerate(pairs):
        widths[last_spatial - k] = pair
    return tuple(widths)


def pad(
    x: Tensor,
    pad: Sequence[int] | Tensor,
    mode: str = "constant",
    value: float = 0.0,
    data_format: str | None = None,
    pad_from_left_axis: bool = True,
    name: str | None = None,
) -> Tensor:
    """Pad a tensor, as `paddle.nn.functional.pad`.

    Pad `x` (Paddle's `nn.functional.pad`).

    `mode` is 'constant' (fill with `value`), 'reflect', 'replicate' or 'circular'.
    A constant `pad` whose length is not `2*(ndim-2)` pads from the last dim forwards
    (`[last_before, last_after, second_last_before, ...]`), or from the first dim when it has
    `2*ndim` values and `pad_from_left_axis`. Otherwise `x` must be 3-, 4- or 5-D and `pad`
    holds `(before, after)` pairs for the spatial dims of `data_format` (default NCL, NCHW,
    NCDHW), last spatial dim first: `[left, right, top, bottom, front, back]`.

    Args:
        x (Tensor): any shape (3-, 4- or 5-D for the non-constant modes); any dtype.
        pad (list|tuple|Tensor): `(before, after)` amounts, last spatial axis first for
            `data_format`.
        mode (str, optional): 'constant', 'reflect', 'replicate' or 'circular'. Default: 'constant'.
        value (float, optional): the constant filled in. Default: 0.0.
        data_format (str, optional): 'NCL', 'NCHW', 'NCDHW' or channels last; None picks by rank.
            Default: None.
        pad_from_left_axis (bool, optional): a `2 * ndim` list starts at the first axis. Default:
            True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the padded input, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[1.0, 2.0, 3.0]]])
        >>> print(F.pad(x, [1, 2], value=9.0))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[9., 1., 2., 3., 9., 9.]]])
        >>> print(F.pad(x, [2, 1], mode='reflect'))
        Tensor(shape=[1, 1, 6], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[3., 2., 1., 2., 3., 2.]]])
        >>> F.pad(paddle.ones([1, 1, 2, 3]), [1, 1, 2, 0]).shape
        paddle.Size([1, 1, 4, 5])
    """
    if mode not in ("constant", *_NUMPY_MODES):
        raise ValueError(
            f"pad: mode must be one of constant, reflect, replicate, circular; got {mode!r}"
        )
    values = pad.numpy().reshape(-1).tolist() if isinstance(pad, Tensor) else list(pad)
    values = [int(v) for v in values]
    if len(values) % 2:
        raise ValueError(f"pad: needs an even number of values, got {values}")
    if any(v < 0 for v in values):
        raise ValueError(f"pad: pad values must not be negative, got {values}")
    if isinstance(pad, Tensor) and mode == "constant" and len(values) != 2 * (x._data.ndim - 2):
        mode_for_layout = "spatial"
    else:
        mode_for_layout = mode
    widths = _widths(x._data.ndim, values, mode_for_layout, data_format, pad_from_left_axis)
    if not any(b or a for b, a in widths):
        return x
    if mode == "reflect":
        for n, (b, a) in zip(x._data.shape, widths, strict=True):
            if max(b, a) > n - 1:
                raise ValueError(
                    f"pad: reflect padding ({b}, {a}) must be smaller than the dim size {n}"
                )
    elif mode in ("replicate", "circular"):
        for n, (b, a) in zip(x._data.shape, widths, strict=True):
            if (b or a) and n == 0:
                raise ValueError(f"pad: cannot {mode}-pad an empty dim")
    return Pad(widths, mode, value).apply(x)
