"""Normalization Functions: batch, layer, group and instance norm share one formula.

A `NormPlan` says how a normalization sees its input: a canonical view of x, the axes the
statistics reduce, the broadcast shape of gamma/beta and, for batch norm in eval mode, fixed
statistics. `Normalize` is the forward, `NormalizeGrad` its gradient (itself differentiable),
and `NormalizeGradGrad` the second-order terms (third order is not supported).
"""

from __future__ import annotations

from collections.abc import Callable

from framework.core.autograd import Function
from framework.core.backend import get_array_module
from framework.ops.nn import batch_norm_kernels as bn
from framework.ops.nn import normalization_kernels as kernels


class NormPlan:
    """The shape side of a normalization. `channel_axis` is set for batch norm (statistics
    over every axis but it); otherwise x is reshaped to `view_shape` with statistics over
    `axes`, after moving `move_axis` (a channel-last axis) to 1."""

    def __init__(
        self,
        eps: float,
        param_shape: tuple[int, ...],
        axes: tuple[int, ...] = (0, 2),
        param_axes: tuple[int, ...] = (0, 2),
        view_shape: tuple[int, ...] | None = None,
        channel_axis: int | None = None,
        move_axis: int | None = None,
        fixed_stats: tuple | None = None,
        on_stats: Callable | None = None,
    ) -> None:
        self.eps = eps
        self.param_shape = param_shape  # of gamma/beta as the user passes them
        self.axes = axes
        self.param_axes = param_axes
        self.view_shape = view_shape
        self.channel_axis = channel_axis
        self.move_axis = move_axis
        self.fixed_stats = fixed_stats  # (mean, var) arrays for eval-mode batch norm
        self.on_stats = on_stats  # called with (mean, var) of a batch: running-stat updates

    # --- views ----------------------------------------------------------------------------------
    def view(self, x) -> tuple:
        """(canonical view of x, function giving an array of that view back x's shape/order)."""
        xp = get_array_module(x)
        if self.channel_axis is not None:
            found = bn.as_channel_view(xp, x, self.channel_axis)
            if found is not None:
                return found
            x = xp.ascontiguousarray(x)
            return bn.as_channel_view(xp, x, self.channel_axis)
        if self.move_axis is not None:
            moved = xp.ascontiguousarray(xp.moveaxis(x, self.move_axis, 1))
            shape = moved.shape
            return moved.reshape(self.view_shape), lambda a: xp.moveaxis(
                a.reshape(shape), 1, self.move_axis
            )
        return xp.ascontiguousarray(x).reshape(self.view_shape), lambda a: a.reshape(x.shape)

    def view_like(self, array, x, restore) -> object:
        """`array` (shaped like x) in x's canonical view, copied into x's layout if needed."""
        if array.strides == x.strides and array.dtype == x.dtype:
            return self.view(array)[0]
        xp = get_array_module(array)
        v = self.view(x)[0]
        out = xp.empty(v.shape, dtype=x.dtype)
        restore(out)[...] = array
        return out

    def param_view(self, param):
        if param is None:
            return None
        shape = [1] * (len(self.view_shape) if self.view_shape else 3)
        if self.channel_axis is not None:
            shape[1] = -1
        else:
            for axis in range(len(shape)):
                if axis not in self.param_axes:
                    shape[axis] = self.view_shape[axis]
        return param.reshape(shape)

    def stats(self, v):
        """(mean, invstd) broadcastable against the view; batch norm in training mode has its
        own pass (`bn.channel_forward`)."""
        xp = get_array_module(v)
        if self.fixed_stats is not None:
            mean, var = self.fixed_stats
            invstd = 1.0 / xp.sqrt(var + v.dtype.type(self.eps))
            return self.param_view(mean), self.param_view(invstd)
        mean, invstd, var = kernels.moments(v, self.axes, self.eps)
        return mean, invstd


