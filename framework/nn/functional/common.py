"""Common functions: `linear`, dropouts, `interpolate`/`upsample`, `unfold`/`fold`, `pad`,
`zeropad2d`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from framework.amp.auto_cast import amp_cast
from framework.core.backend import get_array_module
from framework.core.conv_geometry import ConvGeometry, as_pair
from framework.core.random import get_rng
from framework.core.tensor import Tensor
from framework.ops.manipulation.pad import pad
from framework.ops.nn.dropout import MaskedScale
from framework.ops.nn.interpolate import AxisResample, ResampleSpec
from framework.ops.nn.linear import Linear
from framework.ops.nn.unfold import Fold, Unfold

__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
    "fold",
    "interpolate",
    "linear",
    "pad",
    "unfold",
    "upsample",
    "zeropad2d",
]


def linear(
    x: Tensor, weight: Tensor, bias: Tensor | None = None, name: str | None = None
) -> Tensor:
    """The affine map `x @ weight + bias`, as `paddle.nn.functional.linear`.

    `x @ weight + bias` over the last axis; `weight` is `[in_features, out_features]`.

    Args:
        x (Tensor): `[*, in_features]`; float16, float32 or float64.
        weight (Tensor): `[in_features, out_features]`, the dtype of `x`.
        bias (Tensor, optional): `[out_features]`. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[*, out_features]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[1.0, 2.0]])
        >>> w = paddle.to_tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
        >>> b = paddle.to_tensor([0.5, 0.5, 0.5])
        >>> print(F.linear(x, w, b))
        Tensor(shape=[1, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1.50000000, 2.50000000, 3.50000000]])
        >>> F.linear(paddle.ones([8, 784]), paddle.ones([784, 10])).shape
        paddle.Size([8, 10])
    """
    if not x.shape or x.shape[-1] != weight.shape[0]:
        raise ValueError(
            f"linear: the input's last dimension ({x.shape[-1] if x.shape else 'none'}) must "
            f"equal weight.shape[0]; input shape {x.shape}, weight shape {weight.shape}"
        )
    if bias is None:
        return Linear().apply(*amp_cast("linear", x, weight))
    return Linear().apply(*amp_cast("linear", x, weight, bias))


# --- dropout ------------------------------------------------------------------------------------
def _keep_mask(x: Tensor, p: float, shape: tuple[int, ...]):
    """Booleans on x's device, True with probability 1 - p (drawn from the framework RNG)."""
    keep = get_rng().random(shape, dtype=np.float32) >= p
    return get_array_module(x._data).asarray(keep)


def _check_p(op: str, p: float) -> float:
    if isinstance(p, bool) or not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"{op}: p must be a probability in [0, 1], got {p!r}")
    return float(p)


def dropout(
    x: Tensor,
    p: float = 0.5,
    axis: int | Sequence[int] | None = None,
    training: bool = True,
    mode: str = "upscale_in_train",
    inplace: bool = False,
    name: str | None = None,
) -> Tensor:
    """Dropout, as `paddle.nn.functional.dropout`.

    Zero each element with probability `p`.

    `mode='upscale_in_train'` (default) scales kept elements by `1/(1-p)` in training and is
    the identity otherwise; `'downscale_in_infer'` keeps training values as they are and
    multiplies by `1-p` at inference. `axis` shares one draw along the other axes.

    Args:
        x (Tensor): the input, any shape; float16, float32 or float64.
        p (float, optional): the probability of zeroing an element, in [0, 1]. Default: 0.5.
        axis (int|list|tuple, optional): axes that get their own draws; the others share one.
            Default: None.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        mode (str, optional): 'upscale_in_train' or 'downscale_in_infer'. Default:
            'upscale_in_train'.
        inplace (bool, optional): write the result into `x`. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.ones([2, 4])
        >>> _ = paddle.seed(1)
        >>> print(F.dropout(x, p=0.5))
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[0., 2., 2., 2.],
                [0., 0., 2., 2.]])
        >>> print(F.dropout(x, p=0.5, training=False))
        Tensor(shape=[2, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[1., 1., 1., 1.],
                [1., 1., 1., 1.]])
    """
    p = _check_p("dropout", p)
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout: mode must be upscale_in_train or downscale_in_infer: {mode!r}")
    dtype = x._data.dtype
    if not training:
        if mode == "downscale_in_infer":
            return MaskedScale(dtype.type(1.0 - p)).apply(x)
        return x
    if p == 0.0:
        return x
    shape = x._data.shape
    if axis is not None:
        axes = [a % x.ndim for a in ([axis] if isinstance(axis, int) else axis)]
        shape = tuple(n if i in axes else 1 for i, n in enumerate(shape))
    keep = _keep_mask(x, p, shape)
    scale = 1.0 / (1.0 - p) if mode == "upscale_in_train" and p < 1.0 else 1.0
    mask = keep.astype(dtype)
    if scale != 1.0:
        mask *= dtype.type(scale)
    return MaskedScale(mask).apply(x)


