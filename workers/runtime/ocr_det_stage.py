"""The detection part of an OCR training job: DB fine-tuning of the PP-OCRv4 detector on the
version's whole images and their text-line polygons (framework.vision.ocr.DetectorTrainer's
batches and loss), and its validation precision, recall and hmean at IoU 0.5.

Images are decoded when a batch needs them, never all kept: a version's pages may be large
and many. The detector is scored as the ready pipeline serves it (`ocr_package.build_detector`
with the manifest's settings), on at most `DET_EVAL_IMAGES` validation images.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from training.services.text_pages import PageExample
from workers.runtime.failures import LossNotFinite
from workers.runtime.ocr_data import decode_bgr

DET_EVAL_IMAGES = 50  # validation images the detector is scored on each epoch
DET_SCORES = ("precision", "recall", "hmean")
DET_LOSS_TAG = "train/det_loss"


def det_tag(split: str, name: str) -> str:
    """`val/det_hmean` and the like: the detector's per-epoch series."""
    return f"{split}/det_{name}"


def det_steps(pages: list[PageExample], batch: int) -> int:
    return math.ceil(len(pages) / batch) if pages else 0


def serving_detector(model: Any, ready_key: str) -> Any:
    """`model` (the job's det Layer) as the ready pipeline runs it."""
    from framework.inference.ocr_package import build_detector
    from modelzoo.services.reading import ocr_settings
    from modelzoo.services.ready import get_ready_model

    return build_detector(model, ocr_settings(get_ready_model(ready_key)))


def detection_scores(
    detector: Any, pages: list[PageExample], progress: Callable[[], None] | None = None
) -> dict[str, float]:
    """Precision, recall and hmean at IoU 0.5 of what `detector` finds on `pages`."""
    from framework.vision.ocr import text_detection_metrics

    truths, found = [], []
    detector.model.eval()
    for page in pages:
        truths.append(
            [
                {"points": np.asarray(p, np.float64), "ignore": ignore}
                for p, ignore in zip(page.polygons, page.ignore, strict=True)
            ]
        )
        found.append(list(detector(decode_bgr(page))))
        if progress is not None:
            progress()
    metrics = text_detection_metrics(truths, found)
    return {name: float(getattr(metrics, name)) for name in DET_SCORES}


def train_det_epoch(
    run: Any, parts: Any, optimizer: Any, batch: int, epoch: int, control: Any
) -> None:
    """One pass over the training pages, `batch` at a time, in a seeded order: each batch
    augmented (DetectionAugment at the job's detection size), one optimizer step."""
    from framework.optimizer.lr import LRScheduler
    from framework.vision.ocr import DetectionAugment, DetectorTrainer

    config, position, record = run.job.config, run.position, run.recorder.scalar
    seed = int(config["seed"])
    trainer = DetectorTrainer(
        parts.det,
        optimizer=optimizer,
        augment=DetectionAugment(size=int(config["det_input_size"])),
        seed=seed * 1000 + epoch,
    )
    scheduler = optimizer._learning_rate
    pages = run.splits.det_train
    order = np.random.default_rng([seed, epoch, 1]).permutation(len(pages))
    parts.det.train()
    last = time.monotonic()
    for start in range(0, len(order), batch):
        chosen = [pages[int(i)] for i in order[start : start + batch]]
        built = trainer.build_batch(
            [decode_bgr(page) for page in chosen],
            [page.polygons for page in chosen],
            [page.ignore for page in chosen],
        )
        loss = trainer.loss(built)["loss"]
        value = float(loss.numpy())
        if not math.isfinite(value):  # the step just taken is not counted yet
            raise LossNotFinite(value, position.step + 1, position.epoch)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad(set_to_zero=False)  # the other part's grads stay None: no update
        if isinstance(scheduler, LRScheduler):
            scheduler.step()
        position.step += 1
        now, wall = time.monotonic(), time.time()
        record(DET_LOSS_TAG, position.step, value, wall)
        record("train/lr", position.step, float(optimizer.get_lr()), wall)
        record("train/det_throughput", position.step, len(chosen) / max(now - last, 1e-9), wall)
        last = now
        run.last_eval["det_loss"] = value
        run.recorder.update_progress(step=position.step, eta_seconds=position.eta_seconds())
        control.check()
    parts.det.eval()
