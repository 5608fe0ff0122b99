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
"""The file endings `DatasetFolder` and `ImageFolder` keep when `extensions` is None.

As `paddle.vision.datasets.folder.IMG_EXTENSIONS`: a tuple of lowercase str suffixes, each with
its dot; a file's name is matched case-insensitively.

Examples:
    >>> from framework.vision.datasets import IMG_EXTENSIONS
    >>> from framework.vision.datasets.folder import has_valid_extension
    >>> IMG_EXTENSIONS[:3]
    ('.jpg', '.jpeg', '.png')
    >>> has_valid_extension('cat/IMG_0001.JPG', IMG_EXTENSIONS)
    True
    >>> has_valid_extension('cat/notes.txt', IMG_EXTENSIONS)
    False
"""


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
    """A labelled image folder, `root/<class>/**/<file>`, as `paddle.vision.datasets.DatasetFolder`.

    Classes are the sub-folder names in sorted order, numbered from 0. Sample i is
    `(loader(path), class_index)`, with `transform` applied to the image.

    Args:
        root (str): the folder.
        loader (callable, optional): reads one file; None is a PIL RGB image, or an RGB array with
            the 'cv2' image backend. Default: None.
        extensions (list|tuple, optional): file endings to keep; None is the common image types.
            Default: None.
        transform (callable, optional): applied to each loaded image. Default: None.
        is_valid_file (callable, optional): decides which files to keep instead of `extensions`.
            Default: None.

    Returns:
        Dataset: with attributes `classes`, `class_to_idx`, `samples` (path, class index) and
        `targets`.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from PIL import Image
        >>> from framework.vision.datasets import DatasetFolder
        >>> tmp = tempfile.TemporaryDirectory()  # three tiny PNGs in two class folders
        >>> for name in ('cat/a.png', 'cat/b.png', 'dog/c.png'):
        ...     Path(tmp.name, name).parent.mkdir(exist_ok=True)
        ...     Image.fromarray(np.zeros((4, 6, 3), 'uint8')).save(Path(tmp.name, name))
        >>> ds = DatasetFolder(tmp.name)
        >>> ds.classes, ds.targets
        (['cat', 'dog'], [0, 0, 1])
        >>> image, label = ds[2]
        >>> image.size, label
        ((6, 4), 1)
        >>> tmp.cleanup()
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
    """Every image under a folder, unlabelled, as `paddle.vision.datasets.ImageFolder`.

    Images are found recursively, in sorted order; sample i is `[image]`, as in Paddle. For
    class sub-folders with labels use `DatasetFolder`.

    Args:
        root (str): the folder.
        loader (callable, optional): reads one file; None is a PIL RGB image, or an RGB array with
            the 'cv2' image backend. Default: None.
        extensions (list|tuple, optional): file endings to keep; None is the common image types.
            Default: None.
        transform (callable, optional): applied to each loaded image. Default: None.
        is_valid_file (callable, optional): decides which files to keep instead of `extensions`.
            Default: None.

    Returns:
        Dataset: with the attribute `samples`, the image paths.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> from PIL import Image
        >>> from framework.vision.datasets import ImageFolder
        >>> tmp = tempfile.TemporaryDirectory()  # three tiny PNGs in two class folders
        >>> for name in ('cat/a.png', 'cat/b.png', 'dog/c.png'):
        ...     Path(tmp.name, name).parent.mkdir(exist_ok=True)
        ...     Image.fromarray(np.zeros((4, 6, 3), 'uint8')).save(Path(tmp.name, name))
        >>> from framework.vision import transforms as T
        >>> ds = ImageFolder(tmp.name, transform=T.Resize(8))
        >>> len(ds), ds[0][0].size
        (3, (12, 8))
        >>> tmp.cleanup()
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
