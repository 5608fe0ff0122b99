"""framework.save / framework.load: exact round trips, safetensors on disk, no pickle, errors."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import save_file

import framework
from framework.core.tensor import Parameter

DTYPES = ["float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"]


def assert_same_tensor(loaded, original):
    assert isinstance(loaded, framework.Tensor)
    assert loaded.dtype == original.dtype
    assert loaded.shape == original.shape
    np.testing.assert_array_equal(loaded.numpy(), original.numpy())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (3,), (2, 0, 4), (2, 3, 4)])
def test_tensors_round_trip_exactly(dtype, shape, tmp_path):
    rng = np.random.default_rng(0)
    array = (rng.standard_normal(shape) * 50).astype(dtype)
    tensor = framework.to_tensor(array)
    framework.save({"x": tensor}, tmp_path / "t.pdparams")
    assert_same_tensor(framework.load(tmp_path / "t.pdparams")["x"], tensor)


def test_nested_structures_round_trip(tmp_path):
    weight = Parameter(np.arange(6, dtype=np.float32).reshape(2, 3), name="linear_0.w_0")
    weight.stop_gradient = False
    obj = {
        "model": {"linear.weight": weight, "linear.bias": framework.to_tensor([0.5, -1.5])},
        "optimizer": {"LR_Scheduler": {"last_epoch": 3, "last_lr": 0.0125}, "step": 7},
        "history": [1.5, float("inf"), None, "text", True, (1, 2, [3])],
        "mask": np.array([[True, False]]),
        "scalar": np.float32(2.5),
        "int_keys": {1: "one", (2, 3): "pair"},
        "nan": float("nan"),
        "": "empty key",
    }
    framework.save(obj, tmp_path / "ckpt" / "deep" / "all.pdparams")
    loaded = framework.load(tmp_path / "ckpt" / "deep" / "all.pdparams")
    assert_same_tensor(loaded["model"]["linear.weight"], weight)
    assert loaded["model"]["linear.weight"].name == "linear_0.w_0"
    assert loaded["model"]["linear.weight"].stop_gradient is False
    assert loaded["model"]["linear.bias"].stop_gradient is True
    assert loaded["optimizer"] == obj["optimizer"]
    assert loaded["history"][:2] == [1.5, float("inf")]
    assert loaded["history"][2:] == [None, "text", True, (1, 2, [3])]
    assert isinstance(loaded["mask"], np.ndarray) and loaded["mask"].dtype == bool
    np.testing.assert_array_equal(loaded["mask"], obj["mask"])
    assert type(loaded["scalar"]) is np.float32 and loaded["scalar"] == np.float32(2.5)
    assert loaded["int_keys"] == {1: "one", (2, 3): "pair"}
    assert math.isnan(loaded["nan"])
    assert loaded[""] == "empty key"
    assert list(loaded) == list(obj)


def test_a_state_dict_file_is_plain_safetensors_with_its_own_keys(tmp_path):
    state = {
        "fc.weight": framework.to_tensor(np.ones((2, 2), np.float32)),
        "fc.bias": framework.to_tensor([1.0, 2.0]),
    }
    path = tmp_path / "model.pdparams"
    framework.save(state, path)
    with safe_open(str(path), framework="np") as stream:
        assert sorted(stream.keys()) == ["fc.bias", "fc.weight"]
        structure = json.loads(stream.metadata()["framework.structure"])
    assert structure["dict"]["fc.weight"]["tensor"] == "fc.weight"
    assert b"\x80\x04" not in path.read_bytes()[:2]  # not a pickle stream


def test_a_foreign_safetensors_file_loads_as_a_flat_dict_of_tensors(tmp_path):
    save_file({"a": np.arange(3, dtype=np.int32)}, str(tmp_path / "plain.safetensors"))
    loaded = framework.load(tmp_path / "plain.safetensors")
    assert list(loaded) == ["a"] and loaded["a"].dtype == np.int32
    assert isinstance(
        framework.load(tmp_path / "plain.safetensors", return_numpy=True)["a"], np.ndarray
    )


def test_the_same_tensor_twice_is_stored_once_and_loads_shared(tmp_path):
    shared = framework.to_tensor(np.ones(4, np.float32))
    framework.save({"encoder.embed": shared, "decoder.embed": shared}, tmp_path / "tied")
    with safe_open(str(tmp_path / "tied"), framework="np") as stream:
        assert list(stream.keys()) == ["encoder.embed"]
    loaded = framework.load(tmp_path / "tied")
    assert loaded["encoder.embed"] is loaded["decoder.embed"]


def test_loaded_tensors_are_writable_for_in_place_training(tmp_path):
    framework.save({"w": framework.to_tensor([1.0, 2.0])}, tmp_path / "w")
    weight = framework.load(tmp_path / "w")["w"]
    weight._data += 1.0
    np.testing.assert_array_equal(weight.numpy(), [2.0, 3.0])


def test_return_numpy_gives_arrays(tmp_path):
    framework.save({"w": framework.to_tensor([1.0, 2.0])}, tmp_path / "w")
    loaded = framework.load(tmp_path / "w", return_numpy=True)
    assert isinstance(loaded["w"], np.ndarray) and loaded["w"].dtype == np.float32


def test_it_saves_to_and_loads_from_file_objects():
    buffer = io.BytesIO()
    framework.save({"w": framework.to_tensor([[1, 2]]), "meta": {"epoch": 2}}, buffer)
    buffer.seek(0)
    loaded = framework.load(buffer)
    assert loaded["meta"] == {"epoch": 2}
    assert loaded["w"].dtype == np.int64 and loaded["w"].tolist() == [[1, 2]]


def test_a_top_level_tensor_or_scalar_round_trips(tmp_path):
    framework.save(framework.to_tensor([3.0]), tmp_path / "t")
    assert framework.load(tmp_path / "t").tolist() == [3.0]
    framework.save(42, tmp_path / "n")
    assert framework.load(tmp_path / "n") == 42


def test_a_missing_file_says_so(tmp_path):
    with pytest.raises(FileNotFoundError, match="no saved file"):
        framework.load(tmp_path / "absent.pdparams")
    with pytest.raises(IsADirectoryError):
        framework.load(tmp_path)


def test_a_corrupt_file_gives_a_clear_error(tmp_path):
    path = tmp_path / "broken.pdparams"
    path.write_bytes(b"this is not a safetensors file at all")
    with pytest.raises(ValueError, match="not a valid framework save file"):
        framework.load(path)
    framework.save({"w": framework.to_tensor([1.0])}, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 2])  # truncated body
    with pytest.raises(ValueError, match="not a valid framework save file"):
        framework.load(path)


def test_a_corrupt_structure_gives_a_clear_error(tmp_path):
    path = tmp_path / "odd.pdparams"
    save_file(
        {"w": np.ones(1)},
        str(path),
        metadata={"framework.format_version": "1", "framework.structure": "{oops"},
    )
    with pytest.raises(ValueError, match="corrupt"):
        framework.load(path)
    save_file(
        {"w": np.ones(1)},
        str(path),
        metadata={"framework.format_version": "1", "framework.structure": '{"tensor": "gone"}'},
    )
    with pytest.raises(ValueError, match="'gone' it refers to is missing"):
        framework.load(path)


def test_it_refuses_objects_it_cannot_store_without_pickle(tmp_path):
    with pytest.raises(TypeError, match="cannot store a set"):
        framework.save({"bad": {1, 2}}, tmp_path / "bad")
    with pytest.raises(TypeError, match="dtype object"):
        framework.save({"bad": np.array([object()])}, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()


def test_a_failed_save_leaves_the_previous_file_intact(tmp_path):
    path = tmp_path / "keep.pdparams"
    framework.save({"w": framework.to_tensor([1.0])}, path)
    with pytest.raises(TypeError):
        framework.save({"w": framework.to_tensor([2.0]), "bad": object()}, path)
    assert framework.load(path)["w"].tolist() == [1.0]
    assert [p.name for p in tmp_path.iterdir()] == ["keep.pdparams"]
