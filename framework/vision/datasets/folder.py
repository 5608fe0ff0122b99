"""Datasets read from a directory tree: `DatasetFolder` (one sub-folder per class) and
`ImageFolder` (every image under a folder, unlabelled), as in `paddle.vision.datasets`."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from framework.core.dtype import get_default_dtype
from framework.io.dataset import Dataset
from framework.vision.datasets.image_backend import default_loader

IMG_EXTENSIONS = (
    ".jpg",
    ".jpeg",
    ".png",
    ".ppm",
    ".bmp",
    ".pgm",
    ".tif",
    ".tiff",
    ".webp",
)


def has_valid_extension(filename: str, extensions: Sequence[str]) -> bool:
    """Whether `filename` ends with one of `extensions` (case-insensitive)."""
    if not isinstance(extensions, list | tuple):
        raise TypeError("`extensions` must be list or tuple.")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _file_filter(
    extensions: Sequence[str], is_valid_file: Callable[[str], bool] | None
) -> Callable[[str], bool]:
    if is_valid_file is not None:
        return is_valid_file
    return lambda path: has_valid_extension(path, extensions)


def _walk_files(folder: str, keep: Callable[[str], bool]) -> list[str]:
    """Files under `folder` (following links), in sorted order, that `keep` accepts."""
    found = []
    for root, _, filenames in sorted(os.walk(folder, followlinks=True)):
        for filename in sorted(filenames):
            path = os.path.join(root, filename)
            if keep(path):
                found.append(path)
    return found


class DatasetFolder(Dataset):
    """A labelled image folder: `root/<class>/**/<file>`; classes are the sub-folder names in
    sorted order, numbered from 0. Sample i is `(loader(path), class_index)`, with `transform`
    applied to the image.

    Args:
        root: the folder.
        loader: reads one file (default: PIL RGB image, or an RGB array with the 'cv2'
            image backend).
        extensions: file endings to keep (default: common image types).
        transform: applied to each loaded image.
        is_valid_file: decides which files to keep instead of `extensions`.

    Attributes: `classes`, `class_to_idx`, `samples` (path, class index), `targets`.

        ds = DatasetFolder("flowers/train", transform=T.ToTensor())
        ds.classes        # ['daisy', 'rose', ...]
        image, label = ds[0]
    """

    def __init__(
        self,
        root: str,
        loader: Callable[[str], Any] | None = None,
        extensions: Sequence[str] | None = None,
        transform: Callable[[Any], Any] | None = None,
        is_valid_file: Callable[[str], bool] | None = None,
    ) -> None:
        self.root = root
        self.transform = transform
        extensions = IMG_EXTENSIONS if extensions is None else extensions
        classes, class_to_idx = self._find_classes(root)
        keep = _file_filter(extensions, is_valid_file)
        samples = [
            (path, class_to_idx[name])
            for name in classes
            for path in _walk_files(os.path.join(os.path.expanduser(root), name), keep)
        ]
        if not samples:
            raise RuntimeError(
                f"Found 0 files in subfolders of: {root}\n"
                f"Supported extensions are: {','.join(extensions)}"
            )
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [target for _, target in samples]
        self.dtype = get_default_dtype()

    @staticmethod
    def _find_classes(folder: str) -> tuple[list[str], dict[str, int]]:
        classes = sorted(
            entry.name for entry in os.scandir(os.path.expanduser(folder)) if entry.is_dir()
        )
        return classes, {name: i for i, name in enumerate(classes)}

    def __getitem__(self, index: int) -> tuple[Any, int]:
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image under `root` (recursively, sorted), without labels: sample i is
    `[image]`, as in Paddle. For class sub-folders with labels use `DatasetFolder`.

        ds = ImageFolder("unlabelled/", transform=T.Resize(64))
        (image,) = ds[0]
    """

    def __init__(
        self,
        root: str,
        loader: Callable[[str], Any] | None = None,
        extensions: Sequence[str] | None = None,
        transform: Callable[[Any], Any] | None = None,
        is_valid_file: Callable[[str], bool] | None = None,
    ) -> None:
        self.root = root
        extensions = IMG_EXTENSIONS if extensions is None else extensions
        samples = _walk_files(os.path.expanduser(root), _file_filter(extensions, is_valid_file))
        if not samples:
            raise RuntimeError(
                f"Found 0 files in subfolders of: {root}\n"
                f"Supported extensions are: {','.join(extensions)}"
            )
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index: int) -> list[Any]:
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
