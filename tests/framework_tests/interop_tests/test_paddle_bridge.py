"""The Paddle bridge: `.pdparams` / `.pdopt` read without paddle, written for `paddle.load`."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

import framework
from framework.interop import paddle as bridge
from framework.interop.safe_unpickle import CheckpointError

INPUT = np.random.default_rng(4).standard_normal((2, 3, 32, 32)).astype("float32")


@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


def randomize_norms(model, seed: int = 0):
    """Non-trivial BatchNorm statistics, so a mis-mapped `_mean` / `_variance` shows."""
    rng = np.random.default_rng(seed)
    for name, tensor in model.state_dict().items():
        shape = list(tensor.shape)
        if name.endswith("_mean"):
            tensor.set_value((rng.standard_normal(shape) * 0.1).astype("float32"))
        elif name.endswith("_variance"):
            tensor.set_value((rng.random(shape) + 0.5).astype("float32"))
    model.eval()
    return model


def paddle_output(paddle, model, x: np.ndarray = INPUT) -> np.ndarray:
    model.eval()
    with paddle.no_grad():
        return model(paddle.to_tensor(x)).numpy()


def framework_output(model, x: np.ndarray = INPUT) -> np.ndarray:
    model.eval()
    with framework.no_grad():
        return model(framework.to_tensor(x)).numpy()


def assert_close(ours: np.ndarray, theirs: np.ndarray) -> None:
    scale = max(1.0, float(np.abs(theirs).max()))
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4 * scale)


# --- against real paddle -----------------------------------------------------------------------
def test_paddle_resnet18_weights_load_into_ours_with_equal_outputs(paddle, tmp_path: Path):
    paddle.seed(0)
    source = randomize_norms(paddle.vision.models.resnet18())
    path = tmp_path / "resnet18.pdparams"
    paddle.save(source.state_dict(), str(path))
    weights = bridge.load_state_dict(path)
    assert all(isinstance(v, np.ndarray) for v in weights.values())
    assert "StructuredToParameterName@@" not in weights
    model = framework.vision.models.resnet18()
    assert model.set_state_dict(weights) == ([], [])
    assert_close(framework_output(model), paddle_output(paddle, source))


def test_our_resnet18_weights_load_into_paddle_with_equal_outputs(paddle, tmp_path: Path):
    framework.seed(1)
    source = randomize_norms(framework.vision.models.resnet18(), seed=1)
    path = tmp_path / "ours.pdparams"
    bridge.save_state_dict(source.state_dict(), path)
    loaded = paddle.load(str(path))
    assert isinstance(loaded["fc.weight"], paddle.Tensor)
    assert loaded["fc.weight"].name == source.fc.weight.name
    model = paddle.vision.models.resnet18()
    missing, unexpected = model.set_state_dict(loaded)
    assert not missing and not unexpected
    assert_close(paddle_output(paddle, model), framework_output(source))


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_it_reads_every_protocol_paddle_writes(paddle, tmp_path: Path, protocol: int):
    layer = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    path = tmp_path / "small.pdparams"
    paddle.save(layer.state_dict(), str(path), protocol=protocol)
    ours = bridge.load_state_dict(path)
    theirs = paddle.load(str(path), return_numpy=True)
    assert list(ours) == list(theirs)
    for key in theirs:
        np.testing.assert_array_equal(ours[key], theirs[key])


def test_it_reads_optimizer_states_and_pickled_tensors(paddle, tmp_path: Path):
    linear = paddle.nn.Linear(3, 2)
    scheduler = paddle.optimizer.lr.StepDecay(0.1, step_size=2)
    optimizer = paddle.optimizer.Adam(learning_rate=scheduler, parameters=linear.parameters())
    linear(paddle.randn([4, 3])).sum().backward()
    optimizer.step()
    opt_path, nested_path = tmp_path / "m.pdopt", tmp_path / "nested.pdparams"
    paddle.save(optimizer.state_dict(), str(opt_path))
    paddle.save({"a": [linear.weight, {"b": linear.bias}], "n": 3}, str(nested_path))
    for path in (opt_path, nested_path):
        ours, theirs = bridge.load_state_dict(path), paddle.load(str(path), return_numpy=True)
        assert_same_tree(ours, theirs)
    assert bridge.load_state_dict(opt_path)["LR_Scheduler"] == {"last_epoch": 0, "last_lr": 0.1}


def assert_same_tree(ours: object, theirs: object) -> None:
    if isinstance(theirs, dict):
        assert list(ours) == list(theirs)
        for key in theirs:
            assert_same_tree(ours[key], theirs[key])
    elif isinstance(theirs, list | tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            assert_same_tree(a, b)
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray) and ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
    else:
        assert ours == theirs


def test_big_parameters_are_split_as_paddle_splits_them(paddle, tmp_path, monkeypatch):
    monkeypatch.setattr(bridge, "_MAX_SLICE_BYTES", 64)  # split anything over 16 float32s
    state = {"big": np.arange(50, dtype="float32").reshape(5, 10), "small": np.ones(3, "float32")}
    path = tmp_path / "split.pdparams"
    bridge.save_state_dict(state, path, protocol=2)
    with open(path, "rb") as stream:
        raw = pickle.load(stream)
    assert raw["UnpackBigParamInfor@@"]["big"]["slices"] == [f"big@@.{i}" for i in range(4)]
    for loaded in (paddle.load(str(path), return_numpy=True), bridge.load_state_dict(path)):
        np.testing.assert_array_equal(loaded["big"], state["big"])
        assert "big@@.0" not in loaded and "UnpackBigParamInfor@@" not in loaded


# --- without paddle ----------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_our_files_round_trip(tmp_path: Path, protocol: int):
    model = randomize_norms(framework.vision.models.mobilenet_v2(scale=0.35, num_classes=7))
    path = tmp_path / "m.pdparams"
    bridge.save_state_dict(model.state_dict(), path, protocol=protocol)
    weights = bridge.load_state_dict(path, keep_name_table=True)
    names = weights.pop("StructuredToParameterName@@")
    assert names["classifier.1.weight"] == model.classifier[1].weight.name
    assert list(weights) == list(model.state_dict())
    other = framework.vision.models.mobilenet_v2(scale=0.35, num_classes=7)
    other.set_state_dict(weights)
    np.testing.assert_array_equal(framework_output(other), framework_output(model))


def test_it_saves_nested_optimizer_states_and_plain_values(tmp_path: Path):
    state = {"w": framework.ones([2, 2]), "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.5}}
    path = tmp_path / "o.pdopt"
    bridge.save_state_dict(state, path)
    loaded = bridge.load_state_dict(path)
    np.testing.assert_array_equal(loaded["w"], np.ones((2, 2), "float32"))
    assert loaded["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.5}


def test_it_refuses_to_save_objects(tmp_path: Path):
    with pytest.raises(TypeError, match="cannot save object at 'x'"):
        bridge.save_state_dict({"x": object()}, tmp_path / "bad.pdparams")
    with pytest.raises(ValueError, match="protocol must be 2, 3 or 4"):
        bridge.save_state_dict({}, tmp_path / "bad.pdparams", protocol=5)
    assert not (tmp_path / "bad.pdparams").exists()


def test_it_reads_framework_save_files_too(tmp_path: Path):
    path = tmp_path / "native.pdparams"
    framework.save({"w": framework.ones([3]), "b": np.zeros(2, "int64")}, str(path))
    loaded = bridge.load_state_dict(path)
    np.testing.assert_array_equal(loaded["w"], np.ones(3))
    assert loaded["b"].dtype == np.int64


def test_a_missing_file_is_file_not_found(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match="no such weight file"):
        bridge.load_state_dict(tmp_path / "nope.pdparams")


@pytest.mark.parametrize(
    "content, message",
    [
        (b"PK\x03\x04 rest of a zip", "a PyTorch checkpoint"),
        (b"\x00\x00\x00\x00binary tensor", "not a paddle.save file"),
        (b"", "not a paddle.save file"),
        (pickle.dumps({"w": np.ones(3)}, protocol=4)[:-20], "not a valid pickle"),
        (pickle.dumps([np.ones(3)], protocol=4), "not a state dict"),
    ],
)
def test_files_that_are_not_pdparams_are_clear_errors(tmp_path: Path, content: bytes, message):
    path = tmp_path / "x.pdparams"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match=message):
        bridge.load_state_dict(path)
