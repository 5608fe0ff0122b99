"""Normalization kernels for inference: batch norm as a per-channel affine map (its scale and
shift precomputed once when the statistics are initializers), layer, group and instance norm."""

from __future__ import annotations

from framework.inference.kernels import activation
from framework.inference.kernels.registry import kernel
from framework.jit.op_schema import attr


def batch_norm_affine(xp, scale, bias, mean, var, eps: float, dtype):
    """Per-channel `(a, b)` with `batch_norm(x) = a * x + b`."""
    a = 1.0 / xp.sqrt(var.astype(xp.float64) + eps)
    if scale is not None:
        a = a * scale
    b = -mean * a
    if bias is not None:
        b = b + bias
    return a.astype(dtype), b.astype(dtype)


@kernel("batch_norm")
def batch_norm(node, ctx):
    xp = ctx.xp
    eps = float(attr(node, "epsilon"))
    axis = int(attr(node, "axis"))
    fused = activation.in_place(node.attrs.get("activation"), xp)
    static = [ctx.static(i) for i in range(1, 5)]
    has = [bool(name) for name in node.inputs[1:3]]
    fixed = None
    if all(s is not None for s, needed in zip(static, [*has, True, True], strict=True) if needed):
        fixed = batch_norm_affine(xp, *static, eps, static[2].dtype)
    shapes: dict[int, tuple] = {}

    def run(x, scale=None, bias=None, mean=None, var=None):
        a, b = (
            fixed
            if fixed is not None
            else batch_norm_affine(xp, scale, bias, mean, var, eps, x.dtype)
        )
        ndim = x.ndim
        view = shapes.get(ndim)
        if view is None:
            view = [1] * ndim
            view[axis % ndim] = -1
            view = shapes[ndim] = tuple(view)
        out = ctx.output_like((x,), x.shape, x.dtype)
        xp.multiply(x, a.reshape(view), out=out)
        out += b.reshape(view)
        if fused is not None:
            fused(out)
        return out

    return run


def _affine(xp, y, scale, bias, view):
    if scale is not None:
        y *= scale.reshape(view)
    if bias is not None:
        y += bias.reshape(view)
    return y


@kernel("layer_norm")
def layer_norm(node, ctx):
    xp = ctx.xp
    eps = float(attr(node, "epsilon"))
    axis = int(attr(node, "axis"))

    def run(x, scale=None, bias=None):
        begin = axis % x.ndim
        axes = tuple(range(begin, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        centred = x - mean
        var = xp.mean(centred * centred, axis=axes, keepdims=True)
        centred /= xp.sqrt(var + x.dtype.type(eps))
        return _affine(xp, centred, scale, bias, x.shape[begin:])

    return run


@kernel("group_norm", "instance_norm")
def group_norm(node, ctx):
    xp = ctx.xp
    eps = float(attr(node, "epsilon"))
    channel_last = attr(node, "data_format")[1] != "C"
    groups = int(attr(node, "num_groups")) if node.op_type == "group_norm" else None

    def run(x, scale=None, bias=None):
        xc = xp.moveaxis(x, -1, 1) if channel_last else x
        n, c = xc.shape[:2]
        g = c if groups is None else groups
        v = xp.ascontiguousarray(xc).reshape(n, g, -1)
        mean = v.mean(axis=2, keepdims=True)
        centred = v - mean
        var = xp.mean(centred * centred, axis=2, keepdims=True)
        centred /= xp.sqrt(var + x.dtype.type(eps))
        y = centred.reshape(xc.shape)
        view = (1, c) + (1,) * (xc.ndim - 2)
        y = _affine(xp, y, scale, bias, view)
        return xp.moveaxis(y, 1, -1) if channel_last else y

    return run
