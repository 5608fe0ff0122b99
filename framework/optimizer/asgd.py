"""ASGD, as `paddle.optimizer.ASGD`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from framework.core.backend import get_array_module
from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.fused import accumulator_dtype
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer
from framework.regularizer import WeightDecayRegularizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """Paddle's ASGD: the stochastic *average gradient* (SAG, Schmidt et al. 2013) over the
    last `batch_num` gradients -- not `torch.optim.ASGD`, which averages parameters.

        i = m % batch_num;  m = m + 1
        d = d - y[i] + grad          (d: the sum of the stored gradients)
        y[i] = grad
        param = param - learning_rate / min(m, batch_num) * d

    Accumulators: `d` (parameter-shaped), `y` ([batch_num] + parameter shape) and the int64
    step count `m` (shape [1]). `weight_decay` is added to each gradient before it is stored.

        opt = framework.optimizer.ASGD(learning_rate=0.001, batch_num=10,
                                       parameters=model.parameters(), weight_decay=0.01)
        loss.backward()
        opt.step()
        opt.clear_grad()
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        batch_num: int = 1,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float | WeightDecayRegularizer | None = None,
        grad_clip: ClipGradBase | None = None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate should not be none")
        if batch_num is None:
            raise ValueError("batch_num should not be none")
        if not 0 < batch_num:
            raise ValueError("batch_num should be greater than 0")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._n = int(batch_num)
        self._multi_precision = multi_precision

    def _create_state(self, param: Tensor, group: dict) -> dict:
        xp = get_array_module(param._data)
        dtype = accumulator_dtype(param.dtype)
        shape = param._data.shape
        return {
            "d": xp.zeros(shape, dtype),
            "y": xp.zeros((self._n, *shape), dtype),
            "m": np.zeros([1], np.int64),
        }

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        d, stored, count = state["d"], state["y"], state["m"]
        index = int(count[0]) % self._n
        count += 1
        d -= stored[index]
        d += grad
        stored[index] = grad
        work = self._scratch("work", d)
        get_array_module(p).multiply(d, lr / min(int(count[0]), self._n), out=work)
        p -= work
