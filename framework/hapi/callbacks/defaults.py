"""Paddle's default callback list for `Model.fit`, `evaluate` and `predict`:
`config_callbacks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from framework.hapi.callbacks.base import Callback, CallbackList
from framework.hapi.callbacks.progress import ProgBarLogger
from framework.hapi.callbacks.training_control import EarlyStopping, LRScheduler, ModelCheckpoint

if TYPE_CHECKING:
    from framework.hapi.model import Model


def config_callbacks(
    callbacks: Sequence[Callback] | Callback | None = None,
    model: Model | None = None,
    batch_size: int | None = None,
    epochs: int | None = None,
    steps: int | None = None,
    log_freq: int = 2,
    verbose: int = 2,
    save_freq: int = 1,
    save_dir: str | None = None,
    metrics: list[str] | None = None,
    mode: str = "train",
) -> CallbackList:
    """Paddle's defaults: a progress logger, a checkpointer and an LR stepper unless given."""
    given = callbacks or []
    chosen = list(given if isinstance(given, list | tuple) else [given])
    if verbose and not any(isinstance(c, ProgBarLogger) for c in chosen):
        chosen.insert(0, ProgBarLogger(log_freq, verbose=verbose))
    if not any(isinstance(c, ModelCheckpoint) for c in chosen):
        chosen.append(ModelCheckpoint(save_freq, save_dir))
    for callback in chosen:
        if isinstance(callback, EarlyStopping):
            callback.save_dir = save_dir
    if not any(isinstance(c, LRScheduler) for c in chosen):
        chosen.append(LRScheduler())
    callback_list = CallbackList(chosen)
    callback_list.set_model(model)
    callback_list.set_params(
        {
            "batch_size": batch_size,
            "epochs": epochs,
            "steps": steps,
            "verbose": verbose,
            "metrics": (metrics or []) if mode != "test" else [],
        }
    )
    return callback_list
