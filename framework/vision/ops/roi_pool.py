"""RoI max pooling and position-sensitive RoI average pooling (Paddle's `roi_pool` / `RoIPool`,
from Fast R-CNN, and `psroi_pool` / `PSRoIPool`, from R-FCN).

Both split every box into integer pixel bins, as Paddle's kernels do (in the dtype of `x`, so
that bin edges fall where Paddle's do). `roi_pool` takes each bin's maximum: the winners are
found on the arrays and gathered with `IndexGather`, whose adjoint scatters the gradient back
onto them. `psroi_pool` averages bin `(i, j)` of output channel `c` over input channel
`(c * ph + i) * pw + j`: a fixed linear map, one `SparseRowMix` tap table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework import nn
from framework.core.backend import get_array_module
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.ops.nn.index_scatter import IndexGather
from framework.vision.ops.roi_sampling import (
    CHUNK_VALUES,
    box_images,
    mix_rows,
    pair,
    round_half_away,
)


def _bin_edges(
    start: np.ndarray, size: np.ndarray, bins: int, limit: int, round_first: bool
) -> tuple[np.ndarray, np.ndarray]:
    """`[K, bins]` first and one-past-last pixel of every bin, clamped to `[0, limit]`.
    `round_first` rounds the bin edges before adding the (integral) start, as `roi_pool`."""
    step = (size / np.asarray(bins, dtype=size.dtype))[:, None]
    p = np.arange(bins, dtype=size.dtype)[None, :]
    if round_first:
        first = np.floor(p * step) + start[:, None]
        last = np.ceil((p + 1) * step) + start[:, None]
    else:
        first = np.floor(p * step + start[:, None])
        last = np.ceil((p + 1) * step + start[:, None])
    return (
        np.clip(first, 0, limit).astype(np.int64),
        np.clip(last, 0, limit).astype(np.int64),
    )


def _bin_pixels(
    edges_y: tuple[np.ndarray, np.ndarray], edges_x: tuple[np.ndarray, np.ndarray], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every bin's pixels as `[K, ph, pw, T]` flat positions `y * width + x` within the image,
    and which of the T (the largest bin's size) are real."""
    (y0, y1), (x0, x1) = edges_y, edges_x
    th = max(int((y1 - y0).max(initial=0)), 1)
    tw = max(int((x1 - x0).max(initial=0)), 1)
    y = y0[:, :, None, None, None] + np.arange(th)[:, None]  # [K, ph, 1, th, 1]
    x = x0[:, None, :, None, None] + np.arange(tw)  # [K, 1, pw, 1, tw]
    valid = (y < y1[:, :, None, None, None]) & (x < x1[:, None, :, None, None])
    pixel = np.where(valid, y * width + x, 0)
    shape = np.broadcast_shapes(pixel.shape, valid.shape)
    k, ph, pw = shape[:3]
    return (
        np.broadcast_to(pixel, shape).reshape(k, ph, pw, th * tw),
        np.broadcast_to(valid, shape).reshape(k, ph, pw, th * tw),
    )


