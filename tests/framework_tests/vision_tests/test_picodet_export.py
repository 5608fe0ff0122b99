"""A PicoDet's exportable layer gives the model's boxes and scores through `framework.jit.save`
(jit.load and the predictor, at batch sizes it was not traced with) and through
`framework.onnx.export` (onnxruntime, and our own ONNX importer); NMS on those outputs gives
the model's detections."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.inference import Config, create_predictor
from framework.jit import InputSpec
from framework.vision.models import picodet_s
from framework.vision.ops import multiclass_nms
from tests.framework_tests.vision_tests.test_picodet import tiny


def _randomise_statistics(model) -> None:
    """Non-trivial batch-norm statistics and head biases, so that the exported graph's folded
    batch norms and the score path are really exercised."""
    rng = np.random.default_rng(1)
    for name, tensor in model.state_dict().items():
        if name.endswith("_mean"):
            tensor.set_value(rng.normal(0, 0.1, tensor.shape).astype(np.float32))
        elif name.endswith("_variance"):
            tensor.set_value(rng.uniform(0.5, 1.5, tensor.shape).astype(np.float32))
    for conv in model.head.cls_out:
        conv.bias.set_value(rng.normal(-1, 1, conv.bias.shape).astype(np.float32))


def _eager(exportable, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with framework.no_grad():
        boxes, scores = exportable(framework.to_tensor(x))
    return boxes.numpy(), scores.numpy()


def _close(got: np.ndarray, want: np.ndarray) -> None:
    scale = max(float(np.abs(want).max()), 1e-3)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-5 * scale)


def _same_detections(boxes, scores, want_boxes, want_scores) -> None:
    got = multiclass_nms(boxes, scores, 0.3, 0.6, 100, 20)
    want = multiclass_nms(want_boxes, want_scores, 0.3, 0.6, 100, 20)
    for g, w in zip(got, want, strict=True):
        assert len(w) > 0
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-3)


@pytest.fixture(scope="module")
def small():
    model = tiny(num_classes=3, input_size=128)
    _randomise_statistics(model)
    return model.export_layer()


def test_jit_save_and_the_predictor_give_the_model_outputs(small, tmp_path) -> None:
    path = str(tmp_path / "picodet")
    framework.jit.save(small, path, input_spec=[InputSpec([None, 3, 128, 128], "float32", "x")])
    loaded = framework.jit.load(path)
    predictor = create_predictor(Config(path))
    rng = np.random.default_rng(0)
    for batch in (1, 3):
        x = rng.standard_normal((batch, 3, 128, 128)).astype(np.float32)
        want = _eager(small, x)
        got = predictor.run([x])
        assert len(got) == 2
        for g, w in zip(got, want, strict=True):
            _close(g, w)
        again = loaded(framework.to_tensor(x))
        for g, w in zip(again, want, strict=True):
            _close(g.numpy(), w)
        _same_detections(*got, *want)


def test_onnx_export_matches_onnxruntime_and_reimports(small, tmp_path) -> None:
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    spec = [InputSpec([None, 3, 128, 128], "float32", "images")]
    path = framework.onnx.export(small, str(tmp_path / "picodet"), input_spec=spec)
    onnx.checker.check_model(path, full_check=True)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    reimported = framework.onnx.load(path)
    rng = np.random.default_rng(1)
    for batch in (1, 2):
        x = rng.standard_normal((batch, 3, 128, 128)).astype(np.float32)
        want = _eager(small, x)
        got = session.run(None, {"images": x})
        for g, w in zip(got, want, strict=True):
            _close(g, w)
        with framework.no_grad():
            again = reimported(x)
        for g, w in zip(again, want, strict=True):
            _close(g.numpy(), w)
        _same_detections(*got, *want)


def test_picodet_s_at_320_exports_to_both(tmp_path) -> None:
    ort = pytest.importorskip("onnxruntime")
    model = picodet_s(num_classes=3)
    _randomise_statistics(model)
    exportable = model.export_layer()
    spec = [InputSpec([None, 3, 320, 320], "float32", "images")]
    x = np.random.default_rng(2).standard_normal((1, 3, 320, 320)).astype(np.float32)
    want = _eager(exportable, x)
    framework.jit.save(exportable, str(tmp_path / "s"), input_spec=spec)
    from_predictor = create_predictor(Config(str(tmp_path / "s"))).run([x])
    path = framework.onnx.export(exportable, str(tmp_path / "s"), input_spec=spec)
    from_onnx = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(
        None, {"images": x}
    )
    for got in (from_predictor, from_onnx):
        for g, w in zip(got, want, strict=True):
            _close(g, w)
        _same_detections(*got, *want)
