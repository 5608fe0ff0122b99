"""`jit.save` / `jit.load`: files, round trips, TranslatedLayer, and errors for bad files."""

from __future__ import annotations

import json

import numpy as np
import pytest

import framework
import framework.nn.functional as F
from framework import nn
from framework.jit import FORMAT_VERSION, InputSpec, ModelFormatError, TranslatedLayer


class Small(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2D(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2D(3)
        self.head = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        return self.head(y.mean(axis=[2, 3]))


SPEC = [InputSpec([None, 2, 5, 5], "float32", "image")]


def _input(batch: int = 2, seed: int = 0) -> framework.Tensor:
    rng = np.random.default_rng(seed)
    return framework.to_tensor(rng.standard_normal((batch, 2, 5, 5)).astype(np.float32))


@pytest.fixture()
def saved(tmp_path):
    model = Small()
    model.eval()
    path = str(tmp_path / "small")
    framework.jit.save(model, path, input_spec=SPEC)
    return model, path


def test_it_writes_a_versioned_json_graph_and_safetensors_weights(saved) -> None:
    model, path = saved
    with open(path + ".json") as stream:
        doc = json.load(stream)
    assert doc["format"] == "sampan.graph" and doc["format_version"] == FORMAT_VERSION
    assert doc["inputs"] == [{"name": "image", "shape": [None, 2, 5, 5], "dtype": "float32"}]
    assert [n["op_type"] for n in doc["nodes"]][:3] == ["conv2d", "batch_norm", "relu"]
    from safetensors.numpy import load_file

    weights = load_file(path + ".safetensors")
    for name, tensor in model.state_dict().items():
        np.testing.assert_array_equal(weights[name], tensor.numpy())


def test_round_trip_gives_the_same_outputs_and_state(saved) -> None:
    model, path = saved
    loaded = framework.jit.load(path)
    assert isinstance(loaded, TranslatedLayer) and isinstance(loaded, nn.Layer)
    assert list(loaded.state_dict()) == list(model.state_dict())
    for name, tensor in model.state_dict().items():
        np.testing.assert_array_equal(loaded.state_dict()[name].numpy(), tensor.numpy())
    x = _input(3)
    with framework.no_grad():
        np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-5, atol=1e-6)


def test_it_loads_from_the_json_file_or_a_directory(saved, tmp_path) -> None:
    _, path = saved
    assert isinstance(framework.jit.load(path + ".json"), TranslatedLayer)
    assert isinstance(framework.jit.load(str(tmp_path)), TranslatedLayer)


def test_a_loaded_layer_takes_new_weights(saved) -> None:
    model, path = saved
    loaded = framework.jit.load(path)
    other = Small()
    other.eval()
    missing, unexpected = loaded.set_state_dict(other.state_dict())
    assert not missing and not unexpected
    x = _input()
    with framework.no_grad():
        np.testing.assert_allclose(loaded(x).numpy(), other(x).numpy(), rtol=1e-5, atol=1e-6)


def test_a_loaded_layer_trains_with_the_eager_gradients(saved) -> None:
    model, path = saved
    loaded = framework.jit.load(path)
    loaded.train()  # the graph was traced in eval mode: batch norm keeps its running stats
    x = _input()
    loaded(x).sum().backward()
    model(x).sum().backward()  # model is in eval mode: the same function
    for (name, mine), theirs in zip(loaded.named_parameters(), model.parameters(), strict=True):
        assert name in model.state_dict()
        if theirs.grad is None:
            assert mine.grad is None
            continue
        np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-6)
    optimizer = framework.optimizer.SGD(learning_rate=0.1, parameters=loaded.parameters())
    before = loaded(x).sum().item()
    optimizer.step()
    assert loaded(x).sum().item() != before


def test_it_rejects_inputs_of_the_wrong_shape_or_dtype(saved) -> None:
    _, path = saved
    loaded = framework.jit.load(path)
    with pytest.raises(ValueError, match="expects"):
        loaded(framework.ones([2, 3, 5, 5]))
    with pytest.raises(TypeError, match="float32"):
        loaded(framework.ones([2, 2, 5, 5], dtype="float64"))


def test_save_needs_an_input_spec() -> None:
    with pytest.raises(ValueError, match="input_spec"):
        framework.jit.save(Small(), "/tmp/never-written")


def test_save_accepts_example_tensors(tmp_path) -> None:
    model = Small()
    framework.jit.save(model, str(tmp_path / "m"), input_spec=[_input(1)])
    graph = framework.jit.load(str(tmp_path / "m")).program
    assert graph.values[graph.inputs[0]].shape == [1, 2, 5, 5]


def test_a_missing_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(ModelFormatError, match="no graph file"):
        framework.jit.load(str(tmp_path / "nothing"))


def test_missing_weights_are_a_clear_error(saved) -> None:
    import os

    _, path = saved
    os.remove(path + ".safetensors")
    with pytest.raises(ModelFormatError, match="no weights file"):
        framework.jit.load(path)


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda doc: "{not json", "not a readable JSON graph"),
        (lambda doc: json.dumps({**doc, "format": "onnx"}), "not a sampan.graph document"),
        (lambda doc: json.dumps({**doc, "format_version": 99}), "newer than this framework"),
        (lambda doc: json.dumps({**doc, "nodes": doc["nodes"][1:]}), "before it is defined"),
        (
            lambda doc: json.dumps(
                {**doc, "nodes": [{**doc["nodes"][0], "op_type": "teleport"}] + doc["nodes"][1:]}
            ),
            "unknown op type 'teleport'",
        ),
    ],
)
def test_a_corrupt_graph_is_a_clear_error(saved, corrupt, message) -> None:
    _, path = saved
    with open(path + ".json") as stream:
        doc = json.load(stream)
    with open(path + ".json", "w") as stream:
        stream.write(corrupt(doc))
    with pytest.raises(ModelFormatError, match=message):
        framework.jit.load(path)


def test_corrupt_weights_are_a_clear_error(saved) -> None:
    _, path = saved
    with open(path + ".safetensors", "r+b") as stream:
        stream.write(b"\xff" * 16)
    with pytest.raises(ModelFormatError, match="not a readable safetensors file"):
        framework.jit.load(path)


def test_weights_of_the_wrong_shape_are_a_clear_error(saved) -> None:
    from safetensors.numpy import load_file, save_file

    _, path = saved
    weights = load_file(path + ".safetensors")
    weights["conv.weight"] = np.zeros((1, 1), np.float32)
    save_file(weights, path + ".safetensors")
    with pytest.raises(ModelFormatError, match="conv.weight"):
        framework.jit.load(path)


@pytest.mark.gpu
def test_a_loaded_layer_runs_on_gpu_tensors(saved) -> None:
    model, path = saved
    loaded = framework.jit.load(path)
    loaded.to(device="gpu:0")
    x = _input(3)
    with framework.no_grad():
        got = loaded(x.cuda()).numpy()
        want = model(x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
