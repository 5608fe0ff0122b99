"""`GradScaler`: dynamic loss scaling for mixed precision, with Paddle's update rule."""

from __future__ import annotations

from typing import Any

import numpy as np

from framework.core.backend import get_array_module


class GradScaler:
    """Scales the loss so float16 gradients do not underflow, and skips steps whose gradients
    hold inf/NaN.

    Update rule (Paddle's `update_loss_scaling`): after `decr_every_n_nan_or_inf` consecutive
    steps with inf/NaN the scale is multiplied by `decr_ratio` (never below 1); after
    `incr_every_n_steps` consecutive finite steps it is multiplied by `incr_ratio`.

        scaler = framework.amp.GradScaler(init_loss_scaling=1024)
        scaler.scale(loss).backward()
        scaler.step(optimizer)      # skipped when a gradient is inf/NaN
        scaler.update()
        optimizer.clear_grad()
    """

    def __init__(
        self,
        enable: bool = True,
        init_loss_scaling: float = 65536.0,
        incr_ratio: float = 2.0,
        decr_ratio: float = 0.5,
        incr_every_n_steps: int = 2000,
        decr_every_n_nan_or_inf: int = 1,
        use_dynamic_loss_scaling: bool = True,
    ) -> None:
        if incr_ratio <= 1.0:
            raise ValueError("incr_ratio must be > 1")
        if not 0.0 < decr_ratio < 1.0:
            raise ValueError("decr_ratio must be in (0, 1)")
        self._enable = enable
        self._scale = float(init_loss_scaling)
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._good_steps = 0
        self._bad_steps = 0
        self._found_inf = False
        self._unscaled = False

    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._scale

    def set_init_loss_scaling(self, value: float) -> None:
        self._scale = float(value)

    @property
    def loss_scaling(self) -> float:
        return self._scale

    def scale(self, loss):
        """`loss * scale` (the loss itself when disabled)."""
        if not self._enable:
            return loss
        return loss * self._scale

    def unscale_(self, optimizer: Any) -> None:
        """Divide the gradients by the scale in place and record whether any is inf/NaN."""
        if not self._enable or self._unscaled:
            return
        inverse = 1.0 / self._scale
        found = False
        for parameter in _parameters_of(optimizer):
            grad = parameter.grad
            if grad is None:
                continue
            data = grad._data.astype(np.float32) if grad._data.dtype != np.float32 else grad._data
            data = data * inverse
            xp = get_array_module(data)
            if not bool(xp.isfinite(data).all()):
                found = True
            grad._data = data.astype(grad._data.dtype, copy=False)
        self._found_inf = found
        self._unscaled = True

    def step(self, optimizer: Any) -> None:
        """Unscale (if not yet) and step the optimizer unless a gradient was inf/NaN."""
        if not self._enable:
            optimizer.step()
            return
        self.unscale_(optimizer)
        if not self._found_inf:
            optimizer.step()

    def update(self) -> None:
        """Adjust the scale from this step's outcome; call once per step after `step()`."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            if self._found_inf:
                self._good_steps = 0
                self._bad_steps += 1
                if self._bad_steps == self._decr_every_n_nan_or_inf:
                    self._scale = max(1.0, self._scale * self._decr_ratio)
                    self._bad_steps = 0
            else:
                self._bad_steps = 0
                self._good_steps += 1
                if self._good_steps == self._incr_every_n_steps:
                    grown = self._scale * self._incr_ratio
                    self._scale = grown if np.isfinite(grown) else self._scale
                    self._good_steps = 0
        self._found_inf = False
        self._unscaled = False

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> None:
        """`step` then `update`, as Paddle's `GradScaler.minimize`."""
        self.step(optimizer)
        self.update()

    def state_dict(self) -> dict[str, Any]:
        if not self._enable:
            return {}
        return {
            "scale": self._scale,
            "incr_ratio": self._incr_ratio,
            "decr_ratio": self._decr_ratio,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "incr_count": self._good_steps,
            "decr_count": self._bad_steps,
            "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if not state:
            return
        self._scale = float(np.asarray(state["scale"]).reshape(-1)[0])
        self._incr_ratio = float(state["incr_ratio"])
        self._decr_ratio = float(state["decr_ratio"])
        self._incr_every_n_steps = int(state["incr_every_n_steps"])
        self._decr_every_n_nan_or_inf = int(state["decr_every_n_nan_or_inf"])
        self._good_steps = int(state["incr_count"])
        self._bad_steps = int(state["decr_count"])
        self._use_dynamic_loss_scaling = bool(state["use_dynamic_loss_scaling"])


def _parameters_of(optimizer: Any) -> list:
    parameters = getattr(optimizer, "_parameter_list", None)
    if parameters is None:
        parameters = getattr(optimizer, "parameters", None)
    if parameters is None:
        raise TypeError("GradScaler needs an optimizer built with parameters=")
    flat = []
    for entry in parameters:
        if isinstance(entry, dict):
            flat.extend(entry["params"])
        else:
            flat.append(entry)
    return flat
