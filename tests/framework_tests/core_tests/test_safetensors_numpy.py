"""The NumPy safetensors codec the standalone framework wheel falls back to: byte-for-byte the
`safetensors` package's output, readable by it, and strict about malformed files."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
import safetensors.numpy as reference

from framework.core import safetensors_numpy as codec


def arrays() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    out = {
        f"t_{np.dtype(dtype).name}": (rng.random((3, 4)) * 100).astype(dtype)
        for dtype in (
            np.float64,
            np.float32,
            np.float16,
            np.int64,
            np.int32,
            np.int16,
            np.int8,
            np.uint64,
            np.uint32,
            np.uint16,
            np.uint8,
        )
    }
    out["flag"] = np.array([True, False, True])
    out["scalar"] = np.array(3.5, np.float32)
    out["empty"] = np.zeros((0, 5), np.float32)
    return out


def test_it_writes_the_same_bytes_as_the_safetensors_package() -> None:
    # One metadata key: the package keeps metadata in a hash map, whose order varies by run.
    metadata = {"note": "ü"}
    assert codec.save(arrays(), metadata) == reference.save(arrays(), metadata=metadata)
    assert codec.save(arrays()) == reference.save(arrays())


def test_metadata_reads_back_the_same_with_either_implementation() -> None:
    metadata = {"format": "framework", "note": "ü", "version": "1"}
    with_ours = codec.save(arrays(), metadata)
    with_theirs = reference.save(arrays(), metadata=metadata)
    for data in (with_ours, with_theirs):
        (size,) = struct.unpack("<Q", data[:8])
        assert json.loads(data[8 : 8 + size])["__metadata__"] == metadata


def test_it_reads_what_the_safetensors_package_writes() -> None:
    loaded = codec.load(reference.save(arrays()))
    for name, array in arrays().items():
        assert loaded[name].dtype == array.dtype and loaded[name].shape == array.shape
        np.testing.assert_array_equal(loaded[name], array)


def test_safe_open_lists_keys_metadata_and_tensors(tmp_path) -> None:
    path = tmp_path / "w.safetensors"
    path.write_bytes(codec.save({"b": np.ones(2), "a": np.zeros(3)}, {"k": "v"}))
    with codec.safe_open(path, framework="np") as stream:
        assert stream.keys() == ["a", "b"]
        assert stream.metadata() == {"k": "v"}
        np.testing.assert_array_equal(stream.get_tensor("b"), np.ones(2))
        with pytest.raises(codec.SafetensorError):
            stream.get_tensor("missing")
    assert set(codec.load_file(path)) == {"a", "b"}


def test_loaded_arrays_are_writable_copies() -> None:
    loaded = codec.load(codec.save({"x": np.arange(4, dtype=np.int32)}))
    loaded["x"][0] = 7
    assert loaded["x"].flags.writeable


def test_big_endian_arrays_are_stored_little_endian() -> None:
    data = codec.save({"x": np.arange(3, dtype=">i4")})
    np.testing.assert_array_equal(reference.load(data)["x"], [0, 1, 2])


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x01\x00",
        struct.pack("<Q", 10**12) + b"{}",
        struct.pack("<Q", 4) + b"nope",
        struct.pack("<Q", 2) + b"[]",
    ],
    ids=["empty", "short", "huge-header", "not-json", "not-object"],
)
def test_it_rejects_malformed_headers(data: bytes) -> None:
    with pytest.raises(codec.SafetensorError):
        codec.load(data)


@pytest.mark.parametrize(
    "entry",
    [
        {"dtype": "F32", "shape": [4], "data_offsets": [0, 64]},  # past the end
        {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]},  # size mismatch
        {"dtype": "X9", "shape": [4], "data_offsets": [0, 16]},  # unknown dtype
        {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [4]},
    ],
    ids=["past-end", "size-mismatch", "unknown-dtype", "negative-dim", "no-offsets"],
)
def test_it_rejects_entries_that_do_not_fit_the_data(entry: dict) -> None:
    header = json.dumps({"x": entry}).encode()
    with pytest.raises(codec.SafetensorError):
        codec.load(struct.pack("<Q", len(header)) + header + bytes(16))


def test_it_refuses_dtypes_safetensors_cannot_hold() -> None:
    with pytest.raises(codec.SafetensorError, match="complex"):
        codec.save({"z": np.zeros(2, np.complex64)})


def test_framework_save_and_load_work_through_the_fallback(monkeypatch, tmp_path) -> None:
    """framework.save/load and jit graphs read and write with the codec alone."""
    import framework
    from framework.core import serialization
    from framework.jit import serialization as graph_io

    for name in ("SafetensorError", "safe_open"):
        monkeypatch.setattr(serialization, name, getattr(codec, name))
    monkeypatch.setattr(serialization, "load_bytes", codec.load)
    monkeypatch.setattr(serialization, "save_bytes", codec.save)
    monkeypatch.setattr(graph_io, "save", codec.save)
    monkeypatch.setattr(graph_io, "load_file", codec.load_file)
    monkeypatch.setattr(graph_io, "SafetensorError", codec.SafetensorError)

    state = {"w": framework.to_tensor(np.eye(3, dtype=np.float32)), "step": 4}
    framework.save(state, tmp_path / "s.pdparams")
    loaded = framework.load(tmp_path / "s.pdparams")
    assert loaded["step"] == 4
    np.testing.assert_array_equal(loaded["w"].numpy(), np.eye(3))

    layer = framework.nn.Linear(4, 2)
    layer.eval()
    spec = [framework.jit.InputSpec([None, 4], "float32", "x")]
    framework.jit.save(layer, str(tmp_path / "lin"), input_spec=spec)
    x = np.ones((2, 4), np.float32)
    np.testing.assert_allclose(
        framework.jit.load(str(tmp_path / "lin"))(framework.to_tensor(x)).numpy(),
        layer(framework.to_tensor(x)).numpy(),
        rtol=1e-6,
    )