def _feature_dropout(op: str, x: Tensor, p, training, data_format, formats) -> Tensor:
    if data_format not in formats:
        raise ValueError(f"{op}: data_format must be one of {formats}, got {data_format!r}")
    if x.ndim != len(formats[0]):
        raise ValueError(f"{op}: expected a {len(formats[0])}-D input, got shape {x.shape}")
    channel = 1 if data_format == formats[0] else x.ndim - 1
    return dropout(x, p, axis=[0, channel], training=training)


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Channel dropout for 1-D inputs, as `paddle.nn.functional.dropout1d`.

    Zero whole channels of a `[N, C, L]` (or unbatched `[C, L]`) input with probability `p`,
    kept ones scaled by 1/(1-p). As in Paddle (`dropout(axis=1)`), one draw per channel is
    shared by the whole batch. `inplace` is accepted and ignored, as in Paddle.

    Args:
        input (Tensor): `[N, C, L]` or `[C, L]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        inplace (bool, optional): accepted and ignored, as in Paddle. Default: False.

    Returns:
        Tensor: the shape and dtype of `input`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> print(F.dropout1d(paddle.ones([1, 4, 3])))
        Tensor(shape=[1, 4, 3], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[0., 0., 0.],
                 [2., 2., 2.],
                 [2., 2., 2.],
                 [2., 2., 2.]]])
    """
    if input.ndim not in (2, 3):
        raise ValueError(f"dropout1d: expects a 2-D or 3-D input, got shape {input.shape}")
    batched = input if input.ndim == 3 else input.unsqueeze(0)
    out = dropout(batched, p, axis=1, training=training)
    return out if input.ndim == 3 else out.squeeze(0)


def dropout2d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Channel dropout for 2-D inputs, as `paddle.nn.functional.dropout2d`.

    Zero whole channels of a `[N, C, H, W]` input with probability `p` (scaled by 1/(1-p)).

    Args:
        x (Tensor): `[N, C, H, W]` ('NCHW') or `[N, H, W, C]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        data_format (str, optional): 'NCHW' or 'NHWC'. Default: 'NCHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> y = F.dropout2d(paddle.ones([1, 4, 2, 2]))
        >>> print(y[0, :, 0, 0])
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 2., 2.])
        >>> F.dropout2d(paddle.ones([1, 4, 2, 2]), training=False).sum().item()
        16.0
    """
    return _feature_dropout("dropout2d", x, p, training, data_format, ("NCHW", "NHWC"))


def dropout3d(
    x: Tensor,
    p: float = 0.5,
    training: bool = True,
    data_format: str = "NCDHW",
    name: str | None = None,
) -> Tensor:
    """Channel dropout for 3-D inputs, as `paddle.nn.functional.dropout3d`.

    Zero whole channels of a `[N, C, D, H, W]` input with probability `p`.

    Args:
        x (Tensor): `[N, C, D, H, W]` ('NCDHW') or `[N, D, H, W, C]`; float16, float32 or float64.
        p (float, optional): the probability of zeroing a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        data_format (str, optional): 'NCDHW' or 'NDHWC'. Default: 'NCDHW'.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> y = F.dropout3d(paddle.ones([1, 4, 2, 2, 2]))
        >>> print(y[0, :, 0, 0, 0])
        Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [0., 2., 2., 2.])
    """
    return _feature_dropout("dropout3d", x, p, training, data_format, ("NCDHW", "NDHWC"))


def _alpha_dropout(op: str, x: Tensor, p: float, training: bool, shape: tuple[int, ...]):
    p = _check_p(op, p)
    if not training or p == 0.0:
        return x
    dtype = x._data.dtype
    if p == 1.0:  # every element dropped: zeros, as in Paddle (the affine map is undefined)
        return MaskedScale(dtype.type(0.0)).apply(x)
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1.0 - p) * (1.0 + p * alpha_p**2)) ** -0.5
    keep = _keep_mask(x, p, shape).astype(dtype)
    offset = (1.0 - keep) * dtype.type(a * alpha_p) + dtype.type(-a * alpha_p * p)
    return MaskedScale(keep * dtype.type(a), offset).apply(x)


def alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Alpha dropout, as `paddle.nn.functional.alpha_dropout`.

    Dropout that keeps SELU's self-normalizing mean and variance: dropped elements take
    SELU's negative saturation value, then an affine map restores the statistics.

    Args:
        x (Tensor): the input, any shape; float32 or float64.
        p (float, optional): the probability of dropping an element. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[-1.0, 1.0, 0.5, 2.0]])
        >>> _ = paddle.seed(1)
        >>> print(F.alpha_dropout(x, p=0.5))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-0.77919394,  1.66559887,  1.22239637,  2.55200362]])
        >>> print(F.alpha_dropout(x, p=0.5, training=False))
        Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[-1.       ,  1.       , 0.50000000,  2.       ]])
    """
    return _alpha_dropout("alpha_dropout", x, p, training, x._data.shape)


