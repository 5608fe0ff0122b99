"""`framework.interop.torch.load`: torch.save files read without torch, equal to torch.load."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from framework.interop import torch as bridge
from framework.interop.safe_unpickle import CheckpointError, UnsafePickleError

torch = pytest.importorskip("torch")

FORMATS = {"zip": True, "legacy": False}
DTYPES = [
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.int16,
    torch.int32, torch.int64, torch.uint8, torch.bool, torch.complex64, torch.uint16,
]  # fmt: skip


def save(obj: object, path: Path, fmt: str) -> Path:
    torch.save(obj, path, _use_new_zipfile_serialization=FORMATS[fmt])
    return path


def as_numpy(tensor: torch.Tensor) -> np.ndarray:
    tensor = tensor.detach()
    if tensor.dtype == torch.bfloat16:
        tensor = tensor.float()
    if tensor.dtype == torch.uint16:
        tensor = tensor.to(torch.int32)
    return tensor.numpy()


def assert_same(ours: object, theirs: object, where: str = "") -> None:
    """`ours` (from our reader) equals `theirs` (torch.load), arrays for tensors."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, np.ndarray), f"{where}: {type(ours)}"
        expected = as_numpy(theirs)
        assert ours.shape == expected.shape, where
        np.testing.assert_array_equal(ours.astype(expected.dtype), expected, err_msg=where)
        if theirs.dtype not in (torch.bfloat16, torch.uint16):
            assert ours.dtype == expected.dtype, where
    elif isinstance(theirs, dict):
        assert list(ours) == list(theirs), where
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}.{key}")
    elif isinstance(theirs, list | tuple):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{where}[{i}]")
    else:
        assert ours == theirs, where


def sample(dtype: torch.dtype) -> torch.Tensor:
    values = torch.arange(-6, 18, dtype=torch.float64).reshape(2, 3, 4) * 0.75
    if dtype == torch.bool:
        return values > 0
    if dtype in (torch.uint8, torch.uint16):
        return values.abs().to(torch.int32).to(dtype)
    if dtype.is_complex:
        return torch.complex(values, -values).to(dtype)
    return values.to(dtype)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_it_reads_every_dtype_like_torch_load(tmp_path: Path, fmt: str, dtype: torch.dtype):
    tensor = sample(dtype)
    state = {"t": tensor, "scalar": tensor[1, 2, 3].clone(), "empty": tensor[:0]}
    path = save(state, tmp_path / "d.pth", fmt)
    if fmt == "legacy" and dtype == torch.uint16:
        expected = state  # torch.load itself cannot read legacy uint16 files (torch 2.13)
    else:
        expected = torch.load(path, weights_only=True)
    assert_same(bridge.load(path), expected)


def test_bfloat16_is_widened_exactly(tmp_path: Path):
    values = torch.tensor([1.0, -2.5, 3.140625, 1e-3, 65504.0, float("inf")]).bfloat16()
    loaded = bridge.load(save({"b": values}, tmp_path / "b.pth", "zip"))["b"]
    assert loaded.dtype == np.float32
    np.testing.assert_array_equal(loaded, values.float().numpy())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_it_reads_views_offsets_and_strides(tmp_path: Path, fmt: str):
    base = torch.arange(60, dtype=torch.float32).reshape(3, 4, 5)
    views = {
        "base": base,
        "transposed": base.transpose(0, 2),
        "sliced": base[1:, ::2, 1:4],
        "row": base[2, 1],
        "column": base[:, :, 3],
        "narrow": base.narrow(1, 1, 2),
        "expanded": torch.arange(3.0).reshape(3, 1).expand(3, 4),
        "permuted": base.permute(1, 2, 0)[1],
        "offset": base.flatten()[7:19].view(3, 4),
    }
    path = save(views, tmp_path / "v.pth", fmt)
    ours, theirs = bridge.load(path), torch.load(path, weights_only=True)
    assert_same(ours, theirs)
    assert all(array.flags.c_contiguous for array in ours.values())


