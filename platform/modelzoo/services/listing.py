"""The catalog as pages and the API show it: each architecture with its profile (parameters,
FLOPs, size), default hyperparameters per preset, and the shipped weights actually present,
with where they come from; and the ready models (trained detectors from packages), each with
its manifest and whether this server can use it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from modelzoo.catalog import ARCHITECTURES, DETECTION, MISSING, TASKS, Architecture
from modelzoo.presets import all_presets
from modelzoo.services.profiles import MEASURE_COMMAND, profile_of
from modelzoo.services.ready import ReadyModel, ready_models, unavailable
from modelzoo.services.shipped import ShippedWeights, shipped_weights


def describe(arch: Architecture) -> dict[str, Any]:
    shipped = shipped_weights(arch)
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
        "profile": _profile(arch),
        "presets": all_presets(arch),
        "shipped_weights": None if shipped is None else _shipped(arch, shipped),
    }


def _profile(arch: Architecture) -> dict[str, Any]:
    profile = profile_of(arch.key)
    base = {"num_classes": arch.profile_classes, "input_shape": list(arch.input_shape())}
    if profile is None:
        return {
            **base,
            "status": "unmeasured",
            "params": None,
            "flops": None,
            "state_bytes": None,
            "error": f"Not measured yet: run `{MEASURE_COMMAND}`.",
        }
    return {
        **base,
        "status": "ready",
        "params": profile.params,
        "flops": profile.flops,
        "state_bytes": profile.state_bytes,
        "error": "",
    }


def _shipped(arch: Architecture, shipped: ShippedWeights) -> dict[str, Any]:
    provenance = shipped.provenance
    real = provenance is not None and shipped.num_classes == len(shipped.class_names)
    return {
        "name": shipped.name,
        "size_bytes": shipped.size_bytes,
        # A detector's shipped weights are its backbone's: the ImageNet classifier of that name.
        "backbone_only": shipped.backbone_only,
        "backbone": arch.backbone,
        "ready_model": arch.ready_model,
        "num_classes": shipped.num_classes,
        "provenance": provenance,
        # Real, named classes: a photo can be tried on them.
        "try_url": f"/api/modelzoo/architectures/{arch.key}/try/" if real else None,
    }


# The ready models' descriptions as their manifests (modelzoo/manifests/*.json) word them,
# marked here for the translation catalog; a test holds the two copies together.
READY_DESCRIPTIONS = (
    gettext_noop(
        "Finds the regions of a page: text, titles, figures and their captions, tables and "
        "their captions, headers, footers, references and equations. Ready to deploy: no "
        "training needed."
    ),
    gettext_noop(
        "Reads the printed text of an image: finds each text line (DB detection), turns "
        "upside-down lines round (direction classification) and reads them (SVTR-LCNet "
        "recognition with CTC) in Chinese, English, digits and punctuation. Ready to deploy: "
        "no training needed."
    ),
)


def describe_ready(ready: ReadyModel) -> dict[str, Any]:
    problem = unavailable(ready)
    return {
        "key": ready.key,
        "name": ready.name,
        "task": ready.task,
        "title": ready.title,
        "description": gettext(ready.description),
        "input_size": list(ready.input_size) if ready.input_size else None,
        "num_classes": len(ready.class_names),
        "available": problem is None,
        "unavailable_reason": problem or "",
        "manifest": ready.manifest(),
        "try_url": None if problem else f"/api/modelzoo/ready-models/{ready.key}/try/",
        "fine_tune": _fine_tune(ready),
    }


def _fine_tune(ready: ReadyModel) -> dict[str, str] | None:
    """The architecture that fine-tunes a ready detector, and what a version needs for it."""
    arch = next((a for a in ARCHITECTURES if a.ready_model == ready.key), None)
    if arch is None or arch.task != DETECTION:
        return None
    needs = gettext(
        "Fine-tune: needs a detection version whose classes are %(model)s's: %(classes)s "
        "(names match ignoring case, spaces, - and _; a version may use some of them)."
    ) % {"model": ready.name, "classes": ", ".join(ready.class_names)}
    return {"architecture": arch.key, "needs": needs}


def ready_catalog() -> list[dict[str, Any]]:
    return [describe_ready(ready) for ready in ready_models().values()]


def catalog() -> list[dict[str, Any]]:
    return [describe(arch) for arch in ARCHITECTURES]


def catalog_by_task() -> list[dict[str, Any]]:
    """Every task, with its architectures (a task without any says so, never pretends)."""
    entries, ready = catalog(), ready_catalog()
    return [
        {
            "task": task,
            "label": label,
            "architectures": [e for e in entries if e["task"] == task],
            "ready": [r for r in ready if r["task"] == task],
            "missing": MISSING.get(task, ""),
        }
        for task, label in TASKS.items()
    ]
