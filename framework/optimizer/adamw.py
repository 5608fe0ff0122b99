"""AdamW (Adam with decoupled weight decay), as `paddle.optimizer.AdamW`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from framework.core.tensor import Tensor
from framework.nn.clip import ClipGradBase
from framework.optimizer.adam import _scalar, adam_hyperparameters, adam_state, adam_update
from framework.optimizer.lr import LRScheduler
from framework.optimizer.optimizer import Optimizer

__all__ = ["AdamW"]


class AdamW(Optimizer):
    """Adam whose weight decay shrinks the parameter directly instead of adding to the gradient:

        param = param * (1 - learning_rate * weight_decay)      # skipped where
        ... then the Adam step of `Adam` ...                      # apply_decay_param_fun(name)
                                                                  # returns False
    which equals `torch.optim.AdamW`. `lr_ratio(param)` scales the learning rate per parameter
    (decay included). `weight_decay` here is a coefficient, not a regularizer; a parameter's own
    `regularizer` is still added to its gradient, as in Paddle.

        opt = framework.optimizer.AdamW(
            learning_rate=1e-3, parameters=model.parameters(), weight_decay=0.01,
            apply_decay_param_fun=lambda name: "norm" not in name)
    """

    def __init__(
        self,
        learning_rate: float | LRScheduler = 0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters: Sequence[Tensor] | Sequence[dict] | None = None,
        weight_decay: float = 0.01,
        use_lowprecision_moment: bool = False,
        lr_ratio: Callable[[Tensor], float] | None = None,
        apply_decay_param_fun: Callable[[str], bool] | None = None,
        grad_clip: ClipGradBase | None = None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        amsgrad: bool = False,
        name: str | None = None,
    ) -> None:
        hyperparameters = adam_hyperparameters(learning_rate, beta1, beta2, epsilon)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, int | float | Tensor):
            raise TypeError("weight_decay should be int, float or Tensor.")
        if lr_ratio is not None and not callable(lr_ratio):
            raise TypeError("lr_ratio should be a function of the parameter")
        defaults = {
            "weight_decay": _scalar(weight_decay),
            **hyperparameters,
            "lazy_mode": lazy_mode,
        }
        super().__init__(learning_rate, parameters, None, grad_clip, name, defaults)
        self._weight_decay = defaults["weight_decay"]
        self._apply_decay_param_fun = apply_decay_param_fun
        self._lr_ratio = lr_ratio
        self._use_lowprecision_moment = use_lowprecision_moment
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._amsgrad = amsgrad

    def _configure_group_params(self, group: dict) -> None:
        # AdamW's group weight_decay is its own decoupled coefficient, not a regularizer.
        for param in group["params"]:
            if getattr(param, "optimize_attr", None) is not None:
                param.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    def _create_state(self, param: Tensor, group: dict) -> dict:
        return adam_state(param, group, self._amsgrad)

    def _update(self, param: Tensor, p, grad, lr: float, group: dict, state: dict) -> None:
        if self._lr_ratio is not None:
            lr = lr * self._lr_ratio(param)
        coeff = _scalar(group["weight_decay"])
        with_decay = self._apply_decay_param_fun is None or self._apply_decay_param_fun(param.name)
        decay = 1.0 - lr * coeff if with_decay else 1.0
        adam_update(self, p, grad, lr, group, state, decay=decay)