class Normalize(Function):
    """`y = (x - mean) * invstd * gamma + beta`; inputs (x[, gamma][, beta])."""

    real_only = True

    def __init__(self, plan: NormPlan, has_gamma: bool, has_beta: bool) -> None:
        self.plan = plan
        self.has_gamma = has_gamma
        self.has_beta = has_beta

    def forward(self, x, *params):
        plan = self.plan
        gamma = params[0] if self.has_gamma else None
        beta = params[-1] if self.has_beta else None
        self.retain_inputs(*range(1 + self.has_gamma))
        xp = get_array_module(x)
        v, restore = plan.view(x)
        if plan.channel_axis is not None and plan.fixed_stats is None:
            flat = [None if p is None else p.reshape(-1) for p in (gamma, beta)]
            out, mean, var, invstd = bn.channel_forward(xp, v, *flat, plan.eps)
            if plan.on_stats is not None:
                plan.on_stats(mean, var, v.shape[0] * v.shape[2])
            self.mean, self.invstd = plan.param_view(mean), plan.param_view(invstd)
            return restore(out)
        self.mean, self.invstd = plan.stats(v)
        g, b = plan.param_view(gamma), plan.param_view(beta)
        if plan.channel_axis is None:
            return restore(kernels.forward(v, g, b, self.mean, self.invstd))
        scale = self.invstd if g is None else g * self.invstd
        shift = -self.mean * scale
        if b is not None:
            shift = shift + b
        out = xp.empty(v.shape, dtype=v.dtype)
        bn.channel_affine(xp, v, scale.ravel().astype(v.dtype), shift.ravel().astype(v.dtype), out)
        return restore(out)

    def backward(self, gy):
        saved = self.saved_inputs()
        grad = NormalizeGrad(self.plan, self.mean, self.invstd, self.has_gamma)
        gx, ggamma, gbeta = grad.apply(*saved, gy)
        out = [gx]
        if self.has_gamma:
            out.append(ggamma)
        if self.has_beta:
            out.append(gbeta)
        return tuple(out)


class NormalizeGrad(Function):
    """`(x[, gamma], gy) -> (gx, ggamma, gbeta)`, the gradient of `Normalize`."""

    def __init__(self, plan: NormPlan, mean, invstd, has_gamma: bool) -> None:
        self.plan = plan
        self.mean = mean
        self.invstd = invstd
        self.has_gamma = has_gamma

    def forward(self, x, *rest):
        self.retain_inputs(*range(len(rest) + 1))
        plan = self.plan
        gamma = rest[0] if self.has_gamma else None
        gy = rest[-1]
        xp = get_array_module(x)
        v, restore = plan.view(x)
        gv = plan.view_like(gy, x, restore)
        g = plan.param_view(gamma)
        fixed = plan.fixed_stats is not None
        if plan.channel_axis is not None and not fixed:
            gx = xp.empty(v.shape, dtype=v.dtype)
            mean, invstd = self.mean.ravel(), self.invstd.ravel()
            gamma_flat = None if g is None else g.ravel()
            ggamma, gbeta = bn.channel_backward(xp, v, gv, mean, invstd, gamma_flat, plan.eps, gx)
        else:
            axes, param_axes = plan.axes, plan.param_axes
            gx, ggamma, gbeta = kernels.backward(
                v, g, gv, self.mean, self.invstd, axes, param_axes, fixed
            )
        shape = plan.param_shape
        return restore(gx), ggamma.reshape(shape), gbeta.reshape(shape)

    def backward(self, a, b, c):
        saved = self.saved_inputs()
        fn = NormalizeGradGrad(self.plan, self.mean, self.invstd, self.has_gamma)
        dx, dgamma, dgy = fn.apply(*saved, a, b, c)
        return (dx, dgamma, dgy) if self.has_gamma else (dx, dgy)


class NormalizeGradGrad(Function):
    """Second-order terms of normalization: `(x[, gamma], gy, a, b, c) -> (dx, dgamma, dgy)`.

    Its own backward is not implemented: normalization supports gradients up to order two.
    """

    def __init__(self, plan: NormPlan, mean, invstd, has_gamma: bool) -> None:
        self.plan = plan
        self.mean = mean
        self.invstd = invstd
        self.has_gamma = has_gamma

    def forward(self, x, *rest):
        plan = self.plan
        gamma = rest[0] if self.has_gamma else None
        gy, a, b, c = rest[-4:]
        xp = get_array_module(x)
        v, restore = plan.view(x)
        g = plan.param_view(gamma)
        dx, dgamma, dgy = kernels.double_backward(
            v,
            g,
            plan.view_like(gy, x, restore),
            self.mean,
            self.invstd,
            plan.view_like(a, x, restore),
            plan.param_view(b),
            plan.param_view(c),
            plan.axes,
            plan.param_axes,
            plan.fixed_stats is not None,
        )
        if dgamma is None:
            dgamma = xp.zeros(plan.param_shape, dtype=x.dtype)
        return restore(dx), dgamma.reshape(plan.param_shape), restore(dgy)
