"""Which model the job form proposes for a dataset version, and why.

Colour photos get a network pretrained on ImageNet, at the input size it was trained at:
fine-tuned, thirty photos a class already make a useful model, where training from random
weights would need thousands. Small grey images (digits, say) keep the small networks that train
in seconds at 28×28. Detection versions whose classes a ready detector already finds (document
layout) fine-tune it; others get the smallest detector, with its shipped ImageNet backbone when
the server has one; a version nothing can train gets no proposal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from django.core.files.storage import default_storage
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from datastore.models import DatasetVersion, Sample, VersionItem
from modelzoo.catalog import (
    DETECTION,
    OCR,
    Architecture,
    architectures_for_task,
    get_architecture,
)
from modelzoo.services.ready_classes import architecture_problem
from modelzoo.services.shipped import shipped_weights

# Pretrained networks in the order the form prefers them: MobileNetV2 fine-tunes fastest on a
# CPU for its accuracy; EfficientNet-Lite0 is more accurate and a little slower.
PRETRAINED_PREFERENCE = ("mobilenet_v2", "efficientnet_lite0", "efficientnet_lite1")
SMALL_GREY_SIDE = 48  # images no larger than this, in grey, are digit-like
COLOUR_SAMPLE = 24  # thumbnails looked at to tell colour from grey
# A pixel is coloured when its channels differ by more than this (JPEG noise stays below).
COLOUR_SPREAD = 24


@dataclass(frozen=True)
class Suggestion:
    architecture: str
    weights: str  # the form's "Start from" value: "shipped:<key>" or "scratch"
    input_size: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def suggest(version: DatasetVersion) -> Suggestion | None:
    if version.dataset.task_type == DETECTION:
        return _detector(version)
    if version.dataset.task_type == OCR:
        return _recognizer()
    mean_side = _mean_side(version)
    colour = colour_share(version.pk)
    if colour < 0.5 and mean_side <= SMALL_GREY_SIDE:
        lenet = get_architecture("lenet")
        return Suggestion(
            lenet.key,
            "scratch",
            lenet.input_size,
            _(
                "Small grey images (about %(side)s px): LeNet at 28×28 trains in seconds from "
                "random weights."
            )
            % {"side": f"{mean_side:.0f}"},
        )
    kind = (
        _("Colour photos")
        if colour >= 0.5
        else _("Grey images of about %(side)s px") % {"side": f"{mean_side:.0f}"}
    )
    for key in PRETRAINED_PREFERENCE:
        arch = get_architecture(key)
        shipped = shipped_weights(arch)
        if shipped is not None:
            return Suggestion(
                arch.key, f"shipped:{arch.key}", arch.input_size, _why(kind, arch, shipped)
            )
    fallback = get_architecture("mobilenet_v3_small")
    return Suggestion(
        fallback.key,
        "scratch",
        fallback.input_size,
        _(
            "%(kind)s: no pretrained weights are installed on this server (an administrator "
            "runs `make weights`), so %(model)s, light enough to train from random weights."
        )
        % {"kind": kind, "model": fallback.name},
    )


def _recognizer() -> Suggestion | None:
    """The PP-OCRv4 recognizer from its shipped weights (it has no random start); None when
    the ready model is not installed (the version's problems then say so)."""
    for arch in architectures_for_task(OCR):
        if shipped_weights(arch) is not None:
            return Suggestion(
                arch.key,
                f"shipped:{arch.key}",
                arch.input_size,
                _(
                    "Text lines: %(model)s from the shipped PP-OCRv4 weights, which already "
                    "read most print; fine-tuning teaches them your fonts and layouts."
                )
                % {"model": arch.name},
            )
    return None


def _detector(version: DatasetVersion) -> Suggestion | None:
    """A ready detector that already finds the version's classes (the CDLA layout model for
    document pages), else the first (smallest) detector, with its pretrained backbone when it
    is shipped."""
    everything = architectures_for_task(DETECTION)
    names = list(version.class_names)
    for ready in (a for a in everything if a.shipped_part == "ready"):
        if shipped_weights(ready) is not None and architecture_problem(ready, names) is None:
            return Suggestion(
                ready.key,
                f"shipped:{ready.key}",
                ready.input_size,
                _(
                    "Document layout: your classes are ones %(model)s already finds, so it "
                    "fine-tunes from its trained weights; a few pages of yours make it better "
                    "on them."
                )
                % {"model": ready.name},
            )
    detectors = [a for a in everything if a.shipped_part != "ready"]
    if not detectors:
        return None
    pretrained = [a for a in detectors if shipped_weights(a) is not None]
    arch = (pretrained or detectors)[0]
    side = f"{arch.input_size}×{arch.input_size}"
    if pretrained:
        return Suggestion(
            arch.key,
            f"shipped:{arch.key}",
            arch.input_size,
            _(
                "Object detection: %(model)s with its backbone pretrained on ImageNet, at "
                "%(side)s. The backbone already knows edges and textures, so a few dozen "
                "labeled images make a useful detector."
            )
            % {"model": arch.name, "side": side},
        )
    return Suggestion(
        arch.key,
        "scratch",
        arch.input_size,
        _(
            "Object detection: %(model)s at %(side)s, from random weights: no pretrained "
            "backbone is installed on this server (an administrator runs `make weights`), so "
            "it needs many more labeled images."
        )
        % {"model": arch.name, "side": side},
    )


def _why(kind: str, arch: Architecture, shipped: Any) -> str:
    top1 = ((shipped.manifest or {}).get("published") or {}).get("top1")
    accuracy = _(", %(top1)s%% top-1") % {"top1": f"{top1:g}"} if top1 else ""
    return _(
        "%(kind)s: %(model)s pretrained on ImageNet%(accuracy)s, fine-tuned at its own "
        "%(side)s×%(side)s. A pretrained start needs far fewer images than training from "
        "random weights."
    ) % {"kind": kind, "model": arch.name, "accuracy": accuracy, "side": arch.input_size}


def _mean_side(version: DatasetVersion) -> float:
    stats = version.stats or {}
    width = (stats.get("width") or {}).get("mean") or 0
    height = (stats.get("height") or {}).get("mean") or 0
    return (float(width) + float(height)) / 2


def colour_share(version_id: int) -> float:
    """The share of colour images among up to COLOUR_SAMPLE of the version's thumbnails."""
    items = VersionItem.objects.filter(version_id=version_id).order_by("id")
    sample_ids = list(items.values_list("sample_id", flat=True)[:COLOUR_SAMPLE])
    thumbnails = Sample.objects.filter(pk__in=sample_ids).values_list("thumbnail", flat=True)
    looked = [_is_colour(name) for name in thumbnails if name]
    known = [answer for answer in looked if answer is not None]
    return sum(known) / len(known) if known else 0.0


def _is_colour(storage_name: str) -> bool | None:
    try:
        with default_storage.open(storage_name, "rb") as stream:
            image = Image.open(stream)
            image.load()
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    if image.mode in ("1", "L", "LA", "I", "I;16", "F"):
        return False
    pixels = np.asarray(image.convert("RGB"), dtype=np.int16).reshape(-1, 3)
    spread = pixels.max(axis=1) - pixels.min(axis=1)
    return bool((spread > COLOUR_SPREAD).mean() > 0.05)
