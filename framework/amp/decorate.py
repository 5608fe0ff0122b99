"""`decorate`: prepare a model (and optimizer) for pure low-precision (O2) training."""

from __future__ import annotations

from typing import Any

from framework.amp.auto_cast import low_precision_dtype

# Normalisation layers keep float32 parameters in O2, as in Paddle: their statistics need it.
_KEEP_FLOAT32 = ("BatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "SyncBatchNorm")


def decorate(
    models: Any,
    optimizers: Any = None,
    level: str = "O1",
    dtype: str = "float16",
    master_weight: bool | None = None,
    save_dtype: str | None = None,
    master_grad: bool = False,
    excluded_layers: Any = None,
):
    """O1: returns the inputs unchanged. O2: casts every parameter outside normalisation layers
    (and `excluded_layers`) to `dtype`, and turns on float32 master weights in the optimizers
    (`multi_precision`) unless `master_weight=False`.

        model, optimizer = framework.amp.decorate(model, optimizer, level="O2")
    """
    if level not in ("O1", "O2"):
        raise ValueError(f"level must be 'O1' or 'O2', got {level!r}")
    if level == "O1":
        return models if optimizers is None else (models, optimizers)
    target = low_precision_dtype(dtype)
    excluded = tuple(_as_list(excluded_layers))
    for model in _as_list(models):
        for layer in [model, *model.sublayers()]:
            if _keeps_float32(layer, excluded):
                continue
            for parameter in layer.parameters(include_sublayers=False):
                if parameter.dtype.kind == "f":
                    parameter._data = parameter._data.astype(target)
    if optimizers is not None:
        for optimizer in _as_list(optimizers):
            optimizer._multi_precision = master_weight is not False
    return models if optimizers is None else (models, optimizers)


def _keeps_float32(layer: Any, excluded: tuple) -> bool:
    if any(isinstance(layer, e) if isinstance(e, type) else layer is e for e in excluded):
        return True
    return type(layer).__name__.startswith(_KEEP_FLOAT32)


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]