def test_tensors_sharing_a_storage_share_their_bytes_once(tmp_path: Path):
    weight = torch.randn(8, 8)
    path = save({"w": weight, "half": weight[:4]}, tmp_path / "s.pth", "zip")
    with zipfile.ZipFile(path) as archive:
        assert len([n for n in archive.namelist() if "/data/" in n]) == 1
    ours = bridge.load(path)
    np.testing.assert_array_equal(ours["half"], weight[:4].numpy())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_it_gives_nested_checkpoints_and_unwraps_parameters(tmp_path: Path, fmt: str):
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(torch.randn(5, 3)).sum().backward()
    optimizer.step()
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "epoch": 3,
        "best": (0.5, "acc"),
        "param": torch.nn.Parameter(torch.ones(2)),
        "params": list(model.parameters()),
        "numpy": np.float64(0.25),
    }
    path = save(checkpoint, tmp_path / "ckpt.pth", fmt)
    ours = bridge.load(path)
    assert_same(ours["model"], checkpoint["model"])
    assert ours["epoch"] == 3 and ours["best"] == (0.5, "acc") and ours["numpy"] == 0.25
    assert isinstance(ours["param"], np.ndarray) and isinstance(ours["params"][0], np.ndarray)
    assert ours["optimizer"]["param_groups"][0]["lr"] == 0.1
    assert_same(ours["optimizer"]["state"], optimizer.state_dict()["state"])
    assert type(ours["model"]) is dict
    state = bridge.load_state_dict(path)
    assert list(state["model"]) == list(model.state_dict())


def test_it_reads_any_top_level_folder_name(tmp_path: Path):
    path = save({"w": torch.ones(3)}, tmp_path / "weird name.v2.pth", "zip")
    renamed = tmp_path / "renamed.pth"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(renamed, "w") as target:
        for info in source.infolist():
            target.writestr("custom_root/" + info.filename.split("/", 1)[1], source.read(info))
    np.testing.assert_array_equal(bridge.load(renamed)["w"], np.ones(3))


def test_it_reads_big_endian_archives(tmp_path: Path):
    path = save(
        {"w": torch.arange(6, dtype=torch.float32), "i": torch.arange(3)}, tmp_path / "l.pth", "zip"
    )
    swapped = tmp_path / "big.pth"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(swapped, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("byteorder"):
                data = b"big"
            elif "/data/" in info.filename:
                itemsize = 4 if info.filename.endswith("/0") else 8
                data = np.frombuffer(data, f"<u{itemsize}").astype(f">u{itemsize}").tobytes()
            target.writestr(info.filename, data)
    loaded = bridge.load(swapped)
    np.testing.assert_array_equal(loaded["w"], np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(loaded["i"], np.arange(3))
    assert loaded["w"].dtype.isnative


def test_it_reads_archives_rezipped_with_compression(tmp_path: Path):
    state = {"w": torch.randn(64, 64), "zeros": torch.zeros(4096)}
    path = save(state, tmp_path / "s.pth", "zip")
    deflated = tmp_path / "deflated.pth"
    with (
        zipfile.ZipFile(path) as source,
        zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info.filename, source.read(info))
    assert_same(bridge.load(deflated), state)


def test_it_reads_without_torch_installed(tmp_path: Path):
    """The reader never imports torch: a child process with torch blocked reads both formats."""
    state = {"w": torch.randn(3, 4), "b": torch.randn(4).bfloat16(), "v": torch.randn(4, 4).t()}
    files = [save(state, tmp_path / f"{fmt}.pth", fmt) for fmt in sorted(FORMATS)]
    script = (
        "import sys, json, numpy as np\n"
        "sys.modules['torch'] = None\n"
        "import framework.interop.torch as bridge\n"
        "out = {}\n"
        "for path in sys.argv[1:]:\n"
        "    for key, value in bridge.load_state_dict(path).items():\n"
        "        np.save(path + '.' + key + '.npy', value)\n"
        "try:\n"
        "    import torch\n"
        "    out['torch'] = 'importable'\n"
        "except ImportError:\n"
        "    out['torch'] = 'blocked'\n"
        "print(json.dumps(out))\n"
    )
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, files)],
        capture_output=True, text=True, env=env, cwd=root, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"torch": "blocked"}
    for path in files:
        for key, value in state.items():
            np.testing.assert_array_equal(np.load(f"{path}.{key}.npy"), as_numpy(value))


