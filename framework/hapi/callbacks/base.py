"""The callback protocol: `Callback`, whose hooks `framework.Model` calls, and `CallbackList`,
which calls them on each of its callbacks, as in `paddle.callbacks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from framework.hapi.model import Model


MODES = ("train", "eval", "predict")


class Callback:
    """Base class: override the hooks you need. `self.model` and `self.params` are set for you."""

    def __init__(self) -> None:
        self.model: Model | None = None
        self.params: dict[str, Any] = {}

    def set_params(self, params: dict[str, Any]) -> None:
        self.params = params

    def set_model(self, model: Model) -> None:
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None: ...
    def on_train_end(self, logs: dict | None = None) -> None: ...
    def on_eval_begin(self, logs: dict | None = None) -> None: ...
    def on_eval_end(self, logs: dict | None = None) -> None: ...
    def on_predict_begin(self, logs: dict | None = None) -> None: ...
    def on_predict_end(self, logs: dict | None = None) -> None: ...
    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None: ...
    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None: ...
    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None: ...


class CallbackList:
    def __init__(self, callbacks: Sequence[Callback]) -> None:
        self.callbacks = list(callbacks)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params: dict) -> None:
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model: Model) -> None:
        for callback in self.callbacks:
            callback.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for callback in self.callbacks:
            getattr(callback, name)(*args)

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_end", logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{_checked(mode)}_batch_end", step, logs)


def _checked(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    return mode
