"""Pixel operations of the OCR pipeline on uint8 images, in NumPy.

PP-OCR's models were trained and are served behind OpenCV's resampling, and a recognizer's
output can change with a grey level here and there. So these functions use OpenCV's
fixed-point arithmetic (11-bit bilinear weights)
rather than a floating-point resize: the same inputs give the same bytes, or within one grey
level.
"""

from __future__ import annotations

import numpy as np

_LINEAR_BITS = 11  # OpenCV's INTER_RESIZE_COEF_BITS
_LINEAR_ONE = 1 << _LINEAR_BITS


def _round_half_even(values: np.ndarray) -> np.ndarray:
    return np.rint(values).astype(np.int64)


def _linear_taps(src: int, dst: int, clamp: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Source index and fixed-point weights (w0, w1) for each output position."""
    scale = 1.0 / (dst / src)
    pos = ((np.arange(dst, dtype=np.float64) + 0.5) * scale - 0.5).astype(np.float32)
    index = np.floor(pos).astype(np.int64)
    frac = (pos - index).astype(np.float32)
    if clamp:
        low = index < 0
        frac[low], index[low] = 0, 0
        high = index >= src - 1
        frac[high], index[high] = 0, src - 1
    w0 = _round_half_even((np.float32(1) - frac) * _LINEAR_ONE)
    w1 = _round_half_even(frac * _LINEAR_ONE)
    return index, w0, w1


def resize_linear(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """Bilinear resize of an `[H, W]` or `[H, W, C]` uint8 image to `[height, width(, C)]`,
    as `cv2.resize(image, (width, height))` (INTER_LINEAR, half-pixel centres, no
    anti-aliasing; an exact halving averages 2x2 blocks as OpenCV does).

        resize_linear(np.zeros((20, 30, 3), np.uint8), 15, 10).shape  # (10, 15, 3)
    """
    if image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ValueError(f"resize_linear takes [H, W(, C)] uint8 images, got {image.dtype} "
                         f"{image.shape}")  # fmt: skip
    if width <= 0 or height <= 0:
        raise ValueError(f"resize_linear: the target size must be positive, got {width}x{height}")
    src_h, src_w = image.shape[:2]
    img = image if image.ndim == 3 else image[:, :, None]
    if src_w == 2 * width and src_h == 2 * height:
        blocks = img.reshape(height, 2, width, 2, -1).astype(np.int32).sum(axis=(1, 3))
        out = ((blocks + 2) >> 2).astype(np.uint8)
        return out if image.ndim == 3 else out[:, :, 0]
    xs, xw0, xw1 = _linear_taps(src_w, width, clamp=True)
    ys, yw0, yw1 = _linear_taps(src_h, height, clamp=False)
    x_next = np.minimum(xs + 1, src_w - 1)
    # int32 throughout: 255 * 2048 fits, and ((255 * 2048) >> 4) * 2048 does too
    horizontal = img[:, xs].astype(np.int32) * xw0.astype(np.int32)[None, :, None]
    horizontal += img[:, x_next].astype(np.int32) * xw1.astype(np.int32)[None, :, None]
    horizontal >>= 4
    # OpenCV's vectorised vertical pass: ((h >> 4) * w) >> 16 per source row, summed, rounded
    # by two bits (not the exact 22-bit product, which differs by a grey level now and then)
    out = (horizontal[np.clip(ys, 0, src_h - 1)] * yw0.astype(np.int32)[:, None, None]) >> 16
    out += (horizontal[np.clip(ys + 1, 0, src_h - 1)] * yw1.astype(np.int32)[:, None, None]) >> 16
    out += 2
    out >>= 2
    out = out.astype(np.uint8)
    return out if image.ndim == 3 else out[:, :, 0]


def _cubic_weights(t: np.ndarray) -> np.ndarray:
    """OpenCV's bicubic kernel (A = -0.75) at fractional offsets `t`, float32, `[..., 4]`."""
    a = np.float32(-0.75)
    t = t.astype(np.float32)
    w0 = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a
    w1 = ((a + 2) * t - (a + 3)) * t * t + 1
    w2 = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1
    w3 = 1 - w0 - w1 - w2
    return np.stack([w0, w1, w2, w3], axis=-1).astype(np.float32)


def perspective_matrix(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The 3x3 homography that maps the four `src` points onto the four `dst` points
    (`cv2.getPerspectiveTransform`)."""
    src = np.asarray(src, dtype=np.float64)
    dst = np.asarray(dst, dtype=np.float64)
    a = np.zeros((8, 8))
    b = np.zeros(8)
    for i in range(4):
        (x, y), (u, v) = src[i], dst[i]
        a[i] = [x, y, 1, 0, 0, 0, -x * u, -y * u]
        a[i + 4] = [0, 0, 0, x, y, 1, -x * v, -y * v]
        b[i], b[i + 4] = u, v
    return np.append(np.linalg.solve(a, b), 1.0).reshape(3, 3)


def warp_perspective_cubic(
    image: np.ndarray, matrix: np.ndarray, width: int, height: int
) -> np.ndarray:
    """`cv2.warpPerspective(image, matrix, (width, height), flags=INTER_CUBIC,
    borderMode=BORDER_REPLICATE)` for `[H, W, C]` uint8 images: each output pixel is the
    4x4 bicubic blend (float32) of the source around `inverse(matrix) @ (x, y, 1)`, with
    coordinates clamped into the image."""
    inverse = np.linalg.inv(matrix)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    w = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    w = np.where(w != 0, 1 / np.where(w != 0, w, 1), 0)
    sx = ((inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) * w).astype(np.float32)
    sy = ((inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) * w).astype(np.float32)
    ix, iy = np.floor(sx), np.floor(sy)
    wx, wy = _cubic_weights(sx - ix), _cubic_weights(sy - iy)  # [h, w, 4]
    src_h, src_w = image.shape[:2]
    taps = np.arange(-1, 3)
    cols = np.clip(ix.astype(np.int64)[..., None] + taps, 0, src_w - 1)  # [h, w, 4]
    rows = np.clip(iy.astype(np.int64)[..., None] + taps, 0, src_h - 1)
    patch = image[rows[..., :, None], cols[..., None, :]].astype(np.float32)  # [h, w, 4, 4, C]
    total = np.einsum("hwi,hwj,hwijc->hwc", wy, wx, patch)
    return np.clip(np.rint(total), 0, 255).astype(np.uint8)


def fill_polygon_mask(points: np.ndarray, height: int, width: int) -> np.ndarray:
    """`[height, width]` bool mask of an integer polygon, as `cv2.fillPoly` marks it: the
    scanlines between its edges (16.16 fixed-point x, rounded) plus its 8-connected outline.
    Used for DB's box score, the mean probability inside a box."""
    pts = np.asarray(points, dtype=np.int64).reshape(-1, 2)
    mask = np.zeros((height, width), dtype=bool)
    one = 1 << 16
    spans_lo = np.full(height, np.iinfo(np.int64).max)
    spans_hi = np.full(height, np.iinfo(np.int64).min)
    for (x0, y0), (x1, y1) in zip(np.roll(pts, 1, axis=0), pts, strict=True):
        _draw_line(mask, x0, y0, x1, y1)
        if y0 == y1:
            continue
        if y0 > y1:
            x0, y0, x1, y1 = x1, y1, x0, y0
        dx = int((x1 - x0) * one / (y1 - y0))  # C integer division truncates toward zero
        ys = np.arange(max(y0, 0), min(y1, height))
        xs = (x0 << 16) + (one >> 1) + (ys - y0) * dx
        np.minimum.at(spans_lo, ys, xs)
        np.maximum.at(spans_hi, ys, xs)
    rows = np.flatnonzero(spans_hi >= spans_lo)
    cols = np.arange(width)
    lo = np.clip(spans_lo[rows] >> 16, 0, None)
    hi = np.clip(spans_hi[rows] >> 16, None, width - 1)
    mask[rows] |= (cols[None, :] >= lo[:, None]) & (cols[None, :] <= hi[:, None])
    return mask


def _draw_line(mask: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> None:
    steps = max(abs(x1 - x0), abs(y1 - y0))
    t = np.arange(steps + 1) / max(steps, 1)
    xs = np.floor(x0 + (x1 - x0) * t + 0.5).astype(np.int64)
    ys = np.floor(y0 + (y1 - y0) * t + 0.5).astype(np.int64)
    keep = (xs >= 0) & (xs < mask.shape[1]) & (ys >= 0) & (ys < mask.shape[0])
    mask[ys[keep], xs[keep]] = True