# --- errors ------------------------------------------------------------------------------------
def test_a_missing_file_is_file_not_found(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match="no such weight file"):
        bridge.load_state_dict(tmp_path / "nope.pth")


def test_a_truncated_zip_is_a_clear_error(tmp_path: Path):
    path = save({"w": torch.randn(64, 64)}, tmp_path / "t.pth", "zip")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="truncated or corrupt zip"):
        bridge.load_state_dict(path)


def test_a_corrupt_storage_fails_its_checksum(tmp_path: Path):
    path = save({"w": torch.zeros(256)}, tmp_path / "c.pth", "zip")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(next(n for n in archive.namelist() if n.endswith("/data/0")))
    data[info.header_offset + 200] ^= 0xFF  # inside the stored bytes of the storage
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupt archive"):
        bridge.load_state_dict(path)


def test_a_truncated_legacy_file_is_a_clear_error(tmp_path: Path):
    path = save({"w": torch.randn(64, 64)}, tmp_path / "t.pt", "legacy")
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(CheckpointError, match="truncated"):
        bridge.load_state_dict(path)


@pytest.mark.parametrize("content", [b"hello, not a checkpoint", b"", b"\x89PNG\r\n\x1a\n...."])
def test_a_file_that_is_not_a_checkpoint_is_a_clear_error(tmp_path: Path, content: bytes):
    path = tmp_path / "x.pth"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match="not a PyTorch checkpoint"):
        bridge.load_state_dict(path)


def test_a_plain_pickle_is_not_a_torch_file(tmp_path: Path):
    path = tmp_path / "p.pth"
    path.write_bytes(pickle.dumps({"w": [1, 2]}, protocol=2))
    with pytest.raises(CheckpointError, match="no magic number"):
        bridge.load_state_dict(path)


@pytest.mark.parametrize("storage", ["QInt8Storage", "Float8_e4m3fnStorage"])
def test_an_unknown_storage_type_is_a_clear_error(tmp_path: Path, storage: str):
    path = save({"w": torch.ones(3)}, tmp_path / "u.pth", "zip")
    patched = tmp_path / "patched.pth"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(patched, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("data.pkl"):
                data = data.replace(b"torch\nFloatStorage\n", f"torch\n{storage}\n".encode())
            target.writestr(info.filename, data)
    with pytest.raises(CheckpointError, match=f"unsupported storage type 'torch.{storage}'"):
        bridge.load_state_dict(patched)


def test_an_out_of_bounds_view_is_refused(tmp_path: Path):
    path = save({"w": torch.ones(4)}, tmp_path / "o.pth", "zip")
    patched = tmp_path / "oob.pth"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(patched, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("data.pkl"):  # claim 4000 elements of a 4-element storage
                data = data.replace(b"K\x04\x85", b"M\xa0\x0f\x85", 1)
            target.writestr(info.filename, data)
    with pytest.raises(CheckpointError, match="corrupt tensor"):
        bridge.load_state_dict(patched)


def test_a_pickled_module_is_refused(tmp_path: Path):
    path = tmp_path / "module.pth"
    torch.save(torch.nn.Linear(2, 2), path)
    with pytest.raises(UnsafePickleError, match="torch.nn.modules.linear.Linear"):
        bridge.load_state_dict(path)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_torchscript_archive_is_refused(tmp_path: Path):
    path = tmp_path / "scripted.pt"
    torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), str(path))
    with pytest.raises(CheckpointError, match="TorchScript"):
        bridge.load_state_dict(path)


def test_load_state_dict_wants_a_dict(tmp_path: Path):
    path = save([torch.ones(2)], tmp_path / "list.pth", "zip")
    with pytest.raises(CheckpointError, match="not a state dict"):
        bridge.load_state_dict(path)
    assert isinstance(bridge.load(path), list)
