"""A small object-detection dataset made here: coloured shapes (circles, squares, triangles) on
crops of scikit-image's real photographs, several per image, some overlapping, written as COCO
and imported through the datastore's own import, then frozen.

    version = shapes_version(workspace, user, images=48)        # 3 classes, val 25 %

Not a test module.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from datastore.models import Dataset, DatasetVersion, ImportJob
from datastore.services.imports import import_local_files
from datastore.services.versions import freeze_version

CLASSES = ("circle", "square", "triangle")
COLOURS = {"circle": (230, 40, 40), "square": (40, 90, 235), "triangle": (250, 210, 30)}
BACKGROUNDS = ("astronaut", "coffee", "chelsea", "rocket", "hubble_deep_field", "grass", "brick")


@dataclass(frozen=True)
class Shape:
    name: str
    box: tuple[float, float, float, float]  # x, y, w, h in pixels


def _backgrounds() -> list[np.ndarray]:
    from skimage import data

    photos = []
    for name in BACKGROUNDS:
        image = np.asarray(getattr(data, name)())
        if image.ndim == 2:
            image = np.stack([image] * 3, axis=-1)
        photos.append(image[:, :, :3])
    return photos


def _draw(draw: ImageDraw.ImageDraw, shape: Shape) -> None:
    x, y, w, h = shape.box
    colour = COLOURS[shape.name]
    outline = tuple(c // 2 for c in colour)
    if shape.name == "circle":
        draw.ellipse((x, y, x + w - 1, y + h - 1), fill=colour, outline=outline, width=2)
    elif shape.name == "square":
        draw.rectangle((x, y, x + w - 1, y + h - 1), fill=colour, outline=outline, width=2)
    else:
        draw.polygon([(x + w / 2, y), (x + w - 1, y + h - 1), (x, y + h - 1)], fill=colour)


def shapes_image(
    rng: np.random.Generator, photos: list[np.ndarray], size: tuple[int, int]
) -> tuple[Image.Image, list[Shape]]:
    """One image of `size` (width, height) with 1 to 4 shapes; about a third of the images
    have two that overlap."""
    width, height = size
    photo = photos[int(rng.integers(len(photos)))]
    top = int(rng.integers(0, photo.shape[0] - height + 1))
    left = int(rng.integers(0, photo.shape[1] - width + 1))
    image = Image.fromarray(np.ascontiguousarray(photo[top : top + height, left : left + width]))
    draw = ImageDraw.Draw(image)
    shapes: list[Shape] = []
    for _ in range(int(rng.integers(1, 5))):
        name = CLASSES[int(rng.integers(len(CLASSES)))]
        side = float(rng.integers(min(size) // 6, min(size) // 3))
        w, h = side, side * float(rng.uniform(0.8, 1.25))
        if shapes and rng.random() < 0.35:  # overlap the previous shape by a third or so
            px, py, pw, ph = shapes[-1].box
            x, y = px + pw * float(rng.uniform(0.4, 0.7)), py + ph * float(rng.uniform(0.2, 0.6))
        else:
            x, y = float(rng.uniform(0, width - w)), float(rng.uniform(0, height - h))
        x, y = min(max(0.0, x), width - w), min(max(0.0, y), height - h)
        shape = Shape(name, (round(x), round(y), round(w), round(h)))
        _draw(draw, shape)
        shapes.append(shape)
    return image, shapes


def write_coco(root: Path, images: int, size: tuple[int, int], seed: int) -> list[tuple[str, Path]]:
    """`root/images/*.png` and `root/annotations.json`; (upload name, path) pairs."""
    rng = np.random.default_rng(seed)
    photos = _backgrounds()
    doc: dict[str, Any] = {
        "images": [],
        "annotations": [],
        "categories": [{"id": i + 1, "name": n} for i, n in enumerate(CLASSES)],
    }
    (root / "images").mkdir(parents=True, exist_ok=True)
    for index in range(images):
        image, shapes = shapes_image(rng, photos, size)
        name = f"images/shapes_{index:04d}.png"
        image.save(root / name)
        doc["images"].append(
            {"id": index + 1, "file_name": name, "width": size[0], "height": size[1]}
        )
        for shape in shapes:
            doc["annotations"].append(
                {
                    "id": len(doc["annotations"]) + 1,
                    "image_id": index + 1,
                    "category_id": CLASSES.index(shape.name) + 1,
                    "bbox": list(shape.box),
                    "area": shape.box[2] * shape.box[3],
                    "iscrowd": 0,
                }
            )
    (root / "annotations.json").write_text(json.dumps(doc))
    return [(p.relative_to(root).as_posix(), p) for p in sorted(root.rglob("*")) if p.is_file()]


def shapes_dataset(
    workspace: Any,
    user: Any,
    *,
    images: int = 48,
    size: tuple[int, int] = (160, 120),
    seed: int = 0,
    name: str = "Shapes",
) -> Dataset:
    dataset = Dataset.objects.create(
        workspace=workspace,
        name=name,
        task_type=Dataset.TaskType.DETECTION,
        description="Coloured shapes on photographs (scikit-image), made by the tests.",
        created_by=user,
    )
    with tempfile.TemporaryDirectory(prefix="sampan-shapes-") as folder:
        job = import_local_files(dataset, user, write_coco(Path(folder), images, size, seed))
    if job.status != ImportJob.Status.SUCCEEDED:
        raise RuntimeError(f"The shapes import failed: {job.error}")
    return dataset


def shapes_version(
    workspace: Any,
    user: Any,
    *,
    images: int = 48,
    size: tuple[int, int] = (160, 120),
    val: float = 0.25,
    seed: int = 0,
    name: str = "Shapes",
) -> DatasetVersion:
    """A detection dataset of shapes with one frozen, stratified version."""
    dataset = shapes_dataset(workspace, user, images=images, size=size, seed=seed, name=name)
    return freeze_version(
        dataset,
        user=user,
        method=DatasetVersion.SplitMethod.STRATIFIED,
        ratios={"train": round(1 - val, 6), "val": val, "test": 0.0},
        seed=0,
    )
