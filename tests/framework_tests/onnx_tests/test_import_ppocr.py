"""The three PP-OCR models shipped in the rapidocr-onnxruntime wheel (text detection,
recognition, direction classification; their weights are `Constant` nodes) import, give
onnxruntime's outputs on real images, and a detection + recognition pipeline reads text."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from tests.framework_tests.onnx_tests import ocr_pipeline as ocr

ort = pytest.importorskip("onnxruntime")
skimage_data = pytest.importorskip("skimage.data")
MODELS = ocr.models_dir()
if MODELS is None:
    pytest.skip(
        "rapidocr-onnxruntime (the PP-OCR models) is not installed", allow_module_level=True
    )

FILES = {
    "det": "ch_PP-OCRv4_det_infer.onnx",
    "rec": "ch_PP-OCRv4_rec_infer.onnx",
    "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
}


@pytest.fixture(scope="module")
def layers() -> dict:
    return {key: framework.onnx.load(MODELS / name) for key, name in FILES.items()}


@pytest.fixture(scope="module")
def sessions() -> dict:
    return {
        key: ort.InferenceSession(str(MODELS / name), providers=["CPUExecutionProvider"])
        for key, name in FILES.items()
    }


def _run(layer, x: np.ndarray) -> np.ndarray:
    with framework.no_grad():
        return layer(x).numpy()


def _rgb(gray: np.ndarray) -> np.ndarray:
    return np.repeat(gray[..., None], 3, axis=2)


def test_ppocr_weights_become_parameters_and_buffers(layers) -> None:
    det, rec, cls = layers["det"], layers["rec"], layers["cls"]
    # every Conv weight (stored as a Constant node) is a trainable parameter
    assert det.conv2d_0.w_0.shape == [16, 3, 3, 3] and not det.conv2d_0.w_0.stop_gradient
    assert sum(p.size for p in det.parameters()) > 1_000_000
    assert sum(p.size for p in rec.parameters()) > 2_500_000
    # running statistics are persistable buffers, part of the state dict
    state = cls.state_dict()
    assert "conv1_bn_mean" in state and "conv1_bn_mean" not in dict(cls.named_parameters())
    assert "conv1_weights" in dict(cls.named_parameters())
    # the recognizer's character list travels in the model's metadata
    assert len(ocr.characters(rec.metadata)) == 6625


# skimage's `text` is handwriting on a photographed board, which PP-OCR finds no print in (its
# map stays near 0 in onnxruntime too); `page` is a scanned book page, full of text.
@pytest.mark.parametrize(
    "image_name, side, text_fraction", [("text", 128, 0.0), ("page", 192, 0.1)]
)
def test_ppocr_det_matches_onnxruntime_on_real_images(
    layers, sessions, image_name, side, text_fraction
) -> None:
    image = _rgb(getattr(skimage_data, image_name)())
    x = ocr.det_input(image, side)
    got = _run(layers["det"], x)
    want = sessions["det"].run(None, {"x": x})[0]
    assert got.shape == want.shape == (1, 1, *x.shape[2:])
    np.testing.assert_allclose(got, want, atol=2e-4)
    assert (want > 0.3).mean() >= text_fraction


def test_ppocr_rec_matches_onnxruntime_on_a_scanned_line(layers, sessions) -> None:
    page = _rgb(skimage_data.page())
    title = page[10:34, 4:294]  # "Region-based segmentation"
    x = ocr.rec_input([title])
    got = _run(layers["rec"], x)
    want = sessions["rec"].run(None, {"x": x})[0]
    np.testing.assert_allclose(got, want, atol=5e-4)
    chars = ocr.characters(layers["rec"].metadata)
    assert ocr.ctc_decode(got, chars) == ocr.ctc_decode(want, chars)
    assert ocr.ctc_decode(got, chars)[0].replace(" ", "") == "Region-basedsegmentation"


def test_ppocr_cls_matches_onnxruntime_and_sees_upside_down_text(layers, sessions) -> None:
    line = ocr.render_text("Sampan reads text", font_size=28, margin=6)
    x = ocr.cls_input([line, line[::-1, ::-1].copy()])
    got = _run(layers["cls"], x)
    want = sessions["cls"].run(None, {"x": x})[0]
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert list(got.argmax(axis=1)) == [0, 1]  # labels '0' and '180'


def test_ocr_pipeline_reads_rendered_text(layers) -> None:
    text = "SAMPAN 2026"
    image = ocr.render_text(text, font_size=40)
    probability = _run(layers["det"], ocr.det_input(image, 128))[0, 0]
    boxes = ocr.db_boxes(probability, image.shape[:2])
    assert boxes
    crops = [image[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes]
    words = ocr.ctc_decode(_run(layers["rec"], ocr.rec_input(crops)), ocr.characters(
        layers["rec"].metadata))  # fmt: skip
    assert " ".join(words).upper().split() == text.split()


def test_an_imported_model_traces_to_the_graph_ir_and_exports_again(layers, tmp_path) -> None:
    """ONNX -> framework layer -> graph IR -> ONNX / jit.save: the classifier's shape chain
    (Shape, Cast, Slice, Concat, Reshape) runs on plain arrays, so only the data path is
    traced and the batch stays dynamic."""
    cls = layers["cls"]
    spec = [framework.jit.InputSpec([None, 3, 48, 192], "float32", "x")]
    path = framework.onnx.export(cls, str(tmp_path / "cls_again"), spec)
    framework.jit.save(cls, str(tmp_path / "cls_jit"), input_spec=spec)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    loaded = framework.jit.load(str(tmp_path / "cls_jit"))
    rng = np.random.default_rng(0)
    for batch in (1, 3):
        x = rng.uniform(-1, 1, (batch, 3, 48, 192)).astype(np.float32)
        want = _run(cls, x)
        np.testing.assert_allclose(session.run(None, {"x": x})[0], want, atol=1e-5)
        np.testing.assert_allclose(_run(loaded, x), want, atol=1e-5)


def test_the_imported_detector_serves_from_the_predictor_at_any_size(
    layers, sessions, tmp_path
) -> None:
    """Its feature pyramid upsamples with ONNX Resize (nearest, asymmetric, floor): Paddle's
    nearest resize, so the imported detector saves as a static graph with dynamic height and
    width, and the predictor gives onnxruntime's maps."""
    from framework.inference import Config, create_predictor

    det = layers["det"]
    spec = [framework.jit.InputSpec([None, 3, None, None], "float32", "x")]
    example = np.random.default_rng(0).random((1, 3, 64, 96)).astype(np.float32)
    prefix = str(tmp_path / "det")
    framework.jit.save(det, prefix, input_spec=spec, example_inputs=[framework.to_tensor(example)])
    graph = framework.jit.load(prefix).program
    assert sum(node.op_type == "resample_axis" for node in graph.nodes) == 12  # 6 Resize x 2 axes
    predictor = create_predictor(Config(prefix + ".json", prefix + ".safetensors"))
    session = sessions["det"]
    name = session.get_inputs()[0].name
    page = ocr.det_input(_rgb(skimage_data.page()), 192)
    for x in (page, np.random.default_rng(1).random((2, 3, 96, 64)).astype(np.float32)):
        want = session.run(None, {name: x})[0]
        (got,) = predictor.run([x])
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, atol=2e-4)  # as the eager import on real images
