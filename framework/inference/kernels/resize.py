"""The resize kernel: `resample_axis` nodes, with taps recomputed for each input size seen."""

from __future__ import annotations

from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr
from framework.jit.replay import resample_spec
from framework.ops.nn.interpolate import AxisResample


@kernel("resample_axis")
def resample_axis(node, ctx):
    axis = int(attr(node, "axis"))
    spec = resample_spec(node)
    resamplers: dict[int, AxisResample] = {}  # per input size: dynamic shapes bring several

    def run(x):
        size = x.shape[axis]
        resampler = resamplers.get(size)
        if resampler is None:
            resampler = resamplers[size] = AxisResample.from_spec(axis, size, spec)
        return resampler.forward(x)

    return run
