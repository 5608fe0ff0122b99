"""The generated shapes detection dataset: coloured rectangles and ellipses (three classes, two
to four per image, some overlapping) drawn on crops of real photographs from scikit-image. Used
by the PicoDet convergence test and by `benchmarks/detection.py`. Not a test module."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import framework
from framework.metric import coco_evaluate
from framework.vision.transforms import detection as T

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry", "hubble_deep_field")
# Class 0: warm rectangles, 1: green ellipses, 2: blue rectangles.
COLORS = {0: [(230, 40, 40), (250, 110, 30)], 1: [(40, 200, 60), (110, 230, 90)],
          2: [(40, 80, 240), (90, 40, 220)]}  # fmt: skip


def backgrounds(size: int) -> list[np.ndarray]:
    """The photos, RGB uint8, resized to `2 * size` squares (crops of `size` come from them)."""
    from PIL import Image
    from skimage import data

    out = []
    for name in PHOTOS:
        image = getattr(data, name)()
        if image.ndim == 2:
            image = np.stack([image] * 3, axis=-1)
        out.append(np.asarray(Image.fromarray(image[..., :3]).resize((2 * size, 2 * size))))
    return out


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of two `[x1, y1, x2, y2]` boxes."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union


def shapes_dataset(count: int, seed: int, photos: list[np.ndarray], size: int) -> list[dict]:
    """`count` samples (`image` uint8 `[size, size, 3]`, `boxes` float32 `[M, 4]`, `labels`
    int64 `[M]`) with 2-4 shapes each on a random crop of a photo; a shape may overlap another
    by up to 0.3 IoU (so it may hide part of it)."""
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(count):
        photo = photos[int(rng.integers(len(photos)))]
        top, left = rng.integers(0, size, 2)
        image = Image.fromarray(photo[top : top + size, left : left + size].copy())
        draw = ImageDraw.Draw(image)
        boxes, labels = [], []
        for _ in range(int(rng.integers(2, 5))):
            w, h = rng.uniform(0.12, 0.45, 2) * size
            x, y = rng.uniform(0, size - w), rng.uniform(0, size - h)
            box = np.round([x, y, x + w, y + h])
            if any(overlap(box, other) > 0.3 for other in boxes):
                continue
            label = int(rng.integers(0, 3))
            color = COLORS[label][int(rng.integers(2))]
            if label == 1:
                draw.ellipse([*box[:2], *(box[2:] - 1)], fill=color)
            else:
                draw.rectangle([*box[:2], *(box[2:] - 1)], fill=color)
            boxes.append(box)
            labels.append(label)
        samples.append(
            {"image": np.asarray(image), "boxes": np.array(boxes, np.float32).reshape(-1, 4),
             "labels": np.array(labels, np.int64)}
        )  # fmt: skip
    return samples


def adamw(model: Any, learning_rate: float = 2e-3) -> Any:
    """The optimizer these tests train with: AdamW, weight decay 1e-4."""
    return framework.optimizer.AdamW(
        learning_rate=learning_rate, parameters=model.parameters(), weight_decay=1e-4
    )


def train(
    model: Any,
    samples: list[dict],
    batch_size: int,
    steps: int | None = None,
    seconds: float | None = None,
    optimizer: Any = None,
    seed: int = 1,
) -> int:
    """Shuffled batches of `samples` with random horizontal flips through `optimizer` (by
    default `adamw(model)`), for `steps` steps or until `seconds` of wall time have passed;
    returns the steps taken."""
    optimizer = optimizer if optimizer is not None else adamw(model)
    flip = T.RandomFlip(rng=np.random.default_rng(seed - 1))
    rng = np.random.default_rng(seed)
    deadline = None if seconds is None else time.perf_counter() + seconds
    taken = 0
    model.train()
    while True:
        order = rng.permutation(len(samples))
        for first in range(0, len(order) - batch_size + 1, batch_size):
            if (steps is not None and taken >= steps) or (
                deadline is not None and time.perf_counter() >= deadline
            ):
                return taken
            chosen = [flip(samples[i]) for i in order[first : first + batch_size]]
            images, targets = T.to_batch(chosen, model.mean, model.std)
            losses = model.loss(model(framework.to_tensor(images)), targets)
            losses["loss"].backward()
            optimizer.step()
            optimizer.clear_grad()
            taken += 1


def detect(model: Any, samples: list[dict], batch_size: int = 25) -> list[dict[str, np.ndarray]]:
    """`model.postprocess` detections (score above 0.05) of every sample, in eval mode."""
    model.eval()
    images, _ = T.to_batch(samples, model.mean, model.std)
    results = []
    with framework.no_grad():
        for start in range(0, len(samples), batch_size):
            outputs = model(framework.to_tensor(images[start : start + batch_size]))
            results += model.postprocess(outputs, score_threshold=0.05)
    return results


def evaluate(samples: list[dict], results: list[dict[str, np.ndarray]]) -> Any:
    """`coco_evaluate` of per-sample detections against the samples' boxes."""
    truth = [{"image_id": i, "boxes": s["boxes"], "labels": s["labels"]}
             for i, s in enumerate(samples)]  # fmt: skip
    found = [{"image_id": i, **r} for i, r in enumerate(results)]
    return coco_evaluate(truth, found, num_classes=len(COLORS))