def feature_alpha_dropout(
    x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None
) -> Tensor:
    """Channel-wise alpha dropout, as `paddle.nn.functional.feature_alpha_dropout`.

    Alpha dropout of whole channels: one draw per `[N, C]` pair of an input of at least 2-D
    (`[N, C, *]`), so a dropped channel becomes SELU's saturation value everywhere, then the
    affine map that keeps a zero-mean, unit-variance input so. Same shape and dtype as x; the
    identity when `training` is False.

    Args:
        x (Tensor): `[N, C, *]`, at least 2-D; float32 or float64.
        p (float, optional): the probability of dropping a channel. Default: 0.5.
        training (bool, optional): drop only when True; False is the identity. Default: True.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: the shape and dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> _ = paddle.seed(1)
        >>> print(F.feature_alpha_dropout(paddle.ones([1, 4, 2]), p=0.5))
        Tensor(shape=[1, 4, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[-0.77919394, -0.77919394],
                 [ 1.66559887,  1.66559887],
                 [ 1.66559887,  1.66559887],
                 [ 1.66559887,  1.66559887]]])
    """
    if x.ndim < 2:
        raise ValueError(
            f"feature_alpha_dropout: needs an input of at least 2-D [N, C, ...], got {x.shape}"
        )
    shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    return _alpha_dropout("feature_alpha_dropout", x, p, training, shape)


# --- interpolation ------------------------------------------------------------------------------
_MODES = {
    "nearest": ("nearest", (2, 3)),
    "linear": ("linear", (1,)),
    "bilinear": ("linear", (2,)),
    "trilinear": ("linear", (3,)),
    "bicubic": ("cubic", (2,)),
    "area": ("area", (1, 2, 3)),
}
_CHANNEL_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}
_CHANNEL_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _target_sizes(op, spatial, size, scale_factor, recompute_scale_factor):
    dims = len(spatial)
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{op}: give exactly one of size and scale_factor")
    if size is not None:
        if isinstance(size, Tensor):
            size = size.tolist()
        sizes = [int(s) for s in (size if isinstance(size, list | tuple) else [size] * dims)]
        if len(sizes) != dims:
            raise ValueError(f"{op}: size must have {dims} values, got {sizes}")
        return sizes, [None] * dims
    if isinstance(scale_factor, Tensor):
        scale_factor = scale_factor.tolist()
    scales = scale_factor if isinstance(scale_factor, list | tuple) else [scale_factor] * dims
    scales = [float(s) for s in scales]
    if len(scales) != dims or min(scales) <= 0:
        raise ValueError(f"{op}: scale_factor must be {dims} positive values, got {scale_factor}")
    sizes = [int(n * s) for n, s in zip(spatial, scales, strict=True)]
    return sizes, [None] * dims if recompute_scale_factor else scales


