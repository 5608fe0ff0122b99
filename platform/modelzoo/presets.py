"""Low-code presets: quick, balanced and thorough hyperparameters for each architecture.

A preset starts from the architecture's own defaults (optimizer, learning rate, batch size)
and sets how long and how carefully to train. The advanced panel overrides single fields.
"""

from __future__ import annotations

from typing import Any

from modelzoo.catalog import Architecture

PRESETS = {
    "quick": "Quick: a few epochs to see whether it learns",
    "balanced": "Balanced: a sound default",
    "thorough": "Thorough: more epochs, augmentation and early stopping",
}

# Epochs per preset, for networks that train fast (MLP, LeNet) and for the rest.
_EPOCHS = {"quick": (3, 3), "balanced": (8, 10), "thorough": (20, 30)}
_SCHEDULES = {"quick": "constant", "balanced": "cosine", "thorough": "warmup_cosine"}


def preset_config(arch: Architecture, preset: str) -> dict[str, Any]:
    """The full hyperparameter set a preset gives for `arch` (every field of a job config)."""
    if preset not in PRESETS:
        raise ValueError(f"Unknown preset {preset!r}; choose one of {', '.join(PRESETS)}.")
    small = arch.profile_classes <= 10 and arch.in_channels == 1
    photos = arch.in_channels == 3
    careful = preset != "quick"
    return {
        "epochs": _EPOCHS[preset][0 if small else 1],
        "batch_size": arch.defaults.get("batch_size", 32),
        "learning_rate": arch.defaults.get("learning_rate", 1e-3),
        "optimizer": arch.defaults.get("optimizer", "adam"),
        "weight_decay": arch.defaults.get("weight_decay", 0.0),
        "schedule": _SCHEDULES[preset],
        "augment_flip": photos and careful,
        "augment_crop": careful,
        "augment_color": photos and preset == "thorough",
        "input_size": arch.input_size,
        "early_stopping": preset == "thorough",
        "patience": 5,
        "seed": 0,
        "device": "auto",
    }


def all_presets(arch: Architecture) -> dict[str, dict[str, Any]]:
    return {name: preset_config(arch, name) for name in PRESETS}
