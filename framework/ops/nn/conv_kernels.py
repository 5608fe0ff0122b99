"""Convolution array kernels: forward, input gradient and weight gradient.

All three take NCHW-shaped arrays of any memory order and work channel-last inside (see
`im2col`); results are NCHW-shaped views of channel-last memory, so the next convolution,
batch norm or activation reads them without a transpose. `routing.conv_route` picks each
call's route (`benchmarks/conv_ops.py` and `onednn_conv.py` measure them); the kernels:

- `ONEDNN`: oneDNN's kernels (`onednn.training`), as PyTorch's CPU convolutions do, for
  float32 NumPy arrays where it is installed; a shape oneDNN has only reference loops for
  takes the route the policy picks next;
- `CHANNEL_FIRST`: few input channels, on NCHW columns (`conv_channel_first`);
- `DEPTHWISE`: groups == channels, fused sums over window views (`depthwise`);
- `POINTWISE_GEMM`: 1x1 kernels without padding, a plain GEMM over pixels;
- `IM2COL_GEMM`: chunked im2col + GEMM; for the input gradient of a stride-1 convolution, the
  flipped-kernel convolution, which avoids col2im; `COL2IM_GEMM` otherwise.

Weights enter the GEMMs in the layout of `conv_weights`.
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu import gemm, routing
from framework.backends.cpu.onednn import training as onednn
from framework.backends.cpu.routing import ConvRoute, ConvStep
from framework.backends.cpu.threads import parallel_gemms
from framework.backends.cpu.workspace import scratch
from framework.core.backend import get_array_module
from framework.core.conv_geometry import ConvGeometry
from framework.ops.nn import conv_channel_first, depthwise
from framework.ops.nn.conv_weights import flipped_gemm_weight, gemm_weight, weight_from_gemm
from framework.ops.nn.im2col import as_rows, col2im, im2col, pad_into, rows_of, share_images


def _case(x_shape, weight_shape, geom: ConvGeometry, *arrays, contiguous=True, buffer=False):
    return routing.ConvCase(
        tuple(x_shape),
        tuple(weight_shape),
        geom,
        routing.one_dtype(*arrays),
        numpy=all(isinstance(a, np.ndarray) for a in arrays if a is not None),
        contiguous=contiguous,
        buffer=buffer,
    )


def _route(case, step: ConvStep, route: ConvRoute | None, run_onednn) -> tuple:
    """(the route, oneDNN's result where it ran). `route` None: the policy's, where a shape
    oneDNN has only reference loops for goes to the route the policy picks next; a forced
    route is taken as it is."""
    forced = route is not None
    if route is None:
        route = routing.conv_route(case(), step, routing.live())
    if route is not ConvRoute.ONEDNN:
        return route, None
    found = run_onednn()
    if found is not None:
        return route, found
    if forced:
        raise ValueError("oneDNN does not take this convolution")
    return routing.conv_route(case(), step, routing.live(), onednn_refused=True), None


def conv_forward(x, weight, bias, geom: ConvGeometry, out=None, route: ConvRoute | None = None):
    """`[N, C, H, W]` * `[O, C/g, kh, kw]` (+ `[O]`) -> `[N, O, Ho, Wo]` (channel-last memory).

    `out`, when given, is the C-contiguous `[N, Ho, Wo, O]` buffer to write (the inference
    executor passes reused buffers); the result is then a view of it. `route` forces a route
    (it must be one `routing.conv_route` could pick for these arrays); by default the policy
    picks it.
    """
    xp = get_array_module(x)
    route, found = _route(
        lambda: _case(x.shape, weight.shape, geom, x, weight, bias,
                      contiguous=x.flags.c_contiguous, buffer=out is not None),
        ConvStep.FORWARD,
        route,
        lambda: onednn.conv_forward(x, weight, bias, geom),
    )  # fmt: skip
    if found is not None:
        return found.transpose(0, 3, 1, 2)
    if route is ConvRoute.CHANNEL_FIRST:
        y = conv_channel_first.forward(xp, xp.ascontiguousarray(x), weight, geom)
        if bias is not None:
            y += bias.reshape(-1, 1, 1)
        return y
    if out is None:
        out = xp.empty((x.shape[0], *geom.out_size, weight.shape[0]), dtype=x.dtype)
    if route is ConvRoute.DEPTHWISE:
        depthwise.forward(xp, x.transpose(0, 2, 3, 1), weight, geom, out)
    elif route is ConvRoute.POINTWISE_GEMM:
        _pointwise_forward(xp, x, gemm_weight(weight, geom.groups), geom, out)
    elif route is ConvRoute.IM2COL_GEMM:
        _im2col_forward(xp, x.transpose(0, 2, 3, 1), gemm_weight(weight, geom.groups), geom, out)
    if bias is not None:
        out += bias
    return out.transpose(0, 3, 1, 2)


def _pointwise_forward(xp, x, mats, geom: ConvGeometry, out) -> None:
    """`out` (NHWC) from x (NCHW-shaped) and 1x1 GEMM weights `[g, O/g, C/g]`."""
    n, c, h, w = x.shape
    if geom.stride == (1, 1) and geom.groups == 1 and x.flags.c_contiguous:
        # NCHW input: batched GEMMs reading each image as a transposed [H*W, C] matrix.
        images = x.reshape(n, c, h * w).transpose(0, 2, 1)
        rows = out.reshape(n, h * w, -1)

        def work(start: int, stop: int) -> None:
            gemm.matmul(xp, images[start:stop], mats[0].T, rows[start:stop])

        if parallel_gemms(xp, work, n) is None:
            work(0, n)
        return
    sh, sw = geom.stride
    rows = rows_of(xp, x.transpose(0, 2, 3, 1)[:, ::sh, ::sw], "conv_rows")
    _grouped_matmul(xp, rows, mats, out.reshape(rows.shape[0], -1), transpose=True)


def _grouped_matmul(xp, rows, mats, out, transpose: bool) -> None:
    """`out[:, group] = rows[:, group] @ mats[group](.T)` for every group, the rows shared out
    over the cores (see `parallel_gemms`)."""

    def work(start: int, stop: int) -> None:
        _grouped_matmul_rows(xp, rows[start:stop], mats, out[start:stop], transpose)

    if parallel_gemms(xp, work, rows.shape[0]) is None:
        work(0, rows.shape[0])


def _grouped_matmul_rows(xp, rows, mats, out, transpose: bool) -> None:
    groups = mats.shape[0]
    if groups == 1:
        gemm.matmul(xp, rows, mats[0].T if transpose else mats[0], out)
        return
    k = rows.shape[1] // groups
    o = out.shape[1] // groups
    for g in range(groups):
        mat = mats[g].T if transpose else mats[g]
        out[:, g * o : (g + 1) * o] = rows[:, g * k : (g + 1) * k] @ mat


def _chunk_columns(xp, xh, geom: ConvGeometry, groups: int, first: int, last: int, step: int):
    """Yields `(start, stop, g, cols)`: the im2col columns of group `g` of the images
    `[start, stop)`, for chunks of `step` images over `[first, last)` (in scratch: each is
    valid until the next one)."""
    cg = xh.shape[3] // groups
    size = geom.padded_size()
    for start in range(first, last, step):
        stop = min(last, start + step)
        padded = pad_into(xp, xh[start:stop], geom.padding, size, "conv_padded")
        for g in range(groups):
            yield start, stop, g, im2col(xp, padded[..., g * cg : (g + 1) * cg], geom, "conv_cols")


def _im2col_forward(xp, xh, mats, geom: ConvGeometry, out) -> None:
    n = xh.shape[0]
    groups, og, k = mats.shape
    ho, wo = geom.out_size
    out_rows = out.reshape(n * ho * wo, groups * og)

    def work(first: int, last: int, step: int) -> None:
        for start, stop, g, cols in _chunk_columns(xp, xh, geom, groups, first, last, step):
            rows = out_rows[start * ho * wo : stop * ho * wo]
            if groups == 1:
                gemm.matmul(xp, cols, mats[0].T, rows)
            else:
                rows[:, g * og : (g + 1) * og] = cols @ mats[g].T

    share_images(xp, work, n, ho * wo * k * groups * xh.itemsize)


def conv_input_grad(gy, weight, geom: ConvGeometry, route: ConvRoute | None = None):
    """The adjoint of `conv_forward` in x: `[N, O, Ho, Wo]` -> `[N, C, H, W]`.

    This is also the transposed convolution (`conv2d_transpose`) of `gy` with `weight`.
    `route` forces a route, as in `conv_forward`.
    """
    xp = get_array_module(gy)
    n = gy.shape[0]
    c = weight.shape[1] * geom.groups
    h, w = geom.in_size
    route, found = _route(
        lambda: _case((n, c, h, w), weight.shape, geom, gy, weight),
        ConvStep.INPUT_GRAD,
        route,
        lambda: onednn.conv_input_grad(gy, weight, geom),
    )
    if found is not None:
        return found.transpose(0, 3, 1, 2)
    gyh = gy.transpose(0, 2, 3, 1)
    if route is ConvRoute.EMPTY:
        return xp.zeros((n, h, w, c), dtype=gy.dtype).transpose(0, 3, 1, 2)
    if route is ConvRoute.DEPTHWISE:
        return depthwise.input_grad(xp, gyh, weight, geom).transpose(0, 3, 1, 2)
    if route is ConvRoute.POINTWISE_GEMM:
        return _pointwise_input_grad(xp, gyh, weight, geom, c).transpose(0, 3, 1, 2)
    if route is ConvRoute.CHANNEL_FIRST:
        return conv_channel_first.input_grad(xp, xp.ascontiguousarray(gy), weight, geom)
    if route is ConvRoute.IM2COL_GEMM:  # the flipped convolution
        flipped = geom.flipped()
        gx = xp.empty((n, h, w, c), dtype=gy.dtype)
        _im2col_forward(xp, gyh, flipped_gemm_weight(xp, weight, geom.groups), flipped, gx)
        return gx.transpose(0, 3, 1, 2)
    return _col2im_input_grad(xp, gyh, weight, geom, c).transpose(0, 3, 1, 2)


def _pointwise_input_grad(xp, gyh, weight, geom: ConvGeometry, c: int):
    n, ho, wo, o = gyh.shape
    h, w = geom.in_size
    sh, sw = geom.stride
    rows = rows_of(xp, gyh, "conv_grad_rows")
    mats = gemm_weight(weight, geom.groups)  # [g, O/g, C/g]: no flip or transpose for 1x1
    if (sh, sw) == (1, 1) and (ho, wo) == (h, w):
        gx = xp.empty((n, h, w, c), dtype=gyh.dtype)
        _grouped_matmul(xp, rows, mats, as_rows(gx), transpose=False)
        return gx
    gx = xp.zeros((n, h, w, c), dtype=gyh.dtype)
    hit = scratch(xp, "conv_grad_hit", (n * ho * wo, c), gyh.dtype)
    _grouped_matmul(xp, rows, mats, hit, transpose=False)
    gx[:, : sh * ho : sh, : sw * wo : sw] = hit.reshape(n, ho, wo, c)
    return gx


def _col2im_input_grad(xp, gyh, weight, geom: ConvGeometry, c: int):
    n, ho, wo, o = gyh.shape
    _, cg, kh, kw = weight.shape
    h, w = geom.in_size
    (top, _), (left, _) = geom.padding
    mats = gemm_weight(weight, geom.groups)
    groups, og, _ = mats.shape
    rows = rows_of(xp, gyh, "conv_grad_rows")
    gx = xp.empty((n, h, w, c), dtype=gyh.dtype)

    def work(first: int, last: int, step: int) -> None:
        for start in range(first, last, step):
            stop = min(last, start + step)
            chunk = rows[start * ho * wo : stop * ho * wo]
            cols = scratch(xp, "conv_grad_cols", (chunk.shape[0], kh * kw * c), gyh.dtype)
            if groups == 1:
                gemm.matmul(xp, chunk, mats[0], cols)
            else:
                taps = cols.reshape(-1, kh * kw, c)
                for g in range(groups):
                    part = chunk[:, g * og : (g + 1) * og] @ mats[g]
                    taps[:, :, g * cg : (g + 1) * cg] = part.reshape(-1, kh * kw, cg)
            padded = col2im(xp, cols, geom, "conv_grad_padded")
            gx[start:stop] = padded[:, top : top + h, left : left + w]

    share_images(xp, work, n, ho * wo * kh * kw * c * gyh.itemsize)
    return gx


def conv_weight_grad(
    x, gy, geom: ConvGeometry, weight_shape: tuple[int, ...], route: ConvRoute | None = None
):
    """The adjoint of `conv_forward` in the weight: `sum over windows of x (x) gy`. `route`
    forces a route, as in `conv_forward`."""
    xp = get_array_module(x)
    contiguous = x.flags.c_contiguous and gy.flags.c_contiguous
    route, found = _route(
        lambda: _case(x.shape, weight_shape, geom, x, gy, contiguous=contiguous),
        ConvStep.WEIGHT_GRAD,
        route,
        lambda: onednn.conv_weight_grad(x, gy, geom, weight_shape),
    )
    if found is not None:
        return found
    if route is ConvRoute.EMPTY:
        return xp.zeros(weight_shape, dtype=x.dtype)
    if route is ConvRoute.CHANNEL_FIRST:
        x, gy = xp.ascontiguousarray(x), xp.ascontiguousarray(gy)
        return conv_channel_first.weight_grad(xp, x, gy, geom, weight_shape)
    xh = x.transpose(0, 2, 3, 1)
    gyh = gy.transpose(0, 2, 3, 1)
    if route is ConvRoute.DEPTHWISE:
        return depthwise.weight_grad(xp, xh, gyh, geom)
    o, cg, kh, kw = weight_shape
    groups = geom.groups
    gy_rows = rows_of(xp, gyh, "conv_gy_rows")
    mats = xp.empty((groups, o // groups, kh * kw * cg), dtype=x.dtype)
    if route is ConvRoute.POINTWISE_GEMM:
        sh, sw = geom.stride
        _pointwise_weight_grad(xp, rows_of(xp, xh[:, ::sh, ::sw], "conv_rows"), gy_rows, mats)
    else:
        _im2col_weight_grad(xp, xh, gy_rows, geom, mats)
    return weight_from_gemm(mats, weight_shape)


def _pointwise_weight_grad(xp, x_rows, gy_rows, mats) -> None:
    """`mats[g] = gy_rows[:, g].T @ x_rows[:, g]`: a long reduction over pixels, which BLAS does
    not split over threads. The pixels are shared out instead, and the partial sums added."""
    groups, og, cg = mats.shape

    def work(start: int, stop: int):
        total = mats if start == 0 else xp.empty_like(mats)
        for g in range(groups):
            gemm.matmul(
                xp,
                gy_rows[start:stop, g * og : (g + 1) * og].T,
                x_rows[start:stop, g * cg : (g + 1) * cg],
                total[g],
            )
        return total

    totals = parallel_gemms(xp, work, x_rows.shape[0]) or [work(0, x_rows.shape[0])]
    for total in totals[1:]:
        mats += total


def _im2col_weight_grad(xp, xh, gy_rows, geom: ConvGeometry, mats) -> None:
    """`mats[g] = sum over chunks of gy_chunk[:, g].T @ cols_g` (`[O/g, K]` per group).

    Each share of the batch sums its chunks into its own `[g, O/g, K]` (the first share straight
    into `mats`); the shares' sums are added at the end. Those are fresh arrays, not scratch: a
    pool thread may run two shares, and the second would overwrite the first's sum.
    """
    n = xh.shape[0]
    groups, og, k = mats.shape
    ho, wo = geom.out_size

    def work(first: int, last: int, step: int):
        total = mats if first == 0 else xp.empty_like(mats)
        for start, stop, g, cols in _chunk_columns(xp, xh, geom, groups, first, last, step):
            grads = gy_rows[start * ho * wo : stop * ho * wo, g * og : (g + 1) * og]
            if start == first:
                gemm.matmul(xp, grads.T, cols, total[g])
            else:
                part = scratch(xp, "conv_weight_part", mats.shape[1:], mats.dtype)
                gemm.matmul(xp, grads.T, cols, part)
                total[g] += part
        return total

    totals = share_images(xp, work, n, ho * wo * k * groups * xh.itemsize)
    for total in totals[1:]:
        mats += total
