"""An OCR package reads what `OCRPipeline` reads (same strings, boxes within a pixel), with
NumPy, Pillow and the framework alone: its predict.py runs where torch, onnxruntime, paddle,
onnx and OpenCV cannot be imported."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from framework.inference.ocr_package import OCRSettings, ocr_meta, write_ocr_package
from framework.inference.package import PackageError, read_meta, unpack_package
from framework.inference.packaged_model import PackagedModel
from tests.framework_tests.ocr_tests import ocr_images

skimage_data = pytest.importorskip("skimage.data")
REPO = Path(__file__).resolve().parents[3]
RECEIPT = ["SAMPAN MART", "Milk 1L        2.50", "Bread          1.20", "合计：3.70 元"]
BLOCKED = ("torch", "onnxruntime", "paddle", "onnx", "cv2")


@pytest.fixture(scope="module")
def models() -> dict[str, Path]:
    return ocr_images.model_paths()


@pytest.fixture(scope="module")
def characters(models) -> list[str]:
    import framework

    return framework.onnx.read_model(str(models["rec"])).metadata["character"].splitlines()


@pytest.fixture(scope="module")
def package(tmp_path_factory, models, characters) -> Path:
    meta = ocr_meta("receipts", OCRSettings(), source={"version": "v1"})
    folder = tmp_path_factory.mktemp("ocr")
    return Path(write_ocr_package(models, characters, meta, folder / "ocr.zip"))


@pytest.fixture(scope="module")
def model(package):
    return PackagedModel.load(package)


@pytest.fixture(scope="module")
def reference(models):
    from framework.vision.ocr import OCRPipeline

    return OCRPipeline.from_onnx(models["det"], models["rec"], models["cls"])


def _png(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def _assert_same(answer: dict, lines: list) -> None:
    assert [line["text"] for line in answer["lines"]] == [line.text for line in lines]
    for got, want in zip(answer["lines"], lines, strict=True):
        np.testing.assert_allclose(got["polygon"], want.polygon, atol=1.0)
        assert got["score"] == pytest.approx(want.score, abs=1e-5)
    assert answer["text"] == "\n".join(line.text for line in lines)


@pytest.mark.parametrize("name", ["page", "receipt"])
def test_it_reads_what_the_pipeline_reads(model, reference, name) -> None:
    image = {
        "page": lambda: ocr_images.grey_to_bgr(skimage_data.page()),
        "receipt": lambda: ocr_images.render_lines(RECEIPT, size=28),
    }[name]()
    (answer,) = model.predict([_png(image)])
    lines = reference(image)
    assert lines, "the image has printed text"
    _assert_same(answer, lines)
    if name == "receipt":
        assert answer["text"].startswith("SAMPAN")
        assert "合计" in answer["text"] and "Bread" in answer["text"]


def test_its_threshold_drops_unsure_lines(model, reference) -> None:
    image = ocr_images.grey_to_bgr(skimage_data.page())
    scores = sorted(line.score for line in reference(image))
    middle = (scores[0] + scores[-1]) / 2
    (surer,) = model.predict([_png(image)], threshold=middle)
    assert surer["lines"] and all(line["score"] >= middle for line in surer["lines"])
    assert len(surer["lines"]) == sum(score >= middle for score in scores) < len(scores)
    (own,) = model.predict([_png(image)], class_thresholds={"text": 1.0})
    assert own["lines"] == [] and own["accepted"] is False


def test_its_meta_names_the_task_settings_and_files(package) -> None:
    meta = read_meta(package)
    assert meta.task == "ocr" and meta.class_names == ["text"]
    assert meta.score_threshold() == 0.5
    assert OCRSettings.from_json(meta.ocr) == OCRSettings()
    with zipfile.ZipFile(package) as archive:
        names = set(archive.namelist())
        readme = archive.read("README.md").decode()
    assert {"det.onnx", "cls.onnx", "rec.onnx", "dictionary.txt", "predict.py"} <= names
    assert "unclip" in readme and "1.6" in readme


def test_it_reads_with_the_dictionary_it_holds(tmp_path, models, characters) -> None:
    # Every "S" of the dictionary becomes "§": the package must read its own file, not the
    # ONNX metadata.
    changed = ["§" if c == "S" else c for c in characters]
    meta = ocr_meta("changed", OCRSettings())
    path = write_ocr_package(models, changed, meta, tmp_path / "changed.zip")
    image = ocr_images.render_lines(RECEIPT[:1], size=28)
    (answer,) = PackagedModel.load(path).predict([_png(image)])
    assert answer["text"].startswith("§AMPAN") and "S" not in answer["text"]


def test_it_refuses_a_zip_without_its_networks(tmp_path, package) -> None:
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(package) as source, zipfile.ZipFile(broken, "w") as target:
        for name in source.namelist():
            if name != "rec.onnx":
                target.writestr(name, source.read(name))
    with pytest.raises(PackageError, match="rec.onnx"):
        unpack_package(broken, tmp_path / "out")


def test_predict_py_runs_without_torch_onnxruntime_paddle_or_opencv(
    tmp_path, package, model
) -> None:
    folder = unpack_package(package, tmp_path / "unpacked")
    image = ocr_images.render_lines(RECEIPT, size=28)
    Image.fromarray(image).save(tmp_path / "receipt.png")
    # None in sys.modules makes `import torch` (and the rest) raise ImportError.
    block = "; ".join(f"sys.modules[{name!r}] = None" for name in BLOCKED)
    script = (
        f"import runpy, sys; {block}; sys.argv = ['predict.py', {str(tmp_path / 'receipt.png')!r}]"
        f"; runpy.run_path({str(folder / 'predict.py')!r}, run_name='__main__')"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["model"]["task"] == "ocr"
    (printed,) = document["predictions"]
    (here,) = model.predict([_png(image)])
    assert printed["lines"] == here["lines"]
    assert printed["text"].startswith("SAMPAN")
