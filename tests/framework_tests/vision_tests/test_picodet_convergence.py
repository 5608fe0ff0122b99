"""PicoDet-S learns to find objects: coloured rectangles and ellipses (three classes, two to
four per image, some overlapping) drawn on crops of real photographs from scikit-image,
trained from the shipped ImageNet backbone at 128×128 and evaluated with COCO mAP@.5 on held-out
images. The number it reaches is printed (`-s` shows it)."""

from __future__ import annotations

import time

import numpy as np
import pytest

import framework
from framework.metric import coco_evaluate
from framework.vision.models import picodet_s
from framework.vision.transforms import detection as T
from tests.framework_tests.vision_tests.shipped_store import process_store

SIZE = 128
PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry", "hubble_deep_field")
# Class 0: warm rectangles, 1: green ellipses, 2: blue rectangles.
COLORS = {0: [(230, 40, 40), (250, 110, 30)], 1: [(40, 200, 60), (110, 230, 90)],
          2: [(40, 80, 240), (90, 40, 220)]}  # fmt: skip


def backgrounds() -> list[np.ndarray]:
    from PIL import Image
    from skimage import data

    out = []
    for name in PHOTOS:
        image = getattr(data, name)()
        if image.ndim == 2:
            image = np.stack([image] * 3, axis=-1)
        out.append(np.asarray(Image.fromarray(image[..., :3]).resize((2 * SIZE, 2 * SIZE))))
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union


def shapes_dataset(count: int, seed: int, photos: list[np.ndarray]) -> list[dict]:
    """Samples with 2-4 shapes each on a random crop of a photo; a shape may overlap another
    by up to 0.3 IoU (so it may hide part of it)."""
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(count):
        photo = photos[int(rng.integers(len(photos)))]
        top, left = rng.integers(0, SIZE, 2)
        image = Image.fromarray(photo[top : top + SIZE, left : left + SIZE].copy())
        draw = ImageDraw.Draw(image)
        boxes, labels = [], []
        for _ in range(int(rng.integers(2, 5))):
            w, h = rng.uniform(0.12, 0.45, 2) * SIZE
            x, y = rng.uniform(0, SIZE - w), rng.uniform(0, SIZE - h)
            box = np.round([x, y, x + w, y + h])
            if any(_overlap(box, other) > 0.3 for other in boxes):
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


def evaluate(model, samples: list[dict]) -> float:
    model.eval()
    images, _ = T.to_batch(samples, model.mean, model.std)
    results = []
    with framework.no_grad():
        for start in range(0, len(samples), 25):
            outputs = model(framework.to_tensor(images[start : start + 25]))
            results += model.postprocess(outputs, score_threshold=0.05)
    truth = [{"image_id": i, "boxes": s["boxes"], "labels": s["labels"]}
             for i, s in enumerate(samples)]  # fmt: skip
    found = [{"image_id": i, **r} for i, r in enumerate(results)]
    return coco_evaluate(truth, found, num_classes=3)


@pytest.mark.slow
def test_picodet_s_reaches_a_useful_map_on_shapes(monkeypatch) -> None:
    monkeypatch.setenv("FRAMEWORK_HOME", process_store())
    framework.seed(0)
    photos = backgrounds()
    train, held_out = shapes_dataset(200, 0, photos), shapes_dataset(50, 1, photos)
    model = picodet_s(num_classes=3, pretrained_backbone=True)
    optimizer = framework.optimizer.AdamW(
        learning_rate=2e-3, parameters=model.parameters(), weight_decay=1e-4
    )
    flip = T.RandomFlip(rng=np.random.default_rng(0))
    rng = np.random.default_rng(1)
    start, cpu_start, steps = time.perf_counter(), time.process_time(), 0
    while steps < STEPS:
        order = rng.permutation(len(train))
        for first in range(0, len(order) - BATCH + 1, BATCH):
            images, targets = T.to_batch([flip(train[i]) for i in order[first : first + BATCH]],
                                         model.mean, model.std)  # fmt: skip
            model.train()
            losses = model.loss(model(framework.to_tensor(images)), targets)
            losses["loss"].backward()
            optimizer.step()
            optimizer.clear_grad()
            steps += 1
            if steps == STEPS:
                break
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    result = evaluate(model, held_out)
    print(
        f"\nPicoDet-S on shapes: {steps} steps of {BATCH} at {SIZE}px in {seconds:.0f} s "
        f"({cpu_seconds:.0f} s CPU): mAP@.5 {result.map_50:.3f}, mAP {result.map:.3f}, "
        f"AP@.5 per class {np.round(result.ap_50_per_class, 3).tolist()}"
    )
    assert result.map_50 > MAP_50_FLOOR


STEPS, BATCH, MAP_50_FLOOR = 300, 8, 0.8
