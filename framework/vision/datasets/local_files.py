"""Where dataset files are looked for, and the error that says where to put them.

Nothing is ever downloaded. A dataset built without an explicit path looks in
`$FRAMEWORK_HOME/datasets/<name>/` (`FRAMEWORK_HOME` defaults to `~/.cache/sampan-framework`,
the home the model weight store uses too).
"""

from __future__ import annotations

import os
from pathlib import Path

from framework.core.home import framework_home


def dataset_dir(name: str) -> Path:
    """The folder where a dataset's default files are looked for.

    Args:
        name (str): the dataset's folder name, e.g. 'mnist' or 'cifar'.

    Returns:
        pathlib.Path: `$FRAMEWORK_HOME/datasets/<name>`, where datasets look for their files.

    Examples:
        >>> from framework.vision.datasets import dataset_dir
        >>> dataset_dir('mnist').parts[-2:]
        ('datasets', 'mnist')
    """
    return framework_home() / "datasets" / name


def resolve_data_file(
    path: str | os.PathLike | None,
    dataset: str,
    filenames: tuple[str, ...],
    url: str,
    download: bool,
    argument: str,
) -> str:
    """The file to read: `path` when given (it must exist), else the first of `filenames` found
    in `dataset_dir(dataset)`. Raises FileNotFoundError naming the expected path, where the
    file comes from and how to point at it; nothing is downloaded."""
    if path is not None:
        path = os.path.expanduser(os.fspath(path))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{argument}={path!r} does not exist or is not a file")
        return path
    if not download:
        raise ValueError(f"{argument} is not set and downloading automatically is disabled")
    folder = dataset_dir(dataset)
    for filename in filenames:
        candidate = folder / filename
        if candidate.is_file():
            return str(candidate)
    raise FileNotFoundError(
        f"{dataset}: {filenames[0]} is not on this machine. Expected it at "
        f"{folder / filenames[0]}. Nothing is downloaded (download=True only looks in the local "
        f"data directory): copy the file there (it is published at {url}), pass "
        f"{argument}='/path/to/{filenames[0]}', or set FRAMEWORK_HOME to use another directory."
    )
