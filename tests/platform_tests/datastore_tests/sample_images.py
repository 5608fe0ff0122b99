"""Real images for dataset tests: scikit-learn's digits and scikit-image's sample photos.

Not a test module: test files and conftests import it for writing fixture datasets to disk.
"""

from __future__ import annotations

import zipfile
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image
from skimage import data as skdata
from sklearn.datasets import load_digits

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "camera", "coins")


@cache
def _digits() -> tuple[np.ndarray, np.ndarray]:
    bunch = load_digits()
    return bunch.images, bunch.target


def digit(index: int, size: int = 32) -> tuple[Image.Image, int]:
    """The index-th digit as a `size`-pixel grayscale image, and its class (0-9)."""
    images, targets = _digits()
    pixels = (images[index] * (255 / 16)).astype(np.uint8)
    return Image.fromarray(pixels, "L").resize((size, size), Image.Resampling.NEAREST), int(
        targets[index]
    )


def digits_of(label: int, count: int, size: int = 32) -> list[Image.Image]:
    _, targets = _digits()
    indices = np.nonzero(targets == label)[0][:count]
    return [digit(int(i), size)[0] for i in indices]


@cache
def photo(name: str) -> Image.Image:
    array = getattr(skdata, name)()
    return Image.fromarray(array)


def save(image: Image.Image, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() in (".jpg", ".jpeg") and image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    image.save(path)
    return path


def class_folders(
    root: Path, labels: tuple[int, ...] = (0, 1, 2), per_class: int = 4, ext: str = ".png"
) -> list[Path]:
    """`root/<digit>/<n>.png`, the ImageNet folder layout."""
    written = []
    for label in labels:
        for n, image in enumerate(digits_of(label, per_class)):
            written.append(save(image, root / str(label) / f"{label}_{n}{ext}"))
    return written


def photos(root: Path, names: tuple[str, ...] = PHOTOS, ext: str = ".jpg") -> list[Path]:
    return [save(photo(name), root / f"{name}{ext}") for name in names]


def zip_folder(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(folder).as_posix())
    return target


def uploads_of(folder: Path) -> list[tuple[str, Path]]:
    """(relative name, file) pairs, as a browser folder upload would send them."""
    return [(p.relative_to(folder).as_posix(), p) for p in sorted(folder.rglob("*")) if p.is_file()]
