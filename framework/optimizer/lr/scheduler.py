"""`LRScheduler`, the base of every learning-rate schedule (as `paddle.optimizer.lr`).

A scheduler is a callable that returns the current learning rate. Construction performs the
first `step()` (epoch 0); call `step()` once per epoch or iteration to advance it. Pass it to an
optimizer as `learning_rate=` and the optimizer reads it on every update.

    scheduler = StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
    opt = framework.optimizer.SGD(learning_rate=scheduler, parameters=model.parameters())
    for epoch in range(5):
        train_one_epoch(opt)
        scheduler.step()
"""

from __future__ import annotations

import warnings

__all__ = ["LRScheduler"]


class LRScheduler:
    """Base class. Subclasses implement `get_lr()` from `self.last_epoch` and `self.base_lr`.

    Attributes: `base_lr` (the initial rate), `last_epoch` (steps taken, 0 after construction),
    `last_lr` (the current rate, also returned by calling the scheduler).
    """

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False):
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, int | float):
            raise TypeError(
                f"The type of learning rate must be float, but received {type(learning_rate)}"
            )
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one step, or jump to `epoch` (a closed form is used where one exists)."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed_form = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed_form() if closed_form is not None else self.get_lr()
        if self.verbose:
            name = type(self).__name__
            print(f"Epoch {self.last_epoch}: {name} set learning rate to {self.last_lr}.")

    def get_lr(self) -> float:
        raise NotImplementedError

    def state_keys(self) -> None:
        """Name the attributes that `state_dict()` saves (subclasses may extend)."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        self.state_keys()
        state = {}
        for key in self.keys:
            if key in self.__dict__:
                value = self.__dict__[key]
                state[key] = float(value) if hasattr(value, "item") else value
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(
                    "Please check whether state_dict is correct for optimizer. "
                    f"Can't find [ {key} ] in state_dict"
                )
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn(
                "There are some unused values in state_dict. Maybe the optimizer have different "
                "'LearningRateDecay' when invoking state_dict and set_dict",
                stacklevel=2,
            )

    set_dict = set_state_dict

    def __repr__(self) -> str:
        return f"{type(self).__name__}(last_epoch={self.last_epoch}, last_lr={self.last_lr})"
