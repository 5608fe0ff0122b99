"""Convolution array kernels: forward, input gradient and weight gradient.

All three take NCHW-shaped arrays of any memory order and work channel-last inside (see
`im2col`); results are NCHW-shaped views of channel-last memory, so the next convolution,
batch norm or activation reads them without a transpose. Paths:

- 1x1 kernels without padding are a plain GEMM over pixels (strided for stride > 1);
- depthwise kernels (groups == channels) are per-tap multiply-adds (`depthwise`);
- everything else is chunked im2col + GEMM. The input gradient of a stride-1 convolution is
  itself a convolution (flipped kernel), which avoids col2im; other strides use col2im.
"""

from __future__ import annotations

from framework.core.backend import get_array_module
from framework.ops.nn import depthwise
from framework.ops.nn.conv_geometry import ConvGeometry
from framework.ops.nn.im2col import (
    as_rows,
    col2im,
    im2col,
    images_per_chunk,
    pad_into,
    rows_of,
)
from framework.ops.nn.workspace import scratch


def weight_matrix(weight, group: int, groups: int):
    """Group `group` of an `[O, C/g, kh, kw]` weight as a `[kh*kw*C/g, O/g]` GEMM operand."""
    per_group = weight.shape[0] // groups
    w = weight[group * per_group : (group + 1) * per_group]
    return w.transpose(2, 3, 1, 0).reshape(-1, per_group)


