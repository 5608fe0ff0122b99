"""`y = x @ W + b` as one Function (Paddle's weight layout `[in, out]`).

Forward is one GEMM plus an in-place bias add. Backward is two GEMMs and a column sum, written
with the adjoint Functions below so gradients of any order are exact (unrecorded, they cost
what the bare GEMMs do: benchmarks/backward_formulas.py):

    y = Linear(x, W)        gx = LinearInputGrad(gy, W) = gy @ W.T
                            gW = LinearWeightGrad(x, gy) = x.T @ gy   (leading dims flattened)
"""

from __future__ import annotations

import numpy as np

from framework.backends.cpu import blas_threads, gemm, routing
from framework.backends.cpu.routing import MatmulRoute
from framework.core.autograd import Function
from framework.core.tensor import Tensor
from framework.ops.math.complex_parts import conj_grad
from framework.ops.nn.channel_sum import channel_sum


def _rows(a):
    return a if a.ndim == 2 else a.reshape(-1, a.shape[-1])


def _matmul(a, b, plan: routing.MatmulPlan | None = None):
    """`a @ b` of 2-D arrays, on the route `routing.matmul_route` picks (or `plan`'s): small CPU
    products on one BLAS thread, large ones on MKL's team (when installed), the rest NumPy's."""
    if plan is None:
        numpy = isinstance(a, np.ndarray)
        plan = routing.matmul_route(a.shape[0], a.shape[1], b.shape[1], numpy, routing.live())
    if plan.route is MatmulRoute.NUMPY:
        return a @ b
    out = np.empty((a.shape[0], b.shape[1]), np.result_type(a, b))
    if plan.route is MatmulRoute.ONE_THREAD:
        with blas_threads.single_threaded_blas():
            gemm.matmul(np, a, b, out)
        return out
    return out if gemm.threaded_matmul(a, b, out, plan.team) else a @ b


class Linear(Function):
    def forward(self, x, weight, bias=None):
        self.retain_inputs(0, 1)
        if x.ndim == 2:
            y = _matmul(x, weight)
        else:
            y = _matmul(_rows(x), weight).reshape(*x.shape[:-1], weight.shape[1])
        if bias is not None:
            y += bias
        return y

    def backward(self, gy: Tensor):
        # Bilinear, so complex inputs only need conjugating (conjugate Wirtinger convention).
        x, weight = (conj_grad(t) for t in self.saved_inputs())
        needs = self.needs_input_grad
        gx = LinearInputGrad().apply(gy, weight) if needs[0] else None
        gw = LinearWeightGrad().apply(x, gy) if needs[1] else None
        gb = channel_sum(gy, -1) if len(needs) == 3 and needs[2] else None
        return (gx, gw) if len(needs) == 2 else (gx, gw, gb)


class LinearInputGrad(Function):
    """`gx = gy @ W.T`, the adjoint of `Linear` in x."""

    def forward(self, gy, weight):
        self.retain_inputs(0, 1)
        return _matmul(_rows(gy), weight.T).reshape(*gy.shape[:-1], weight.shape[0])

    def backward(self, ggx: Tensor):
        gy, weight = (conj_grad(t) for t in self.saved_inputs())
        needs = self.needs_input_grad
        g_gy = Linear().apply(ggx, weight) if needs[0] else None
        g_w = LinearWeightGrad().apply(ggx, gy) if needs[1] else None
        return g_gy, g_w


class LinearWeightGrad(Function):
    """`gW = x.T @ gy` over flattened leading dims, the adjoint of `Linear` in W."""

    def forward(self, x, gy):
        self.retain_inputs(0, 1)
        return _matmul(_rows(x).T, _rows(gy))

    def backward(self, ggw: Tensor):
        x, gy = (conj_grad(t) for t in self.saved_inputs())
        needs = self.needs_input_grad
        g_x = LinearInputGrad().apply(gy, ggw) if needs[0] else None
        g_gy = Linear().apply(x, ggw) if needs[1] else None
        return g_x, g_gy
