"""A fine-tuned imported network written back into its ONNX file answers as the Layer does,
in the framework's importer and in onnxruntime: PP-OCRv4's recognizer (weights in Constant
nodes) and a framework export (weights in initializers)."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.inference.onnx_weights import write_onnx_weights
from tests.framework_tests.ocr_tests import ocr_images


def perturbed(layer, key: str, scale: float = 0.5) -> dict[str, np.ndarray]:
    state = {k: v.numpy().copy() for k, v in layer.state_dict().items()}
    rng = np.random.default_rng(0)
    state[key] = state[key] + scale * rng.standard_normal(state[key].shape).astype(np.float32)
    layer.set_state_dict(state)
    return state


def run(layer, x: np.ndarray) -> np.ndarray:
    with framework.no_grad():
        return layer(framework.to_tensor(x)).numpy()


def test_the_recognizer_written_back_answers_as_the_perturbed_layer(tmp_path) -> None:
    ort = pytest.importorskip("onnxruntime")
    source = ocr_images.model_paths()["rec"]
    layer = framework.onnx.load(str(source))
    x = np.random.default_rng(1).uniform(-1, 1, (1, 3, 48, 160)).astype(np.float32)
    shipped = run(layer, x)
    key = next(k for k in layer.state_dict() if k.endswith(".w_0"))
    perturbed(layer, key)
    want = run(layer, x)
    assert np.abs(want - shipped).max() > 1e-3  # the perturbation shows in the output

    written = write_onnx_weights(source, layer.state_dict(), tmp_path / "rec.onnx")

    again = framework.onnx.load(written)
    np.testing.assert_allclose(run(again, x), want, atol=1e-5)
    assert again.metadata["character"] == layer.metadata["character"]
    session = ort.InferenceSession(written, providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x})[0]
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_initializer_weights_are_written_back_too(tmp_path) -> None:
    network = framework.nn.Sequential(framework.nn.Linear(4, 3), framework.nn.ReLU())
    framework.onnx.export(
        network,
        str(tmp_path / "small"),
        input_spec=[framework.static.InputSpec([None, 4], "float32", "x")],
    )
    layer = framework.onnx.load(str(tmp_path / "small.onnx"))
    key = next(iter(layer.state_dict()))
    perturbed(layer, key, 2.0)
    x = np.random.default_rng(2).standard_normal((5, 4)).astype(np.float32)

    written = write_onnx_weights(tmp_path / "small.onnx", layer.state_dict(), tmp_path / "w.onnx")

    np.testing.assert_allclose(run(framework.onnx.load(written), x), run(layer, x), atol=1e-6)


def test_it_refuses_unknown_keys_and_other_shapes(tmp_path) -> None:
    source = ocr_images.model_paths()["rec"]
    layer = framework.onnx.load(str(source))
    key, value = next(iter(layer.state_dict().items()))
    with pytest.raises(ValueError, match="no weights named"):
        write_onnx_weights(source, {"nope.w_0": value.numpy()}, tmp_path / "a.onnx")
    with pytest.raises(ValueError, match="shaped"):
        write_onnx_weights(source, {key: np.zeros((1, 2), np.float32)}, tmp_path / "b.onnx")
    assert not (tmp_path / "a.onnx").exists() and not (tmp_path / "b.onnx").exists()