def flipped_weight(weight, groups: int):
    """The kernel of the transposed map: `[O, C/g, kh, kw]` -> `[C, O/g, kh, kw]`, flipped."""
    o, cg, kh, kw = weight.shape
    w = weight.reshape(groups, o // groups, cg, kh, kw).transpose(0, 2, 1, 3, 4)
    return w[..., ::-1, ::-1].reshape(groups * cg, o // groups, kh, kw)


def conv_forward(x, weight, bias, geom: ConvGeometry, out=None):
    """`[N, C, H, W]` * `[O, C/g, kh, kw]` (+ `[O]`) -> `[N, O, Ho, Wo]` (channel-last memory).

    `out`, when given, is the C-contiguous `[N, Ho, Wo, O]` buffer to write (the inference
    executor passes reused buffers); the result is then a view of it.
    """
    xp = get_array_module(x)
    n, c = x.shape[:2]
    o = weight.shape[0]
    ho, wo = geom.out_size
    if out is None:
        out = xp.empty((n, ho, wo, o), dtype=x.dtype)
    xh = x.transpose(0, 2, 3, 1)
    if n and ho and wo:
        if geom.is_depthwise(c, o):
            depthwise.forward(xp, xh, weight, geom, out)
        elif geom.is_pointwise():
            _pointwise_forward(xp, x, weight, geom, out)
        else:
            _im2col_forward(xp, xh, weight, geom, out)
    if bias is not None:
        out += bias
    return out.transpose(0, 3, 1, 2)


def _pointwise_forward(xp, x, weight, geom: ConvGeometry, out) -> None:
    n, c, h, w = x.shape
    groups = geom.groups
    if geom.stride == (1, 1) and groups == 1 and x.flags.c_contiguous:
        # NCHW input: one batched GEMM reading each image as a transposed [H*W, C] matrix.
        xp.matmul(
            x.reshape(n, c, h * w).transpose(0, 2, 1),
            weight_matrix(weight, 0, 1),
            out=out.reshape(n, h * w, -1),
        )
        return
    sh, sw = geom.stride
    rows = rows_of(xp, x.transpose(0, 2, 3, 1)[:, ::sh, ::sw], "conv_rows")
    _grouped_matmul(xp, rows, weight, groups, out.reshape(rows.shape[0], -1))


def _grouped_matmul(xp, rows, weight, groups: int, out) -> None:
    """`out[:, group] = rows[:, group] @ weight_matrix(group)` for every group."""
    if groups == 1:
        xp.matmul(rows, weight_matrix(weight, 0, 1), out=out)
        return
    k = rows.shape[1] // groups
    o = out.shape[1] // groups
    for g in range(groups):
        out[:, g * o : (g + 1) * o] = rows[:, g * k : (g + 1) * k] @ weight_matrix(
            weight, g, groups
        )


def _im2col_forward(xp, xh, weight, geom: ConvGeometry, out) -> None:
    n, _, _, c = xh.shape
    o, cg, kh, kw = weight.shape
    ho, wo = geom.out_size
    groups = geom.groups
    size = geom.padded_size()
    out_rows = out.reshape(n * ho * wo, o)
    per_group = [weight_matrix(weight, g, groups) for g in range(groups)]
    step = images_per_chunk(xp, n, ho * wo * kh * kw * c * xh.itemsize)
    og = o // groups
    for start in range(0, n, step):
        stop = min(n, start + step)
        padded = pad_into(xp, xh[start:stop], geom.padding, size, "conv_padded")
        rows = out_rows[start * ho * wo : stop * ho * wo]
        for g in range(groups):
            cols = im2col(xp, padded[..., g * cg : (g + 1) * cg], geom, "conv_cols")
            if groups == 1:
                xp.matmul(cols, per_group[0], out=rows)
            else:
                rows[:, g * og : (g + 1) * og] = cols @ per_group[g]


def conv_input_grad(gy, weight, geom: ConvGeometry):
    """The adjoint of `conv_forward` in x: `[N, O, Ho, Wo]` -> `[N, C, H, W]`.

    This is also the transposed convolution (`conv2d_transpose`) of `gy` with `weight`.
    """
    xp = get_array_module(gy)
    n, o = gy.shape[:2]
    c = weight.shape[1] * geom.groups
    h, w = geom.in_size
    gyh = gy.transpose(0, 2, 3, 1)
    if not (n and gy.shape[2] and gy.shape[3]):
        return xp.zeros((n, h, w, c), dtype=gy.dtype).transpose(0, 3, 1, 2)
    if geom.is_depthwise(c, o):
        return depthwise.input_grad(xp, gyh, weight, geom).transpose(0, 3, 1, 2)
    if geom.is_pointwise():
        return _pointwise_input_grad(xp, gyh, weight, geom, c).transpose(0, 3, 1, 2)
    flipped = geom.flipped()
    if flipped is not None:
        return conv_forward(gy, flipped_weight(weight, geom.groups), None, flipped)
    return _col2im_input_grad(xp, gyh, weight, geom, c).transpose(0, 3, 1, 2)


def _pointwise_input_grad(xp, gyh, weight, geom: ConvGeometry, c: int):
    n, ho, wo, o = gyh.shape
    h, w = geom.in_size
    sh, sw = geom.stride
    rows = rows_of(xp, gyh, "conv_grad_rows")
    if (sh, sw) == (1, 1) and (ho, wo) == (h, w):
        gx = xp.empty((n, h, w, c), dtype=gyh.dtype)
        _grouped_matmul(xp, rows, flipped_weight(weight, geom.groups), geom.groups, as_rows(gx))
        return gx
    gx = xp.zeros((n, h, w, c), dtype=gyh.dtype)
    hit = scratch(xp, "conv_grad_hit", (n * ho * wo, c), gyh.dtype)
    _grouped_matmul(xp, rows, flipped_weight(weight, geom.groups), geom.groups, hit)
    gx[:, : sh * ho : sh, : sw * wo : sw] = hit.reshape(n, ho, wo, c)
    return gx


def _col2im_input_grad(xp, gyh, weight, geom: ConvGeometry, c: int):
    n, ho, wo, o = gyh.shape
    _, cg, kh, kw = weight.shape
    h, w = geom.in_size
    (top, _), (left, _) = geom.padding
    groups = geom.groups
    og = o // groups
    rows = rows_of(xp, gyh, "conv_grad_rows")
    transposed = [weight_matrix(weight, g, groups).T for g in range(groups)]
    gx = xp.empty((n, h, w, c), dtype=gyh.dtype)
    step = images_per_chunk(xp, n, ho * wo * kh * kw * c * gyh.itemsize)
    for start in range(0, n, step):
        stop = min(n, start + step)
        chunk = rows[start * ho * wo : stop * ho * wo]
        cols = scratch(xp, "conv_grad_cols", (chunk.shape[0], kh * kw * c), gyh.dtype)
        if groups == 1:
            xp.matmul(chunk, transposed[0], out=cols)
        else:
            taps = cols.reshape(-1, kh * kw, c)
            for g in range(groups):
                part = chunk[:, g * og : (g + 1) * og] @ transposed[g]
                taps[:, :, g * cg : (g + 1) * cg] = part.reshape(-1, kh * kw, cg)
        padded = col2im(xp, cols, geom, "conv_grad_padded")
        gx[start:stop] = padded[:, top : top + h, left : left + w]
    return gx


def conv_weight_grad(x, gy, geom: ConvGeometry, weight_shape: tuple[int, ...]):
    """The adjoint of `conv_forward` in the weight: `sum over windows of x (x) gy`."""
    xp = get_array_module(x)
    o, cg, kh, kw = weight_shape
    n, c = x.shape[:2]
    if not (n and gy.shape[2] and gy.shape[3]):
        return xp.zeros(weight_shape, dtype=x.dtype)
    xh = x.transpose(0, 2, 3, 1)
    gyh = gy.transpose(0, 2, 3, 1)
    if geom.is_depthwise(c, o):
        return depthwise.weight_grad(xp, xh, gyh, geom)
    groups = geom.groups
    og = o // groups
    gy_rows = rows_of(xp, gyh, "conv_gy_rows")
    if geom.is_pointwise():
        sh, sw = geom.stride
        x_rows = rows_of(xp, xh[:, ::sh, ::sw], "conv_rows")
        mats = [
            x_rows[:, g * cg : (g + 1) * cg].T @ gy_rows[:, g * og : (g + 1) * og]
            for g in range(groups)
        ]
    else:
        mats = _im2col_weight_grad(xp, xh, gy_rows, geom, weight_shape)
    gw = xp.empty(weight_shape, dtype=x.dtype)
    for g, mat in enumerate(mats):
        gw[g * og : (g + 1) * og] = mat.reshape(kh, kw, cg, og).transpose(3, 2, 0, 1)
    return gw


def _im2col_weight_grad(xp, xh, gy_rows, geom: ConvGeometry, weight_shape) -> list:
    o, cg, kh, kw = weight_shape
    n, _, _, c = xh.shape
    ho, wo = geom.out_size
    groups = geom.groups
    og = o // groups
    size = geom.padded_size()
    step = images_per_chunk(xp, n, ho * wo * kh * kw * c * xh.itemsize)
    mats = [None] * groups
    for start in range(0, n, step):
        stop = min(n, start + step)
        padded = pad_into(xp, xh[start:stop], geom.padding, size, "conv_padded")
        chunk = gy_rows[start * ho * wo : stop * ho * wo]
        for g in range(groups):
            cols = im2col(xp, padded[..., g * cg : (g + 1) * cg], geom, "conv_cols")
            part = cols.T @ chunk[:, g * og : (g + 1) * og]
            mats[g] = part if mats[g] is None else mats[g] + part
    return mats
