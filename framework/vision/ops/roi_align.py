"""RoI align (Paddle's `paddle.vision.ops.roi_align` and `RoIAlign`, Mask R-CNN's pooling).

Each output bin averages a grid of bilinear samples of the feature map. The samples' positions
and weights depend only on the boxes, so they become one tap table (`roi_sampling`), built here
vectorised over boxes, bins and samples, and the feature map goes through `SparseRowMix`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework import nn
from framework.core.operands import as_tensor
from framework.core.tensor import Tensor
from framework.vision.ops.roi_sampling import box_images, mix_rows, pair


def _axis_samples(
    start: np.ndarray, size: np.ndarray, bins: int, grid: np.ndarray, limit: int
) -> tuple[np.ndarray, np.ndarray]:
    """Along one axis: `(index, weight)`, each `[K, bins, G, 2]`, the two neighbours of every
    sample (G per bin, the largest grid; missing samples weigh 0), as Paddle's kernel: a
    sample more than one pixel outside the map weighs 0, one at the border is clamped."""
    g = max(int(grid.max(initial=0)), 1)
    step = (size / bins)[:, None, None]
    p = np.arange(bins)[None, :, None]
    i = np.arange(g)[None, None, :]
    per_bin = np.maximum(grid, 1)[:, None, None]
    pos = start[:, None, None] + p * step + (i + 0.5) * step / per_bin
    valid = (i < grid[:, None, None]) & (pos >= -1.0) & (pos <= limit)
    pos = np.maximum(pos, 0.0)
    low = np.floor(pos).astype(np.int64)
    at_edge = low >= limit - 1
    low = np.where(at_edge, limit - 1, low)
    high = np.where(at_edge, limit - 1, low + 1)
    frac = np.where(at_edge, 0.0, pos - low)
    index = np.stack([low, high], axis=-1)
    weight = np.stack([1.0 - frac, frac], axis=-1) * valid[..., None]
    return index, weight


def roi_align(
    x: Tensor,
    boxes: Tensor,
    boxes_num: Tensor,
    output_size: int | Sequence[int],
    spatial_scale: float = 1.0,
    sampling_ratio: int = -1,
    aligned: bool = True,
    name: str | None = None,
) -> Tensor:
    """RoI align: a fixed-size feature for every box, each bin the mean of bilinear samples.

    Args:
        x: `[N, C, H, W]` features, float32 or float64.
        boxes: `[K, 4]` boxes `[x1, y1, x2, y2]` in input coordinates (no gradient).
        boxes_num: `[N]` int32, how many of the (consecutive) boxes belong to each image.
        output_size: `(ph, pw)`, or an int for both.
        spatial_scale: factor from box coordinates to feature coordinates (1 / stride).
        sampling_ratio: samples per bin along each axis; -1 takes `ceil(box side / bins)`.
        aligned: shift boxes by half a pixel (pixel centers at +0.5), as Detectron2; False
            is the original Mask R-CNN version, which also makes boxes at least 1 wide.

    Returns:
        `[K, C, ph, pw]`, the dtype of `x`; differentiable in `x`.

    Examples:
        >>> import framework as paddle
        >>> x = paddle.rand([1, 8, 16, 16])
        >>> boxes = paddle.to_tensor([[2.0, 2.0, 10.0, 12.0], [0.0, 4.0, 6.0, 8.0]])
        >>> roi_align(x, boxes, paddle.to_tensor([2], "int32"), output_size=4).shape
        paddle.Size([2, 8, 4, 4])
    """
    x = as_tensor(x)
    if x.ndim != 4:
        raise ValueError(f"roi_align needs x of shape [N, C, H, W], got {x.shape}")
    n, c, h, w = x.shape
    ph, pw = pair(output_size, "output_size")
    b, image = box_images(as_tensor(boxes), boxes_num, n)
    shift = 0.5 if aligned else 0.0
    x1, y1, x2, y2 = (b[:, k] * spatial_scale - shift for k in range(4))
    width, height = x2 - x1, y2 - y1
    if not aligned:
        width, height = np.maximum(width, 1.0), np.maximum(height, 1.0)
    if sampling_ratio > 0:
        grid_h = grid_w = np.full(b.shape[0], int(sampling_ratio), dtype=np.int64)
    else:
        grid_h = np.maximum(np.ceil(height / ph), 0).astype(np.int64)
        grid_w = np.maximum(np.ceil(width / pw), 0).astype(np.int64)
    iy, wy = _axis_samples(y1, height, ph, grid_h, h)
    ix, wx = _axis_samples(x1, width, pw, grid_w, w)
    k = b.shape[0]
    count = np.maximum(grid_h * grid_w, 1).astype(np.float64)
    # broadcast to [K, ph, pw, Gh, 2, Gw, 2]
    iy, wy = iy[:, :, None, :, :, None, None], wy[:, :, None, :, :, None, None]
    ix, wx = ix[:, None, :, None, None, :, :], wx[:, None, :, None, None, :, :]
    col = (image.reshape(k, 1, 1, 1, 1, 1, 1) * h + iy) * w + ix
    weight = wy * wx / count.reshape(k, 1, 1, 1, 1, 1, 1)
    row = np.arange(k * ph * pw).reshape(k, ph, pw, 1, 1, 1, 1)
    shape = np.broadcast_shapes(col.shape, weight.shape, row.shape)
    rows = x.transpose([0, 2, 3, 1]).reshape([n * h * w, c])
    out = mix_rows(
        rows,
        np.broadcast_to(row, shape).ravel(),
        np.broadcast_to(col, shape).ravel(),
        np.broadcast_to(weight, shape).ravel(),
        k * ph * pw,
    )
    return out.reshape([k, ph, pw, c]).transpose([0, 3, 1, 2])


class RoIAlign(nn.Layer):
    """`roi_align` as a layer holding `output_size` and `spatial_scale`.

    Args:
        output_size (int|list|tuple): `(ph, pw)`, or an int for both.
        spatial_scale (float, optional): box to feature coordinates (1 / stride). Default: 1.0.

    Shape:
        - x: `[N, C, H, W]` features; float32 or float64.
        - boxes: `[K, 4]` boxes `[x1, y1, x2, y2]`; boxes_num: `[N]` int32.
        - output: `[K, C, ph, pw]`, the dtype of `x`.

    Examples:
        >>> import framework as paddle
        >>> from framework.vision.ops import RoIAlign
        >>> x = paddle.rand([1, 8, 16, 16])
        >>> boxes, boxes_num = paddle.to_tensor([[2.0, 2, 40, 48]]), paddle.to_tensor([1], "int32")
        >>> layer = RoIAlign(output_size=(4, 3), spatial_scale=0.25)
        >>> layer(x, boxes, boxes_num).shape
        paddle.Size([1, 8, 4, 3])
    """

    def __init__(self, output_size: int | Sequence[int], spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale

    def forward(self, x: Tensor, boxes: Tensor, boxes_num: Tensor, aligned: bool = True) -> Tensor:
        return roi_align(
            x,
            boxes,
            boxes_num,
            self._output_size,
            self._spatial_scale,
            aligned=aligned,
        )

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"
