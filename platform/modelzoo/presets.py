"""Low-code presets: quick, balanced and thorough hyperparameters for each architecture.

A preset starts from the architecture's own defaults (optimizer, learning rate, batch size)
and sets how long and how carefully to train. The advanced panel overrides single fields.

Starting from pretrained weights (shipped, or a finished job's) gets the fine-tuning recipe
instead of the from-scratch schedule: the backbone is frozen for a warm-up while the new head
learns, then trains at a tenth of the head's learning rate, which itself starts lower than from
scratch (the weights are already good: large steps would undo them); photos get random resized
crops and flips; single-label jobs smooth their labels. Normalisation comes from the weights'
manifest (training.services.jobs).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from modelzoo.catalog import Architecture

PRESETS = {
    "quick": _("Quick: a few epochs to see whether it learns"),
    "balanced": _("Balanced: a sound default"),
    "thorough": _("Thorough: more epochs, augmentation and early stopping"),
}
# The short names a job's header shows.
PRESET_NAMES = {"quick": _("Quick"), "balanced": _("Balanced"), "thorough": _("Thorough")}

# Epochs per preset, for networks that train fast (MLP, LeNet) and for the rest.
_EPOCHS = {"quick": (3, 3), "balanced": (8, 10), "thorough": (20, 30)}
_SCHEDULES = {"quick": "constant", "balanced": "cosine", "thorough": "warmup_cosine"}
# Fine-tuning: fewer epochs, a frozen-backbone warm-up, and a learning rate a fifth (momentum,
# SGD) or a tenth (Adam) of the from-scratch one.
_FINE_TUNE_EPOCHS = {"quick": 3, "balanced": 8, "thorough": 20}
_FINE_TUNE_FROZEN = {"quick": 1, "balanced": 1, "thorough": 2}
_FINE_TUNE_RATE = {"sgd": 0.2, "momentum": 0.2, "adam": 0.1, "adamw": 0.1}
BACKBONE_LR_SCALE = 0.1
LABEL_SMOOTHING = 0.1
# Detection: epochs per preset from scratch and from a pretrained backbone, the frozen
# warm-up, and the training-set size below which multi-scale training stays off.
_DETECTION_EPOCHS = {"quick": 10, "balanced": 30, "thorough": 60}
_DETECTION_FINE_TUNE_EPOCHS = {"quick": 8, "balanced": 24, "thorough": 48}
_DETECTION_FROZEN = {"quick": 1, "balanced": 2, "thorough": 3}
DETECTION_BACKBONE_LR_SCALE = 0.5
MULTI_SCALE_MIN_IMAGES = 200
# Text recognition, from the shipped recognizer on a few dozen to a few thousand lines: short
# runs (every step moves weights that already read most print), a cosine decay, and early
# stopping on the validation line accuracy for the thorough preset.
_OCR_EPOCHS = {"quick": 3, "balanced": 10, "thorough": 30}
_OCR_SCHEDULES = {"quick": "constant", "balanced": "cosine", "thorough": "warmup_cosine"}


def preset_config(arch: Architecture, preset: str, *, fine_tune: bool = False) -> dict[str, Any]:
    """The full hyperparameter set a preset gives for `arch` (every field of a job config);
    `fine_tune` for a job that starts from pretrained weights."""
    if preset not in PRESETS:
        raise ValueError(f"Unknown preset {preset!r}; choose one of {', '.join(PRESETS)}.")
    if arch.task == "detection":
        return _detection_config(arch, preset, fine_tune=fine_tune)
    if arch.task == "ocr":
        return _ocr_config(arch, preset)
    small = arch.profile_classes <= 10 and arch.in_channels == 1
    photos = arch.in_channels == 3
    careful = preset != "quick"
    config = {
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
        "freeze_epochs": 0,
        "backbone_lr_scale": 1.0,
    }
    if fine_tune:
        config |= {
            "epochs": _FINE_TUNE_EPOCHS[preset],
            # Rounded: 0.05 × 0.2 is 0.010000000000000002 in floating point.
            "learning_rate": float(
                f"{config['learning_rate'] * _FINE_TUNE_RATE[config['optimizer']]:.6g}"
            ),
            "schedule": "cosine",
            "augment_flip": photos,
            "augment_crop": True,
            "freeze_epochs": _FINE_TUNE_FROZEN[preset],
            "backbone_lr_scale": BACKBONE_LR_SCALE,
        }
    return config


def _detection_config(arch: Architecture, preset: str, *, fine_tune: bool) -> dict[str, Any]:
    careful = preset != "quick"
    config = {
        "epochs": (_DETECTION_FINE_TUNE_EPOCHS if fine_tune else _DETECTION_EPOCHS)[preset],
        "batch_size": arch.defaults.get("batch_size", 8),
        "learning_rate": arch.defaults.get("learning_rate", 0.01),
        "optimizer": arch.defaults.get("optimizer", "momentum"),
        "weight_decay": arch.defaults.get("weight_decay", 4e-5),
        "schedule": "warmup_cosine",
        "augment_flip": True,
        "augment_crop": careful,
        "augment_color": careful,
        "input_size": arch.input_size,
        "early_stopping": preset == "thorough",
        "patience": 10,
        "seed": 0,
        "device": "auto",
        "freeze_epochs": _DETECTION_FROZEN[preset] if fine_tune else 0,
        "backbone_lr_scale": DETECTION_BACKBONE_LR_SCALE if fine_tune else 1.0,
        "augment_expand": careful,
        "multi_scale": careful,
    }
    if arch.shipped_part == "ready":  # a trained detector: no new layers to warm up first
        # and no mirrored pages, which no document shows.
        config |= {"freeze_epochs": 0, "backbone_lr_scale": 1.0, "augment_flip": False}
    return config


def _ocr_config(arch: Architecture, preset: str) -> dict[str, Any]:
    """A recognizer always starts from trained weights (its ready model's, or a job's). Its
    augmentation: a small rotation and perspective (`augment_crop`), blur and colour
    (`augment_color`); never a flip, which no printed line shows."""
    return {
        "epochs": _OCR_EPOCHS[preset],
        "batch_size": arch.defaults.get("batch_size", 16),
        "learning_rate": arch.defaults.get("learning_rate", 1e-4),
        "optimizer": arch.defaults.get("optimizer", "adam"),
        "weight_decay": arch.defaults.get("weight_decay", 0.0),
        "schedule": _OCR_SCHEDULES[preset],
        "augment_flip": False,
        "augment_crop": preset != "quick",
        "augment_color": preset != "quick",
        "input_size": arch.input_size,
        "early_stopping": preset == "thorough",
        "patience": 5,
        "seed": 0,
        "device": "auto",
        "freeze_epochs": 0,
        "backbone_lr_scale": 1.0,
    }


def dataset_limits(task: str, train_samples: int | None) -> dict[str, Any]:
    """What a preset turns off for a dataset this small (the person may turn it back on)."""
    if task == "detection" and train_samples is not None:
        if train_samples < MULTI_SCALE_MIN_IMAGES:
            return {"multi_scale": False}
    return {}


def fine_tune_defaults(preset: str, task: str) -> dict[str, Any]:
    """What a task adds to a fine-tuning preset: single-label jobs smooth their labels."""
    if task == "classification" and preset != "quick":
        return {"label_smoothing": LABEL_SMOOTHING}
    return {}


def all_presets(arch: Architecture, *, fine_tune: bool = False) -> dict[str, dict[str, Any]]:
    return {name: preset_config(arch, name, fine_tune=fine_tune) for name in PRESETS}
