"""PipelineParts holds the PP-OCR networks a job fine-tunes as one Layer: its state dict is
keyed `det.*` and `rec.*` (the weights contract exports read), its recognition view shares the
`rec` parameters, and asking for a part it does not hold is a clear error."""

from __future__ import annotations

import numpy as np
import pytest

import framework
from framework.vision.ocr import PipelineParts, TextRecognizer
from tests.framework_tests.ocr_tests.ocr_images import model_paths


@pytest.fixture(scope="module")
def paths() -> dict:
    return {key: str(path) for key, path in model_paths().items()}


def test_the_state_dict_is_keyed_by_part(paths) -> None:
    parts = PipelineParts.from_onnx(det=paths["det"], rec=paths["rec"])
    assert parts.parts == ["det", "rec"]
    det = framework.onnx.load(paths["det"]).state_dict()
    keys = set(parts.state_dict())
    assert {k for k in keys if k.startswith("det.")} == {f"det.{k}" for k in det}
    assert {k.split(".")[0] for k in keys} == {"det", "rec"}
    assert len(parts.parameters()) == len(parts.parameters_of("det")) + len(
        parts.parameters_of("rec")
    )


def test_the_recognition_view_shares_the_rec_weights(paths) -> None:
    parts = PipelineParts.from_onnx(rec=paths["rec"])
    view = parts.recognition()
    assert view.metadata.get("character")
    assert set(parts.state_dict()) == set(view.state_dict())  # both "rec.*"
    crop = np.full((48, 160, 3), 255, np.uint8)
    crop[16:32, 20:140] = 0
    lines = TextRecognizer(view).batch_input([crop])
    before = view(framework.to_tensor(lines)).numpy()
    for _, parameter in parts.named_parameters():  # zeroed through parts, read through the view
        parameter.set_value(np.zeros(parameter.shape, parameter.numpy().dtype))
    after = view(framework.to_tensor(lines)).numpy()
    assert not np.allclose(before, after)
    name = next(iter(dict(parts.named_parameters())))
    assert not view.state_dict()[name].numpy().any()


def test_missing_parts_are_clear_errors(paths) -> None:
    parts = PipelineParts.from_onnx(det=paths["det"])
    with pytest.raises(ValueError, match="no recognition network"):
        parts.recognition()
    with pytest.raises(ValueError, match="no 'rec' network"):
        parts.parameters_of("rec")
    with pytest.raises(ValueError, match="needs a detection or a recognition network"):
        PipelineParts()
    both = PipelineParts.from_onnx(det=paths["det"], rec=paths["rec"])
    with pytest.raises(TypeError, match="separate networks"):
        both(framework.to_tensor(np.zeros((1, 3, 32, 32), np.float32)))


def test_a_single_part_runs_as_its_network(paths) -> None:
    parts = PipelineParts.from_onnx(det=paths["det"])
    x = framework.to_tensor(np.random.default_rng(0).uniform(-1, 1, (1, 3, 64, 64)).astype("f4"))
    parts.eval()
    np.testing.assert_array_equal(parts(x).numpy(), parts.det(x).numpy())