def _bin_winners(xp, planes, image: np.ndarray, pixel: np.ndarray, valid: np.ndarray):
    """`[K, C, ph, pw]` pixel (within its plane) of every bin's maximum, a few boxes at a time
    so that `boxes x channels x bin pixels` values never exist at once. Pixels are gathered as
    channel-last rows, so each tap copies one contiguous run of channels."""
    n, c, hw = planes.shape
    k = pixel.shape[0]
    if k == 0:
        return xp.zeros((0, c, *pixel.shape[1:3]), dtype=np.int64)
    rows = xp.ascontiguousarray(planes.transpose(0, 2, 1)).reshape(n * hw, c)
    step = max(1, CHUNK_VALUES // (c * pixel[0].size))
    winners = []
    for start in range(0, k, step):
        part = slice(start, start + step)
        taps = xp.asarray(pixel[part])  # [k, ph, pw, T]
        values = rows[xp.asarray(image[part])[:, None, None, None] * hw + taps]  # [..., T, C]
        values = xp.where(xp.asarray(valid[part])[..., None], values, -xp.inf)
        best = values.argmax(axis=3)  # [k, ph, pw, C]; the first maximum, as Paddle's scan
        won = xp.take_along_axis(taps[..., None], best[:, :, :, None, :], axis=3)[:, :, :, 0]
        winners.append(won.transpose(0, 3, 1, 2))
    return xp.concatenate(winners)


def roi_pool(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """RoI max pooling: every box, rounded to feature pixels, split into `output_size` bins,
    each the maximum of its pixels (0 for an empty bin).

    Args:
        x: `[N, C, H, W]` features, float32 or float64.
        boxes: `[K, 4]` boxes `[x1, y1, x2, y2]` in input coordinates (no gradient).
        boxes_num: `[N]` int32, how many of the (consecutive) boxes belong to each image.
        output_size: `(ph, pw)`, or an int for both.
        spatial_scale: factor from box coordinates to feature coordinates (1 / stride).

    Returns:
        `[K, C, ph, pw]`, the dtype of `x`; the gradient goes to each bin's maximum.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([1, 4, 16, 16])
        >>> boxes = paddle.to_tensor([[2.0, 2.0, 10.0, 12.0]])
        >>> roi_pool(x, boxes, paddle.to_tensor([1], "int32"), output_size=3).shape
        paddle.Size([1, 4, 3, 3])
    """
    x = as_tensor(x)
    n, c, h, w = x.shape
    ph, pw = pair(output_size, "output_size")
    b, image = box_images(as_tensor(boxes), boxes_num, n)
    dt = np.dtype(x._data.dtype)
    x1, y1, x2, y2 = (
        round_half_away(b[:, k].astype(dt) * dt.type(spatial_scale)) for k in range(4)
    )
    height = np.maximum(y2 - y1 + 1, 1).astype(dt)
    width = np.maximum(x2 - x1 + 1, 1).astype(dt)
    edges_y = _bin_edges(y1, height, ph, h, round_first=True)
    edges_x = _bin_edges(x1, width, pw, w, round_first=True)
    pixel, valid = _bin_pixels(edges_y, edges_x, w)  # [K, ph, pw, T]
    xp = get_array_module(x._data)
    k = b.shape[0]
    winner = _bin_winners(xp, x._data.reshape(n, c, h * w), image, pixel, valid)
    channel = xp.arange(c, dtype=np.int64)[None, :, None, None]
    index = (xp.asarray(image)[:, None, None, None] * c + channel) * (h * w) + winner
    nonempty = xp.asarray(valid.any(axis=-1)[:, None], dtype=x._data.dtype)
    out = IndexGather(index.astype(np.int64), False).apply(x)
    return out * Tensor._wrap(xp.broadcast_to(nonempty, (k, c, ph, pw)))


def psroi_pool(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
    name: str | None = None,
) -> Tensor:
    """Position-sensitive RoI average pooling (R-FCN): bin `(i, j)` of output channel `c` is
    the mean of input channel `(c * ph + i) * pw + j` over the bin's pixels (0 when empty).

    Args:
        x: `[N, C, H, W]` features, float32 or float64, `C` a multiple of `ph * pw`.
        boxes: `[K, 4]` boxes `[x1, y1, x2, y2]` in input coordinates (no gradient).
        boxes_num: `[N]` int32, how many of the (consecutive) boxes belong to each image.
        output_size: `(ph, pw)`, or an int for both.
        spatial_scale: factor from box coordinates to feature coordinates (1 / stride).

    Returns:
        `[K, C / (ph * pw), ph, pw]`, the dtype of `x`; differentiable in `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([1, 2 * 7 * 7, 16, 16])
        >>> boxes = paddle.to_tensor([[2.0, 2.0, 10.0, 12.0]])
        >>> psroi_pool(x, boxes, paddle.to_tensor([1], "int32"), output_size=7).shape
        paddle.Size([1, 2, 7, 7])
    """
    x = as_tensor(x)
    n, c, h, w = x.shape
    ph, pw = pair(output_size, "output_size")
    bins = ph * pw
    if c % bins:
        raise ValueError(f"psroi_pool needs channels ({c}) to be a multiple of ph * pw ({bins})")
    b, image = box_images(as_tensor(boxes), boxes_num, n)
    dt = np.dtype(x._data.dtype)
    scale = dt.type(spatial_scale)
    x1, y1 = (round_half_away(b[:, k].astype(dt)) * scale for k in range(2))
    x2, y2 = ((round_half_away(b[:, k].astype(dt)) + 1) * scale for k in range(2, 4))
    height = np.maximum(y2 - y1, dt.type(0.1))
    width = np.maximum(x2 - x1, dt.type(0.1))
    edges_y = _bin_edges(y1, height, ph, h, round_first=False)
    edges_x = _bin_edges(x1, width, pw, w, round_first=False)
    pixel, valid = _bin_pixels(edges_y, edges_x, w)
    k = b.shape[0]
    area = np.maximum(valid.sum(axis=-1, keepdims=True), 1)
    bin_id = np.arange(bins).reshape(1, ph, pw, 1)
    col = (image[:, None, None, None] * bins + bin_id) * (h * w) + pixel
    row = np.broadcast_to(np.arange(k)[:, None, None, None] * bins + bin_id, col.shape)
    weight = valid / area
    # rows of x: (image, bin, pixel), columns: the output channels
    rows = x.reshape([n, c // bins, bins, h * w]).transpose([0, 2, 3, 1]).reshape([-1, c // bins])
    out = mix_rows(rows, row.ravel(), col.ravel(), weight.ravel(), k * bins)
    return out.reshape([k, ph, pw, c // bins]).transpose([0, 3, 1, 2])


class RoIPool(nn.Layer):
    """`roi_pool` as a layer holding `output_size` and `spatial_scale`.

    Args:
        output_size (int|list|tuple): `(ph, pw)`, or an int for both.
        spatial_scale (float, optional): box to feature coordinates (1 / stride). Default: 1.0.

    Shape:
        - x: `[N, C, H, W]` features; float32 or float64.
        - boxes: `[K, 4]` boxes `[x1, y1, x2, y2]`; boxes_num: `[N]` int32.
        - output: `[K, C, ph, pw]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.ops import RoIPool
        >>> x = paddle.rand([1, 4, 64, 64])
        >>> boxes, boxes_num = paddle.to_tensor([[0.0, 0, 32, 48]]), paddle.to_tensor([1], "int32")
        >>> RoIPool(output_size=7, spatial_scale=1 / 16)(x, boxes, boxes_num).shape
        paddle.Size([1, 4, 7, 7])
    """

    def __init__(self, output_size: int | Sequence[int], spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor) -> Tensor:
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class PSRoIPool(nn.Layer):
    """`psroi_pool` as a layer holding `output_size` and `spatial_scale`.

    Args:
        output_size (int|list|tuple): `(ph, pw)`, or an int for both.
        spatial_scale (float, optional): box to feature coordinates (1 / stride). Default: 1.0.

    Shape:
        - x: `[N, C, H, W]` features; float32 or float64.
        - boxes: `[K, 4]` boxes `[x1, y1, x2, y2]`; boxes_num: `[N]` int32.
        - output: `[K, C / (ph * pw), ph, pw]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.ops import PSRoIPool
        >>> x = paddle.rand([1, 2 * 7 * 7, 16, 16])
        >>> boxes, boxes_num = paddle.to_tensor([[2.0, 2, 10, 12]]), paddle.to_tensor([1], "int32")
        >>> PSRoIPool(output_size=7)(x, boxes, boxes_num).shape
        paddle.Size([1, 2, 7, 7])
    """

    def __init__(self, output_size: int | Sequence[int], spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor) -> Tensor:
        return psroi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"
