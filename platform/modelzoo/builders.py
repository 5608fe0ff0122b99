"""How the catalog's architectures build their networks: the framework's vision models, a
small MLP, and the trainable parts of the zoo's ready models (their verified ONNX files). Each
function returns a builder `(num_classes, **options) -> framework.nn.Layer`; the imports are
inside, so that reading the catalog does not load the framework.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def mlp(num_classes: int, in_channels: int = 1, size: int = 28, hidden: int = 256) -> Any:
    from framework import nn

    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(in_channels * size * size, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden // 2),
        nn.ReLU(),
        nn.Linear(hidden // 2, num_classes),
    )


def vision(name: str, **options: Any) -> Callable[..., Any]:
    def build(num_classes: int) -> Any:
        from framework.vision import models

        return getattr(models, name)(num_classes=num_classes, **options)

    return build


def detector(name: str) -> Callable[..., Any]:
    def build(num_classes: int, pretrained_backbone: bool = False) -> Any:
        from framework.vision import models

        return getattr(models, name)(
            num_classes=num_classes, pretrained_backbone=pretrained_backbone
        )

    return build


def ready_part(ready_key: str, part: str) -> Callable[..., Any]:
    """A builder for the trainable networks of a ready pipeline: the layers its ONNX files
    hold, with those files' weights (checked against the manifest; nothing is downloaded), as
    one `PipelineParts` whose state-dict keys are `"<part>." + name`. `part` is the one the
    architecture is named after; `parts` the ones a job fine-tunes. Their output classes are
    fixed by the files (a recognizer's dictionary), so `num_classes` is not used."""

    def build(num_classes: int = 0, parts: tuple[str, ...] | list[str] = (part,)) -> Any:
        from framework.vision.ocr import PipelineParts
        from modelzoo.services.ready import get_ready_model, locate_files

        unknown = sorted(set(parts) - {"det", "rec"})
        if unknown or not parts:
            raise ValueError(f"no trainable network is defined for the parts {unknown or parts}")
        paths = locate_files(get_ready_model(ready_key))
        return PipelineParts.from_onnx(
            det=str(paths["det"]) if "det" in parts else None,
            rec=str(paths["rec"]) if "rec" in parts else None,
        )

    return build


def ready_detector(ready_key: str) -> Callable[..., Any]:
    """A builder for a ready PicoDet export (the zoo's layout detector) as a trainable
    `ImportedPicoDet`, from the verified file of the installed package (never a download).
    `class_indices`: which of the file's classes it keeps, in the version's order; without
    them the first `num_classes` (saved weights then set them: their `kept_classes` buffer)."""

    def build(num_classes: int, class_indices: list[int] | None = None) -> Any:
        import framework
        from framework.vision.detection.imported_picodet import ImportedPicoDet, free_input_size
        from modelzoo.services.ready import get_ready_model, locate

        ready = get_ready_model(ready_key)
        graph = framework.onnx.load(free_input_size(framework.onnx.read_model(str(locate(ready)))))
        post, pre = ready.postprocessing, ready.preprocessing
        return ImportedPicoDet(
            graph,
            len(ready.class_names),
            post["strides"],
            int(post["reg_max"]),
            class_indices=list(range(num_classes)) if class_indices is None else class_indices,
            mean=pre["mean"],
            std=pre["std"],
            input_size=ready.input_size or (800, 608),
        )

    return build


def lenet(num_classes: int) -> Any:
    from framework.vision.models import LeNet

    return LeNet(num_classes=num_classes)
