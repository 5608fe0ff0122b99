"""Resampling: `interpolate` and `upsample`, as in `paddle.nn.functional`."""

from __future__ import annotations

from collections.abc import Sequence

from framework.core.tensor import Tensor
from framework.ops.nn.interpolate import AxisResample, ResampleSpec

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