def interpolate(
    x: Tensor,
    size: int | Sequence[int] | Tensor | None = None,
    scale_factor: float | Sequence[float] | Tensor | None = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
    name: str | None = None,
) -> Tensor:
    """Resize the spatial axes, as `paddle.nn.functional.interpolate`.

    Resize the spatial dims of a 3-, 4- or 5-D input (Paddle's coordinate conventions).

    `mode`: 'nearest', 'linear' (3-D), 'bilinear' and 'bicubic' (4-D), 'trilinear' (5-D) or
    'area'. With `align_corners=False`, `align_mode=0` samples at pixel centres and
    `align_mode=1` at pixel corners; a `scale_factor` sets the sampling ratio to `1/scale`.

    Args:
        x (Tensor): 3-D `[N, C, W]`, 4-D `[N, C, H, W]` or 5-D `[N, C, D, H, W]` (or channels last);
            float32 or float64.
        size (int|list|tuple|Tensor, optional): the output's spatial size. Default: None.
        scale_factor (float|list|tuple|Tensor, optional): the spatial multiplier, when `size` is
            None. Default: None.
        mode (str, optional): 'nearest', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.
            Default: 'nearest'.
        align_corners (bool, optional): map the corner pixels' centres onto each other. Default:
            False.
        align_mode (int, optional): 0 samples at pixel centres, 1 at corners (linear modes,
            `align_corners=False`). Default: 0.
        data_format (str, optional): 'NCW', 'NCHW', 'NCDHW' or the channels-last forms; None picks
            by rank. Default: None.
        recompute_scale_factor (bool, optional): derive the scale from the output size. Default:
            None.
        antialias (bool, optional): low-pass filter when shrinking. Default: False.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, *size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> print(F.interpolate(x, scale_factor=2, mode='nearest'))
        Tensor(shape=[1, 1, 4, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.],
                  [3., 3., 4., 4.],
                  [3., 3., 4., 4.]]]])
        >>> F.interpolate(paddle.ones([2, 3, 8, 8]), size=[16, 12], mode='bilinear').shape
        paddle.Size([2, 3, 16, 12])
    """
    op = "interpolate"
    if antialias:
        raise NotImplementedError(f"{op}: antialias=True is not supported")
    dims = x.ndim - 2
    if dims not in (1, 2, 3):
        raise ValueError(f"{op}: expected a 3-, 4- or 5-D input, got shape {x.shape}")
    key = mode.lower()
    if key not in _MODES or dims not in _MODES[key][1]:
        raise ValueError(f"{op}: mode {mode!r} does not support a {x.ndim}-D input")
    kind = _MODES[key][0]
    if align_corners and kind not in ("linear", "cubic"):
        raise ValueError(
            f"{op}: align_corners only applies to linear, bilinear, bicubic, trilinear"
        )
    data_format = data_format or _CHANNEL_FIRST[dims]
    if data_format not in (_CHANNEL_FIRST[dims], _CHANNEL_LAST[dims]):
        raise ValueError(f"{op}: data_format {data_format!r} does not fit a {x.ndim}-D input")
    first = 2 if data_format == _CHANNEL_FIRST[dims] else 1
    axes = list(range(first, first + dims))
    spatial = [x.shape[a] for a in axes]
    sizes, scales = _target_sizes(op, spatial, size, scale_factor, recompute_scale_factor)
    if min(sizes) < 1:
        raise ValueError(f"{op}: the output size {sizes} must be positive")
    for axis, n, out, scale in zip(axes, spatial, sizes, scales, strict=True):
        if scale == 1.0:  # identity whatever the size (a test on `out == n` would make a
            continue  # traced graph depend on the size of a dynamic dim)
        # A scale factor keeps the output size following the input's (dynamic shapes).
        spec = ResampleSpec(
            kind, bool(align_corners), int(align_mode), None if scale else out, scale
        )
        x = AxisResample.from_spec(axis, n, spec).apply(x)
    return x


def upsample(
    x: Tensor,
    size: int | Sequence[int] | Tensor | None = None,
    scale_factor: float | Sequence[float] | Tensor | None = None,
    mode: str = "nearest",
    align_corners: bool = False,
    align_mode: int = 0,
    data_format: str | None = None,
    name: str | None = None,
) -> Tensor:
    """Resize the spatial axes, as `paddle.nn.functional.upsample`.

    The same as `interpolate` (Paddle keeps both names).

    Args:
        x (Tensor): 3-, 4- or 5-D, as for `interpolate`; float32 or float64.
        size (int|list|tuple|Tensor, optional): the output's spatial size. Default: None.
        scale_factor (float|list|tuple|Tensor, optional): the spatial multiplier. Default: None.
        mode (str, optional): as for `interpolate`. Default: 'nearest'.
        align_corners (bool, optional): as for `interpolate`. Default: False.
        align_mode (int, optional): as for `interpolate`. Default: 0.
        data_format (str, optional): None picks by rank. Default: None.
        name (str, optional): unused, kept for Paddle's signature.

    Returns:
        Tensor: `[N, C, *size]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> import framework.nn.functional as F
        >>> print(F.upsample(paddle.to_tensor([[[1.0, 3.0]]]), size=[4], mode='linear'))
        Tensor(shape=[1, 1, 4], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[[1.        , 1.50000000, 2.50000000, 3.        ]]])
    """
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


# --- unfold / fold ------------------------------------------------------------------------------
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
