"""Stochastic gradient descent, as `paddle.optimizer.SGD`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from framework.backends.cpu import vector_blas
from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.fused import accumulator_dtype, fused_kernel
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """`param = param - learning_rate * grad`.

        opt = framework.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        loss.backward()
        opt.step()
        opt.clear_grad()

    `multi_precision=True` trains float16 parameters through float32 master copies.
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = multi_precision

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        if vector_blas.usable(p, grad):
            vector_blas.axpy_(-lr, grad, p)
            return
        if get_array_module(p) is np:
            step = self._scratch("work", p, accumulator_dtype(p.dtype))
            self._elementwise(partial(_sgd, lr=lr), p, grad, step)
            return
        acc = accumulator_dtype(p.dtype).name
        kernel = fused_kernel("sgd", "P g, A lr", "P p", "p = (P)((A)p - lr * (A)g);", acc)
        kernel(grad.astype(p.dtype, copy=False), lr, p)


def _sgd(p, g, step, *, lr: float) -> None:
    np.multiply(g, lr, out=step)
    np.subtract(p, step, out=p)
