"""Files that ask for far more memory than they hold are refused before the memory is taken.

Each hostile file is loaded in a child process, whose peak RSS must stay near its RSS after
imports; a plain reader allocates gigabytes for each (see hostile.py).
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from framework.interop import paddle as paddle_bridge
from framework.interop import torch as torch_bridge
from framework.interop.safe_unpickle import MAX_NESTING, CheckpointError
from tests.framework_tests.interop_tests import hostile

MIB = 2**20
HEADROOM_KIB = 200 * 1024  # what a refused load may take above the child's RSS after imports

HOSTILE: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    # name: (builder, loader, what the refusal says it was asked for)
    "bytearray(4 GiB)": (hostile.bytearray_pdparams, "paddle", "4.0 GiB for a bytearray"),
    "bytes(4 GiB)": (hostile.bytes_pdparams, "paddle", "4.0 GiB for a bytes"),
    "_reconstruct of 2**30 floats": (
        hostile.reconstruct_pdparams, "paddle", "4.0 GiB for a NumPy array of shape (1073741824,)"
    ),
    "subarray dtype of 2 GB": (
        hostile.subarray_pdparams, "paddle", "7.5 GiB for a NumPy array of shape (4,)"
    ),
    "memo index 2**28": (hostile.memo_pdparams, "paddle", "4.0 GiB for the objects its pickle"),
    "list(x) 20,000 times": (hostile.list_copies_pdparams, "paddle", "for a list"),
    "two million empty sets": (
        hostile.empty_sets_pdparams, "paddle", "for the objects its pickle builds"
    ),
    "deflated zeros": (
        hostile.deflated_zeros_pth, "torch", "256.0 MiB for the record 'weights/data/0'"
    ),
    "stride-0 expand": (
        hostile.stride_zero_pth, "torch", "4.0 GiB for a contiguous copy of a tensor of size"
    ),
    "legacy storage of 2**30 floats": (
        hostile.legacy_storage_pth, "torch", "4.0 GiB for storage"
    ),
}  # fmt: skip
NEEDS_TORCH = {"deflated zeros", "stride-0 expand", "legacy storage of 2**30 floats"}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_it_refuses_a_file_asking_for_more_than_it_holds(tmp_path: Path, kind: str):
    if kind in NEEDS_TORCH:
        pytest.importorskip("torch")  # only to write the file; the child never imports it
    build, loader, asked = HOSTILE[kind]
    path = build(tmp_path)
    outcome = hostile.load_in_child(loader, path)
    assert outcome["error"] == "CheckpointTooLargeError", outcome
    message = outcome["message"]
    assert message.startswith(f"refusing to load '{path.name}': it asks for "), message
    assert asked in message, message
    assert "can hold at most" in message, message
    grew = outcome["peak_kib"] - outcome["baseline_kib"]
    assert grew < HEADROOM_KIB, f"{kind}: the child's peak RSS grew by {grew // 1024} MiB"


def test_a_deflated_record_is_never_inflated_past_its_claimed_size(tmp_path: Path):
    """The archive claims 1,000 bytes for a record that inflates to 16 MiB: reading stops at
    1,000, and the checksum of what was read does not match."""
    pytest.importorskip("torch")
    path = hostile.deflated_zeros_pth(tmp_path, mib=16)
    data = bytearray(path.read_bytes())
    entry = data.index(b"PK\x01\x02")  # the central directory entry of weights/data/0
    while data[entry + 46 : entry + 60] != b"weights/data/0":
        entry = data.index(b"PK\x01\x02", entry + 4)
    data[entry + 24 : entry + 28] = (1000).to_bytes(4, "little")  # its uncompressed size
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="cannot read 'weights/data/0' .*CRC"):
        torch_bridge.load_state_dict(path)


def test_shared_objects_are_converted_once(tmp_path: Path):
    """24 levels of lists holding one list twice: 188 bytes, 2**24 lists if copied as a tree."""
    outcome = hostile.load_in_child("paddle", hostile.shared_lists_pdparams(tmp_path))
    assert outcome["error"] is None, outcome
    assert outcome["peak_kib"] - outcome["baseline_kib"] < HEADROOM_KIB
    nested = paddle_bridge.load_state_dict(hostile.shared_lists_pdparams(tmp_path, depth=3))["w"]
    assert nested[0] is nested[1] and nested[0][0] == [[None], [None]]


def deeply_nested(depth: int) -> bytes:
    """A pickle of `{'w': [[[...]]]}`, `depth` lists deep, written without recursion (pickle
    itself cannot dump 50,000 levels)."""
    return b"\x80\x02}X\x01\x00\x00\x00w" + b"]" * depth + b"a" * (depth - 1) + b"s."


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 50_000])
def test_deep_nesting_is_a_clear_error(tmp_path: Path, depth: int):
    pdparams = tmp_path / "deep.pdparams"
    pdparams.write_bytes(deeply_nested(depth))
    pth = tmp_path / "deep.pth"
    with zipfile.ZipFile(pth, "w") as archive:
        archive.writestr("archive/data.pkl", deeply_nested(depth))
    with pytest.raises(CheckpointError, match="nested too deeply"):
        paddle_bridge.load_state_dict(pdparams)
    with pytest.raises(CheckpointError, match="nested too deeply"):
        torch_bridge.load_state_dict(pth)


def test_nesting_up_to_the_limit_loads(tmp_path: Path):
    path = tmp_path / "deep.pdparams"
    path.write_bytes(deeply_nested(MAX_NESTING))  # the dict is level 0
    nested = paddle_bridge.load_state_dict(path)["w"]
    for _ in range(MAX_NESTING - 1):
        (nested,) = nested
    assert nested == []
