"""The catalog as pages and the API show it: each architecture with its measured profile,
default hyperparameters per preset, and the shipped weights actually present."""

from __future__ import annotations

from typing import Any

from modelzoo.catalog import ARCHITECTURES, MISSING, TASKS, Architecture
from modelzoo.models import ArchitectureProfile
from modelzoo.presets import all_presets
from modelzoo.services.profiles import profiles_by_key
from modelzoo.services.shipped import shipped_weights


def describe(arch: Architecture, profile: ArchitectureProfile | None) -> dict[str, Any]:
    shipped = shipped_weights(arch)
    ready = profile is not None and profile.status == ArchitectureProfile.Status.READY
    return {
        "key": arch.key,
        "name": arch.name,
        "family": arch.family,
        "task": arch.task,
        "description": arch.description,
        "in_channels": arch.in_channels,
        "input_size": arch.input_size,
        "min_input_size": arch.min_input_size,
        "max_input_size": arch.max_input_size,
        "profile": {
            "status": profile.status if profile else ArchitectureProfile.Status.PENDING,
            "params": profile.params if ready else None,
            "flops": profile.flops if ready else None,
            "num_classes": arch.profile_classes,
            "input_shape": list(arch.input_shape()),
            "error": profile.error if profile else "",
        },
        "presets": all_presets(arch),
        "shipped_weights": None
        if shipped is None
        else {
            "name": shipped.name,
            "size_bytes": shipped.size_bytes,
            "num_classes": shipped.num_classes,
        },
    }


def catalog() -> list[dict[str, Any]]:
    profiles = profiles_by_key()
    return [describe(arch, profiles.get(arch.key)) for arch in ARCHITECTURES]


def catalog_by_task() -> list[dict[str, Any]]:
    """Every task, with its architectures (a task without any says so, never pretends)."""
    entries = catalog()
    return [
        {
            "task": task,
            "label": label,
            "architectures": [e for e in entries if e["task"] == task],
            "missing": MISSING.get(task, ""),
        }
        for task, label in TASKS.items()
    ]
