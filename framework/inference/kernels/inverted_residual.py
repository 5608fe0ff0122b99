"""A fused inverted-residual body for the CPU predictor: 1x1 expand, depthwise, 1x1 project.

MobileNetV2's blocks widen the channels six times with a 1x1 convolution, filter each channel
with a depthwise 3x3 and narrow them again with a second 1x1. Run op by op, the wide tensor is
written to memory by the first GEMM, read and written again by its bias/ReLU6 epilogue, read
by the depthwise kernel's padded copy, and its depthwise result goes through memory once more:
at 112x112 and 56x56 those GEMMs are memory-bound (14-23 GMAC/s against 50-60 for the deep
layers). Here the work is cut into bands of depthwise output rows; for each band the
expansion of just the input rows it reads (the halo rows computed twice) goes into a cached
buffer, the depthwise taps run from its padded copy into a second one, and the projection
writes the band's output rows. Only the block's narrow input and output touch memory.

The graph rewrite that makes these nodes is `passes.block_fusion` (run by the executor on
the CPU with prepared weights; the op never reaches a saved model).
"""

from __future__ import annotations

from framework.backends.cpu.tuning import TUNING
from framework.backends.cpu.workspace import scratch
from framework.core.conv_geometry import ConvGeometry
from framework.inference.kernels import activation, depthwise
from framework.inference.kernels.conv import conv_epilogue, window_2d
from framework.inference.kernels.conv_gemm import product
from framework.inference.kernels.registry import internal_kernel, share_out

OP_TYPE = "inverted_residual"  # inputs: x, expand w, b?, depthwise w, b?, project w, b?;
# attrs: the three fused conv2d nodes ("expand", "depthwise", "project")
_NHWC = (0, 2, 3, 1)


@internal_kernel(OP_TYPE)
def inverted_residual(node, ctx):
    xp = ctx.xp
    e_node, d_node, p_node = (node.attrs[key] for key in ("expand", "depthwise", "project"))
    e_weight, d_weight, p_weight = ctx.static(1), ctx.static(3), ctx.static(5)
    e_matrix = xp.ascontiguousarray(e_weight.reshape(e_weight.shape[0], -1))  # [hidden, C]
    p_matrix = xp.ascontiguousarray(p_weight.reshape(p_weight.shape[0], -1))  # [O, hidden]
    taps = depthwise.taps_of(xp, d_weight)
    hidden, out_channels = e_matrix.shape[0], p_matrix.shape[0]
    finish_expand = conv_epilogue(ctx.static(2), _activation(e_node, xp), xp)
    dw_activation = _activation(d_node, xp)
    finish_project = conv_epilogue(ctx.static(6), _activation(p_node, xp), xp)
    stride, padding, dilation = window_2d(d_node, False)
    kernel_size = tuple(d_weight.shape[2:])
    plans: dict[tuple, depthwise.DepthwisePlan] = {}

    def run(x, *weights):
        n, c, h, w = x.shape
        plan = plans.get((h, w))
        if plan is None:
            geom = ConvGeometry.for_input((h, w), kernel_size, stride, padding, dilation, hidden)
            if min(geom.out_size) < 1:
                raise ValueError(f"{node.name}: input {[h, w]} is smaller than the kernel")
            plan = plans[(h, w)] = depthwise.DepthwisePlan(xp, taps, ctx.static(4), geom)
        ho, wo = plan.geom.out_size
        out = ctx.empty((n, out_channels, ho, wo), x.dtype, _NHWC)
        xh, oh = x.transpose(_NHWC), out.transpose(_NHWC)
        row_bytes = (stride[0] * w + 2 * wo) * hidden * x.itemsize  # expanded, filtered
        tasks = depthwise.band_tasks(
            n, ho, row_bytes, ctx.workers, TUNING.inverted_residual_band_bytes
        )

        def work(start: int, stop: int) -> None:
            for task in tasks[start:stop]:
                _band(xp, xh, plan, oh, *task)

        share_out(work, len(tasks), ctx.workers)
        return out

    def _band(xp, xh, plan, oh, i0: int, i1: int, r0: int, r1: int) -> None:
        geom = plan.geom
        (kh, _), (sh, _), (dh, _) = geom.kernel, geom.stride, geom.dilation
        rows, images = r1 - r0, i1 - i0
        first = r0 * sh - geom.padding[0][0]
        lo, hi = max(0, first), min(xh.shape[1], first + sh * (rows - 1) + dh * (kh - 1) + 1)
        w, c = xh.shape[2], xh.shape[3]
        expanded = scratch(xp, "fused_expanded", (images, max(0, hi - lo), w, hidden), xh.dtype)
        if hi > lo:
            source = xh[i0:i1, lo:hi]
            if source.flags.c_contiguous:
                source_rows = source.reshape(-1, c)
            else:
                source_rows = scratch(xp, "fused_rows", (source.size // c, c), xh.dtype)
                source_rows.reshape(source.shape)[...] = source
            expanded_rows = expanded.reshape(-1, hidden)
            product(xp, source_rows, e_matrix, expanded_rows)
            if finish_expand is not None:
                finish_expand(expanded_rows)
        # Rows outside [lo, hi) are outside the image: padded_band fills them with zeros.
        padded = depthwise.padded_band(xp, expanded, geom, 0, images, first - lo, rows)
        filtered = scratch(xp, "fused_filtered", (images, rows, geom.out_size[1], hidden), xh.dtype)
        depthwise.finish_band(xp, padded, plan, filtered, dw_activation)
        out_rows = oh[i0:i1, r0:r1].reshape(-1, out_channels)
        product(xp, filtered.reshape(-1, hidden), p_matrix, out_rows)
        if finish_project is not None:
            finish_project(out_rows)

    return run


def _activation(node, xp):
    return activation.in_place(node.attrs.get("activation"), xp)
