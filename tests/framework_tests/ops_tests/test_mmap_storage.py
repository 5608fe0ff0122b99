"""MmapStorage: Paddle's documented example, Python slice rules, and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.ops.creation.mmap_storage import MmapStorage


@pytest.fixture
def mapped(tmp_path):
    path = tmp_path / "test.pp"
    np.arange(20, dtype=np.float32).tofile(path)
    return str(path)


def test_paddles_documented_example(mapped):
    paddle = pytest.importorskip("paddle")
    ours = MmapStorage(mapped, 80).get_slice(dtype="float32", start=0, stop=20).reshape([4, 5])
    theirs = paddle.MmapStorage(mapped, 80).get_slice(dtype="float32", start=0, stop=20)
    np.testing.assert_array_equal(ours.numpy(), theirs.reshape([4, 5]).numpy())
    assert ours.dtype == np.float32


def test_slices_follow_python_rules(mapped):
    storage = MmapStorage(mapped, 80)
    values = np.arange(20, dtype=np.float32)
    np.testing.assert_array_equal(storage.get_slice("float32", 2, 10, 3).numpy(), values[2:10:3])
    np.testing.assert_array_equal(storage.get_slice("float32", 5).numpy(), values[5:])
    raw = storage.get_slice()
    assert raw.dtype == np.uint8 and raw.shape == [80]
    np.testing.assert_array_equal(
        storage.get_slice("int64", 0, 3).numpy(), values[:6].view(np.int64)
    )
    assert (framework.to_tensor(storage.get_slice("float32", 0, 4)) * 2).numpy().tolist() == [
        0,
        2,
        4,
        6,
    ]


def test_it_reads_the_file_without_copying(mapped):
    view = MmapStorage(mapped, 80).get_slice("float32", 0, 20).numpy()
    assert not view.flags.writeable and not view.flags.owndata


def test_it_rejects_what_paddle_rejects(mapped, tmp_path):
    with pytest.raises(
        RuntimeError, match="size <80> is smaller than the required mapping size <800>"
    ):
        MmapStorage(mapped, 800)
    with pytest.raises(RuntimeError, match="unable to open file"):
        MmapStorage(str(tmp_path / "missing.pp"), 8)
    # Paddle reads past the mapping here; the framework refuses.
    with pytest.raises(ValueError, match="must lie in the 20 float32 elements"):
        MmapStorage(mapped, 80).get_slice("float32", 0, 30)
