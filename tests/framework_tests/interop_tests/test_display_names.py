"""Messages name the file by its display name (`name=`, else its base name), never by the
folder it sits in: on a server that is a path of no concern to the person reading it."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from framework.interop import paddle as paddle_bridge
from framework.interop import torch as torch_bridge
from framework.interop.safe_unpickle import CheckpointError
from tests.framework_tests.interop_tests.hostile import bytearray_pdparams
from tests.framework_tests.interop_tests.malicious import (
    Reduce,
    write_pdparams,
    write_torch_legacy,
    write_torch_zip,
)

LOADERS: dict[str, Callable[..., object]] = {
    "torch.load": torch_bridge.load,
    "torch.load_state_dict": torch_bridge.load_state_dict,
    "paddle.load_state_dict": paddle_bridge.load_state_dict,
}


def not_a_checkpoint(folder: Path) -> Path:
    path = folder / "weights.bin"
    path.write_bytes(b"\x00\x01 not a weight file")
    return path


def truncated_pickle(folder: Path) -> Path:
    path = folder / "weights.bin"
    path.write_bytes(pickle.dumps({"w": np.ones(3)}, protocol=2)[:-10])
    return path


def unsafe_zip(folder: Path) -> Path:
    return write_torch_zip(folder / "weights.bin", {"w": Reduce(print, "hi")})


def unsafe_legacy(folder: Path) -> Path:
    return write_torch_legacy(folder / "weights.bin", {"w": Reduce(print, "hi")})


def unsafe_pdparams(folder: Path) -> Path:
    return write_pdparams(folder / "weights.bin", {"w": Reduce(print, "hi")})


def too_large(folder: Path) -> Path:
    return bytearray_pdparams(folder)


def not_a_dict(folder: Path) -> Path:
    return write_torch_zip(folder / "weights.bin", [1, 2])


BAD_FILES = {
    "torch.load": [not_a_checkpoint, truncated_pickle, unsafe_zip, unsafe_legacy],
    "torch.load_state_dict": [not_a_dict, unsafe_zip],
    "paddle.load_state_dict": [not_a_checkpoint, truncated_pickle, unsafe_pdparams, too_large],
}
CASES = [(loader, bad) for loader, files in BAD_FILES.items() for bad in files]


def message_of(load: Callable[..., object], path: Path, **options: object) -> str:
    with pytest.raises(CheckpointError) as caught:
        load(path, **options)
    return str(caught.value)


@pytest.mark.parametrize("loader, bad", CASES, ids=lambda case: getattr(case, "__name__", case))
def test_messages_carry_the_base_name_not_the_folder(tmp_path: Path, loader: str, bad):
    folder = tmp_path / "srv" / "sampan" / "incoming"
    folder.mkdir(parents=True)
    path = bad(folder)
    message = message_of(LOADERS[loader], path)
    assert repr(path.name) in message
    assert str(tmp_path) not in message and "incoming" not in message


@pytest.mark.parametrize("loader, bad", CASES, ids=lambda case: getattr(case, "__name__", case))
def test_messages_carry_the_name_given(tmp_path: Path, loader: str, bad):
    path = bad(tmp_path)
    message = message_of(LOADERS[loader], path, name="resnet18 (epoch 3).pth")
    assert "'resnet18 (epoch 3).pth'" in message
    assert path.name not in message and str(tmp_path) not in message


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_a_missing_file_or_a_folder_is_named_without_its_folder(tmp_path: Path, loader: str):
    folder = tmp_path / "srv" / "incoming"
    folder.mkdir(parents=True)
    with pytest.raises(FileNotFoundError) as missing:
        LOADERS[loader](folder / "gone.pth", name="model.pth")
    with pytest.raises(IsADirectoryError) as directory:
        LOADERS[loader](folder)
    assert "'model.pth'" in str(missing.value) and "'incoming'" in str(directory.value)
    for error in (missing.value, directory.value):
        assert str(tmp_path) not in str(error)
